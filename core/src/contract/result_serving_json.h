// Internal: the serving parts of the result JSON (result_serving_json.cpp).
#pragma once
#include <nlohmann/json.hpp>

#include "sizer/planners/estimate.h"
#include "sizer/planners/scenario.h"

namespace sizer::detail {

using nlohmann::json;

// The result's serving block; `price_offer` is the scenario's serving price as the result shows it.
json serving_json(const Scenario& s, const Estimate& e, const json& price_offer);

}  // namespace sizer::detail
