// The planner's JSON (v1 contract additions): `sizer plan` and `sizer search` output, and the
// JS API's plan()/search(). Leaf names: step_s, mfu_predicted, model_flops_per_s_per_device,
// tokens_per_s, device_memory_bytes, fits, compute_s, tp_comm_s, pp_bubble_s, dp_comm_exposed_s,
// ep_comm_s, cp_comm_s, layouts_evaluated, search_s.
#pragma once
#include <nlohmann/json.hpp>

#include "sizer/layout/layout_accuracy.h"
#include "sizer/planners/planner.h"

namespace sizer {

nlohmann::json plan_layout_to_json(const PlanLayout& l);
// A planned layout's result, accuracy band and explanations, as plan() and the search give them.
nlohmann::json layout_result_to_json(const RankedLayout& x);
nlohmann::json plan_to_json(const Scenario& s);
// The band a step time is quoted with (sizer/layout/layout_accuracy.h): group, held_out_runs,
// p80_abs_error, step_s_low, step_s_high; null without a step.
nlohmann::json accuracy_to_json(const LayoutAccuracy& a, double step_s);  // {"schema": "sizer.plan.v1", "layout", "result", "explanations"}
nlohmann::json search_to_json(const Scenario& s, const SearchResult& r);

}  // namespace sizer
