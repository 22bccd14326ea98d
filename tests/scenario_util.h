// Test helper: a scenario parsed from JSON text with the bundled tables; the test stops (REQUIRE)
// with the parser's messages when the text is refused.
#pragma once
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
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

// Whether `text` contains `part`.
inline bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The result's `nulls` entry for `path` (why that number is null), or "" when it gives none.
inline std::string why_null(const nlohmann::json& r, const std::string& path) {
  for (const nlohmann::json& n : r["nulls"]) {
    if (n["path"] == path) return n["why"].get<std::string>();
  }
  return "";
}

}  // namespace testutil
