// Share links: a scenario in a URL fragment, compact and versioned.
//
// A link fragment is "s1." followed by the base64url (RFC 4648 §5, no padding) of the minified
// scenario JSON the user edited — only what differs from the defaults, since omitted fields take
// the defaults — with custom devices and prices inline. The "s1" version names the encoding;
// the scenario inside carries its own schema, so links made today keep opening when the tables or
// the contract grow. Decoding never trusts its input: size caps, strict alphabet, valid UTF-8 JSON
// object, then the ordinary scenario parser.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "sizer/contract/issue.h"

namespace sizer {

constexpr const char* kShareVersion = "s1";
constexpr std::size_t kMaxShareChars = 16384;  // longer fragments are refused before decoding

std::string base64url_encode(std::string_view bytes);
// False on any character outside the base64url alphabet or an impossible length.
bool base64url_decode(std::string_view text, std::string* out);

// "s1.<base64url(JSON)>" for a scenario JSON text (minified by the caller or here).
std::string encode_share(std::string_view scenario_json);

struct DecodedShare {
  std::string scenario_json;  // the scenario text, ready for parse_scenario
  std::vector<Issue> issues;  // what is wrong with the fragment; empty when it decoded
  bool ok() const { return issues.empty(); }
};

// Accepts the fragment with or without its leading '#'. Checks size, version, alphabet, JSON.
DecodedShare decode_share(std::string_view fragment);

}  // namespace sizer
