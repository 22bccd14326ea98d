// libFuzzer target for the scenario parser and everything a valid scenario feeds: evaluation,
// result and plan JSON. Any input must either be refused with printable issues, or evaluate to a
// finite result. Build with -DSIZER_FUZZ=ON using clang (scripts/fuzz.sh does this).
#include <cstdint>
#include <string_view>

#include "sizer/contract/catalog_load.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const sizer::ParsedScenario p = sizer::parse_scenario(text, sizer::bundled_catalog());
  fuzz::check_issues(p.issues);
  fuzz::check_issues(p.warnings);
  if (!p.ok()) {
    if (p.issues.empty()) std::abort();
    return 0;
  }
  const sizer::Estimate e = sizer::evaluate(p.scenario);
  const nlohmann::json r = sizer::result_to_json(p.scenario, e, p.warnings);
  if (!fuzz::all_finite(r)) std::abort();
  (void)r.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (!fuzz::all_finite(sizer::plan_to_json(p.scenario))) std::abort();
  return 0;
}
