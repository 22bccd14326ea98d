// Parallelism planner: evaluate the scenario's layout with the layout model, and search every
// valid layout for the best one.
//
// Usage:
//   sizer::LayoutResult r = sizer::evaluate_layout(s.model, s.device, sizer::plan_layout(s), sizer::plan_context(s));
//   sizer::SearchResult found = sizer::search_layouts(s);   // uses s.training.search
// The search enumerates every factorization of each device count into TP × PP × DP × CP × EP
// (for MoE models also EP folded into the TP × CP × DP ranks, expert TP 1 where TP > 1), with micro-batch sizes, virtual stages, ZeRO stages and recompute modes; it discards layouts
// that are invalid or do not fit, ranks the rest by the objective, and keeps the Pareto front of
// devices against training time.
#pragma once
#include <vector>

#include <string>

#include "sizer/layout/layout_accuracy.h"
#include "sizer/layout/layout_model.h"
#include "sizer/planners/scenario.h"

namespace sizer {

PlanLayout plan_layout(const Scenario& s);
PlanContext plan_context(const Scenario& s);

// A layout as the planner answers for it: the layout model's result and, for the layouts it
// returns (plan, the search's top and Pareto rows), the band the step is quoted with and the
// explanations. Every front end presents these; none recomputes them.
struct RankedLayout {
  PlanLayout layout;
  LayoutResult result;
  bool has_accuracy = false;  // a valid layout: its step is quoted with `accuracy`
  LayoutAccuracy accuracy;
  std::vector<std::string> explanations;  // explain_layout for it (layout_model.h)
};

// The scenario's own layout (training.layout, else the default), planned.
RankedLayout plan(const Scenario& s);

struct SearchResult {
  std::vector<RankedLayout> top;     // best first by the objective
  std::vector<RankedLayout> pareto;  // devices ascending, each faster than every smaller one
  std::vector<double> device_counts; // counts searched
  double layouts_evaluated = 0;
  double layouts_valid = 0;  // valid and fitting
  double search_s = 0;       // filled in by the front end (the core does not read clocks)
  bool truncated = false;    // stopped at kMaxSearchLayouts; narrow the range or the kinds allowed
};

constexpr double kMaxSearchLayouts = 4e6;  // about a second natively; keeps the browser responsive

// Device counts a [min, max] search visits: powers of two and 1.5× powers of two in range, the
// whole scale-up domains among them, and both ends.
std::vector<double> search_device_counts(double min, double max);

SearchResult search_layouts(const Scenario& s);

}  // namespace sizer
