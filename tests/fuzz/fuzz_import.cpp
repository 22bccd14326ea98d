// libFuzzer target for imported files (a scenario, a result or a table file dropped on the page):
// refused with printable issues, or a scenario that becomes portable, or tables that merge.
#include <cstdint>
#include <string_view>

#include "sizer/contract/catalog_load.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const sizer::Imported in = sizer::import_document(text, sizer::bundled_catalog());
  fuzz::check_issues(in.issues);
  if (!in.ok() && in.issues.empty()) std::abort();
  if (in.ok() && in.kind == sizer::ImportKind::scenario) {
    (void)sizer::portable_scenario(in.scenario, sizer::bundled_catalog());
  }
  if (in.ok() && in.kind == sizer::ImportKind::tables) {
    std::vector<sizer::Issue> issues;
    (void)sizer::user_catalog(in.tables, &issues);
    fuzz::check_issues(issues);
  }
  return 0;
}
