// libFuzzer target for user tables (--tables, the UI's custom hardware): merged into a copy of the
// bundled catalog, refused with printable issues or added.
#include <cstdint>
#include <string_view>

#include "sizer/contract/catalog_load.h"
#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  sizer::Catalog c = sizer::bundled_catalog();
  fuzz::check_issues(sizer::merge_tables(c, text, true));
  // What merged must still serve a scenario on every device.
  for (const sizer::Device& d : c.devices) {
    if (!d.user_supplied) continue;
    const auto p = sizer::parse_scenario("{\"device\": \"" + d.id + "\"}", c);
    fuzz::check_issues(p.issues);
  }
  return 0;
}
