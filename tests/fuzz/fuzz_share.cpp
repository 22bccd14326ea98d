// libFuzzer target for share links: the input as a fragment ("s1.…"), and as a scenario text
// put through encode_share and back. Decoded links go through the scenario parser.
#include <cstdint>
#include <string_view>

#include "sizer/contract/catalog_load.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const sizer::DecodedShare link = sizer::decode_share(text);
  fuzz::check_issues(link.issues);
  if (link.ok()) fuzz::check_issues(sizer::parse_scenario(link.scenario_json, sizer::bundled_catalog()).issues);
  const sizer::DecodedShare round = sizer::decode_share(sizer::encode_share(text));
  fuzz::check_issues(round.issues);
  const bool valid = sizer::parse_scenario(text, sizer::bundled_catalog()).ok();
  if (valid && size < 8000 && !round.ok()) std::abort();  // valid scenarios survive a link round trip
  return 0;
}
