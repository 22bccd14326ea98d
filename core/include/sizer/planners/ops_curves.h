// Curves behind the reliability and ownership charts (web: the Reliability & cost view; CLI and
// JS through the result JSON's numbers). Pure: scenario and estimate in, points out.
//
//   auto pts = sizer::goodput_vs_interval(s, e, 64);   // the optimum is e.reliability.checkpoint_interval_s
//   auto by_n = sizer::goodput_vs_devices(s, e, 48);   // the layout's size is e.reliability.job_devices
#pragma once
#include <vector>

#include "sizer/planners/estimate.h"
#include "sizer/planners/scenario.h"

namespace sizer {

struct CurvePoint {
  double x = 0, y = 0;
};

// Predicted goodput of the layout's job against the checkpoint interval (seconds, log-spaced from
// a tenth to ten times the optimum), everything else as in the scenario.
std::vector<CurvePoint> goodput_vs_interval(const Scenario& s, const Estimate& e, int points);
// Predicted goodput at the optimal interval against the job's device count (log-spaced from 8 to
// 64× the layout's devices, at least 1M), with the layout's checkpoint and restart settings.
std::vector<CurvePoint> goodput_vs_devices(const Scenario& s, const Estimate& e, int points);

}  // namespace sizer
