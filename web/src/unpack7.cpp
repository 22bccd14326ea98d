// The offline file's 7-bit text back into bytes (web/cmake/inline_offline.py writes it; its loader
// runs this). Built on its own as a standalone WebAssembly module of a few hundred bytes, which the
// loader compiles synchronously and calls once: the text is UTF-8 encoded into the module's memory
// by TextEncoder (native code) and unpacked here, about 3x faster than the same loop in JavaScript
// on a cold page (docs/budgets.md, tenth session).
//
// Input: the text's UTF-8 bytes. Each character is a 7-bit value (one byte, 0–127) or, for the three
// values a <script> element cannot carry (NUL, CR, '<'), U+0100 + 128 × (its index in kIllegal) +
// (the next 7-bit value), two UTF-8 bytes. Output: the values' bits, 8 to a byte. Returns the number
// of bytes written (one more than the data when the last character carries padding).
namespace {
const unsigned char kIllegal[3] = {0, 13, 60};
}  // namespace

extern "C" unsigned unpack7(const unsigned char* in, unsigned n, unsigned char* out) {
  unsigned acc = 0, bits = 0, k = 0;
  for (unsigned i = 0; i < n; i++) {
    unsigned c = in[i];
    if (c >= 128) {  // an escaped value, then the next one
      c = (((c & 0x1Fu) << 6) | (in[++i] & 0x3Fu)) - 256u;
      acc = (acc << 7 | kIllegal[c >> 7]) & 0x7fffu;
      bits += 7;
      if (bits >= 8) { bits -= 8; out[k++] = static_cast<unsigned char>(acc >> bits); }
      c &= 127u;
    }
    acc = (acc << 7 | c) & 0x7fffu;
    bits += 7;
    if (bits >= 8) { bits -= 8; out[k++] = static_cast<unsigned char>(acc >> bits); }
  }
  return k;
}
