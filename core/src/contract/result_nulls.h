// Internal: the reasons behind null result leaves (see result_nulls.cpp).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "sizer/planners/estimate.h"
#include "sizer/planners/scenario.h"

namespace sizer::detail {

// Plain-language reason why the leaf at `path` (dotted, e.g. "training.compute.cost_usd") is null;
// "" when this function does not know one.
std::string null_reason(const std::string& path, const Scenario& s, const Estimate& e);

// Appends {"path", "why"} for every null under `node` (a list counts once) to *out.
void collect_nulls(const nlohmann::json& node, const std::string& path, const Scenario& s, const Estimate& e,
                   nlohmann::json* out);

}  // namespace sizer::detail
