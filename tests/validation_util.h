// Test helper: published runs from docs/validation/ files, validated with the bundled tables; the
// test stops (REQUIRE) with the validator's messages when a file is missing or refused.
#pragma once
#include <catch2/catch.hpp>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include "sizer/contract/catalog_load.h"
#include "sizer/planners/catalog.h"
#include "sizer/validation/validation.h"

namespace testutil {

inline std::vector<sizer::ValidationRow> published_runs(std::initializer_list<const char*> files) {
  std::vector<sizer::ValidationRow> rows;
  for (const char* file : files) {
    std::ifstream f(std::string(SIZER_SOURCE_DIR) + "/docs/validation/" + file);
    INFO(file);
    REQUIRE(f);
    std::stringstream text;
    text << f.rdbuf();
    std::vector<sizer::Issue> issues;
    const auto more = sizer::validate_runs(text.str(), sizer::bundled_catalog(), &issues);
    INFO(sizer::format_issues(issues));
    REQUIRE(issues.empty());
    rows.insert(rows.end(), more.begin(), more.end());
  }
  return rows;
}

}  // namespace testutil
