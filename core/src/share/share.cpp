// Share-link encoding (see share.h).
#include "sizer/share/share.h"

#include <nlohmann/json.hpp>

#include "sizer/contract/json_safe.h"
#include "sizer/contract/scenario_parse.h"
#include "sizer/contract/user_text.h"

namespace sizer {

namespace {
const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int value_of(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '-') return 62;
  if (c == '_') return 63;
  return -1;
}
}  // namespace

std::string base64url_encode(std::string_view in) {
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  const std::size_t rest = in.size() - i;
  if (rest == 1) {
    const unsigned v = static_cast<unsigned char>(in[i]) << 16;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
  } else if (rest == 2) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) | (static_cast<unsigned char>(in[i + 1]) << 8);
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
  }
  return out;
}

bool base64url_decode(std::string_view text, std::string* out) {
  if (text.size() % 4 == 1) return false;
  out->clear();
  out->reserve(text.size() * 3 / 4);
  unsigned buffer = 0;
  int bits = 0;
  for (char c : text) {
    const int v = value_of(c);
    if (v < 0) return false;
    buffer = (buffer << 6) | static_cast<unsigned>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  return true;
}

std::string encode_share(std::string_view scenario_json) {
  const JsonDocument j = parse_json(scenario_json, kMaxScenarioBytes);
  const std::string text = !j.ok() ? std::string(scenario_json)
                                   : j.value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return std::string(kShareVersion) + "." + base64url_encode(text);
}

DecodedShare decode_share(std::string_view fragment) {
  DecodedShare out;
  if (!fragment.empty() && fragment.front() == '#') fragment.remove_prefix(1);
  if (fragment.size() > kMaxShareChars) {
    out.issues.push_back({"link", "is too long (" + std::to_string(fragment.size()) + " characters; at most " +
                                      std::to_string(kMaxShareChars) + ")"});
    return out;
  }
  const std::size_t dot = fragment.find('.');
  if (dot == std::string_view::npos) {
    out.issues.push_back({"link", "is not a Sizer scenario link (expected \"s1.\" followed by the scenario)"});
    return out;
  }
  const std::string_view version = fragment.substr(0, dot);
  if (version != kShareVersion) {
    out.issues.push_back({"link", "has version " + echo_quoted(version, 16) + ", which this Sizer does not know (it reads " +
                                      std::string(kShareVersion) + ")"});
    return out;
  }
  std::string text;
  if (!base64url_decode(fragment.substr(dot + 1), &text)) {
    out.issues.push_back({"link", "is damaged: characters outside base64url or a truncated end"});
    return out;
  }
  const JsonDocument parsed = parse_json(text, kMaxScenarioBytes);
  if (!parsed.ok()) {
    out.issues.push_back({"link", "is damaged: its scenario " + parsed.error + " (truncated when copied?)"});
    return out;
  }
  const nlohmann::json& j = parsed.value;  // nesting bounded: dump() below is safe
  if (!j.is_object()) {
    out.issues.push_back({"link", "is damaged: it does not hold a scenario object (truncated when copied?)"});
    return out;
  }
  out.scenario_json = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (out.scenario_json.size() > kMaxScenarioBytes) {
    out.issues.push_back({"link", "holds a scenario that is too large"});
    out.scenario_json.clear();
  }
  return out;
}

}  // namespace sizer
