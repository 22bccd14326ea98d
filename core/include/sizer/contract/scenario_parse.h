// Reading a scenario from the v1 JSON contract (docs/contract.md).
//
// Usage:
//   sizer::ParsedScenario p = sizer::parse_scenario(text, sizer::bundled_catalog());
//   if (!p.ok()) { for (auto& i : p.issues) show(i.path, i.message); }
//   else use(p.scenario);
// Every block may be omitted; defaults are the seed post's. Unknown keys, wrong types, out-of-range
// numbers, unknown ids and inconsistent shapes are reported with their JSON path; nothing throws.
#pragma once
#include <string_view>
#include <vector>

#include "sizer/contract/catalog_load.h"
#include "sizer/contract/issue.h"
#include "sizer/planners/comparison.h"
#include "sizer/planners/scenario.h"

namespace sizer {

constexpr std::size_t kMaxScenarioBytes = 1 << 20;  // 1 MiB: larger input is refused

struct ParsedScenario {
  Scenario scenario;
  std::vector<Issue> issues;     // errors: the scenario must not be used when non-empty
  std::vector<Issue> warnings;   // accepted but worth saying (e.g. TP does not divide heads)
  bool ok() const { return issues.empty(); }
};

ParsedScenario parse_scenario(std::string_view json_text, const Catalog& catalog);


// The scenario every front end starts from: the seed post's dense 1T on GB200 NVL72.
Scenario default_scenario(const Catalog& catalog);

// Why a serving replica layout `l` cannot hold the scenario's model, whether or not a workload makes
// the parser check it: TP must divide the heads, PP at most the layers, EP the experts and TP × DP,
// and the device needs a peak at the compute precision. One issue each, at `path` + ".tp" etc.;
// empty when the layout is sound. The parser and the editor's checks give the same messages.
std::vector<Issue> serve_layout_issues(const Scenario& s, const serve::ServeLayout& l, const std::string& path);

}  // namespace sizer
