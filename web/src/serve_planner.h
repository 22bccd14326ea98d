// The serving planner: a section of the Serving view that runs the serving performance model
// (serving.workload, serving.slo, serving.layout; docs/serving.md) and `serve-search` in the page:
// the predicted TTFT, TPOT and throughput of the scenario's replica, then the
// throughput–interactivity Pareto front of every configuration with the TPOT target drawn on it,
// the cheapest configuration that meets the SLO and the fleet for the demand.
#pragma once
#include <string>

#include "sizer/serve/serving_model.h"
#include "widgets.h"

namespace sizer_web {

void serve_planner(Ui& ui);

// "TP 8 × PP 2 × DP 4, EP 32 (64 devices)": a serving layout as the planner names it.
std::string layout_text(const sizer::serve::ServeLayout& l);

// Plain-text lines for the results mirror (the prediction, and the last search).
std::string serve_planner_text(const AppState& state);

}  // namespace sizer_web
