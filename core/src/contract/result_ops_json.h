// Internal: the operations parts of the result JSON (result_ops_json.cpp).
#pragma once
#include <nlohmann/json.hpp>

#include "sizer/planners/estimate.h"
#include "sizer/planners/scenario.h"

namespace sizer::detail {

using nlohmann::json;

json reliability_json(const Scenario& s, const Estimate& e);  // training.reliability
json storage_json(const Scenario& s, const Estimate& e);      // training.storage
json ownership_json(const Scenario& s, const Estimate& e);    // ownership
json carbon_json(const Scenario& s, const Estimate& e);       // carbon
json intervals_json(const Scenario& s, const Estimate& e);    // intervals

}  // namespace sizer::detail
