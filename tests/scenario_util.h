// Test helper: a scenario parsed from JSON text with the bundled tables; the test stops (REQUIRE)
// with the parser's messages when the text is refused.
#pragma once
#include <catch2/catch.hpp>
#include <string>

#include "sizer/planners/catalog.h"
#include "sizer/contract/scenario_parse.h"

namespace testutil {

inline sizer::Scenario scenario(const std::string& text) {
  const auto p = sizer::parse_scenario(text, sizer::bundled_catalog());
  INFO(sizer::format_issues(p.issues));
  REQUIRE(p.ok());
  return p.scenario;
}

}  // namespace testutil
