// The offline file's 7-bit unpacker (web/src/unpack7.cpp; the page runs it as a standalone
// WebAssembly module) against the packing of web/cmake/inline_offline.py's pack7, restated here:
// every byte value, each of the three escaped values (NUL, CR, '<') at the start, in a run and as
// the last character, and lengths that leave 0–6 bits of padding. Platform-free, built natively.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

extern "C" unsigned unpack7(const unsigned char* in, unsigned n, unsigned char* out);

namespace {
// inline_offline.py's pack7, then UTF-8 as TextEncoder writes it.
std::string pack7_utf8(const std::vector<std::uint8_t>& data) {
  std::vector<unsigned> values;
  unsigned acc = 0, bits = 0;
  for (std::uint8_t byte : data) {
    acc = (acc << 8 | byte) & 0x7fff;
    bits += 8;
    while (bits >= 7) {
      bits -= 7;
      values.push_back(acc >> bits & 127);
    }
  }
  if (bits) values.push_back(acc << (7 - bits) & 127);
  const unsigned illegal[3] = {0, 13, 60};
  std::string out;
  for (std::size_t i = 0; i < values.size();) {
    const unsigned v = values[i];
    int index = -1;
    for (int k = 0; k < 3; ++k) {
      if (v == illegal[k]) index = k;
    }
    if (index < 0) {
      out += static_cast<char>(v);
      ++i;
      continue;
    }
    const unsigned next = i + 1 < values.size() ? values[i + 1] : 0;
    const unsigned code = 0x100 + 128 * static_cast<unsigned>(index) + next;  // U+0100..U+027F
    out += static_cast<char>(0xC0 | code >> 6);
    out += static_cast<char>(0x80 | (code & 0x3F));
    i += 2;
  }
  return out;
}

std::vector<std::uint8_t> roundtrip(const std::vector<std::uint8_t>& data) {
  const std::string text = pack7_utf8(data);
  std::vector<unsigned char> out(data.size() + 16, 0xAA);
  const unsigned n = unpack7(reinterpret_cast<const unsigned char*>(text.data()), static_cast<unsigned>(text.size()),
                             out.data());
  REQUIRE(n >= data.size());
  REQUIRE(n <= data.size() + 1);  // the last character's padding may add one byte
  return {out.begin(), out.begin() + static_cast<std::ptrdiff_t>(data.size())};
}
}  // namespace

TEST_CASE("unpack7: every byte value comes back", "[web][unpack7]") {
  std::vector<std::uint8_t> all;
  for (int r = 0; r < 3; ++r) {
    for (int b = 0; b < 256; ++b) all.push_back(static_cast<std::uint8_t>(b * 7 + r));
  }
  CHECK(roundtrip(all) == all);
}

TEST_CASE("unpack7: escaped values at the start, in runs and last; every padding length", "[web][unpack7]") {
  // Bytes whose 7-bit groups are 0, 13 and 60 in every position: zeros, and bytes built from them.
  for (std::size_t len = 0; len <= 24; ++len) {
    for (std::uint8_t fill : {0x00, 0x1A, 0x3C, 0x78, 0xFF, 0x0D}) {
      std::vector<std::uint8_t> data(len, fill);
      CHECK(roundtrip(data) == data);
    }
  }
  const std::vector<std::uint8_t> tail = {0x41, 0x42, 0x43, 0x00};  // ends in a NUL group
  CHECK(roundtrip(tail) == tail);
}

TEST_CASE("unpack7: nothing in, nothing out", "[web][unpack7]") {
  unsigned char out[4] = {1, 2, 3, 4};
  CHECK(unpack7(nullptr, 0, out) == 0);
  CHECK(out[0] == 1);
}
