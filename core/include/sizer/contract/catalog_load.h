// Loading the catalog (sizer/planners/catalog.h): the bundled tables come from assets/*.json
// compiled into the binary (bundled_catalog()); users can add or replace entries with their own
// tables (merge_tables), which are marked user_supplied.
#pragma once
#include <string_view>
#include <vector>

#include "sizer/contract/issue.h"
#include "sizer/planners/catalog.h"

namespace sizer {

// The tables bundled in the binary. Parsed once; the result is immutable.
const Catalog& bundled_catalog();

// Parses a table file ({"devices": [...]} / {"systems": [...]} / {"prices": [...]} /
// {"models": [...]}, or several at once) and adds its entries to `catalog`, replacing entries with
// the same id. Returns the problems found, each with its JSON path; entries with problems are
// skipped, the rest are added.
std::vector<Issue> merge_tables(Catalog& catalog, std::string_view json_text, bool user_supplied);

}  // namespace sizer
