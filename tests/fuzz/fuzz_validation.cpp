// libFuzzer target for validation files (sizer validate), training and serving: refused with
// printable issues, or rows with finite predictions.
#include <cmath>
#include <cstdint>
#include <string_view>

#include "fuzz_common.h"
#include "sizer/contract/catalog_load.h"
#include "sizer/validation/serve_validation.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<sizer::Issue> issues;
  const auto rows = sizer::validate_runs(text, sizer::bundled_catalog(), &issues);
  fuzz::check_issues(issues);
  for (const sizer::ValidationRow& r : rows) {
    if (!std::isfinite(r.predicted) || !std::isfinite(r.error)) std::abort();
  }
  issues.clear();
  const auto serving = sizer::validate_serving_runs(text, sizer::bundled_catalog(), &issues);
  fuzz::check_issues(issues);
  for (const sizer::ServeValidationRow& r : serving.rows) {
    if (r.ok() && (!std::isfinite(r.predicted) || !std::isfinite(r.error))) std::abort();
  }
  return 0;
}
