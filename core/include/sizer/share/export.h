// Exports for people and spreadsheets: results and "Compare chips" rows as CSV or Markdown (and
// the comparison also as aligned text or JSON). The CLI (`sizer eval --format csv|markdown`,
// `sizer table --format ...`), the web UI's Export menu and the JS API all call these, so every
// front end writes the same bytes.
//
//   const nlohmann::json r = sizer::result_to_json(s, e);
//   std::string csv = sizer::results_csv(r);        // "path,value" per leaf, numbers as in the JSON
//   std::string md = sizer::results_markdown(r);    // headline table, ready to paste into a post
//   std::string t = sizer::comparison_table(rows, "markdown");
//
// User-supplied devices and prices are marked (a `user_supplied` column in CSV, "*" and a footnote
// in Markdown). User text is made inert: Markdown cells escape `|`, `<`, `>` and newlines; CSV
// cells are quoted and a leading = + - @ is neutralised (spreadsheet formula injection).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "sizer/planners/comparison.h"
#include "sizer/planners/scenario.h"

namespace sizer {

// Every leaf of the result's "model", "training" and "serving" blocks as "path,value" rows (lists
// as path[i]; null as an empty cell). Numbers are written exactly as in the JSON document.
std::string results_csv(const nlohmann::json& result);
// The headline results as a Markdown table: quantity | value | leaf path. `user_supplied` (what
// of the scenario is user-supplied, user_supplied_what) adds a visible mark naming it.
std::string results_markdown(const nlohmann::json& result, const std::string& user_supplied = "");

// True when the scenario's device, model or a price it uses is user-supplied.
bool uses_user_supplied(const Scenario& s);
// What of the scenario is user-supplied, for a mark people read: "model", "hardware", "price"
// joined as a list ("model and hardware", "model, hardware and price"); "" when nothing is.
std::string user_supplied_what(const Scenario& s);

// A result leaf formatted for people by its name's unit ("cost_usd" → "$128M", "energy_wh" →
// "63.6 GWh"); lists become "a – b" ranges. `leaf` is the last path component.
std::string format_leaf(std::string_view leaf, const nlohmann::json& value);

// The comparison rows in "text" | "csv" | "json" | "markdown" ("" for an unknown format).
std::string comparison_table(const std::vector<ComparisonRow>& rows, std::string_view format);

// Cell escaping used above (exposed for tests).
std::string csv_cell(std::string_view text);
std::string markdown_cell(std::string_view text);

}  // namespace sizer
