// Curves for the reliability charts (see sizer/planners/ops_curves.h); the formulas are reliability.h's.
#include "sizer/planners/ops_curves.h"

#include <algorithm>
#include <cmath>

#include "ops_parts.h"
#include "sizer/ops/reliability.h"

namespace sizer {

std::vector<CurvePoint> goodput_vs_interval(const Scenario& s, const Estimate& e, int points) {
  std::vector<CurvePoint> out;
  const ReliabilityResult& r = e.reliability;
  const double mid = r.optimal_interval_s > 0 ? r.optimal_interval_s : 3600;
  const double lo = mid / 10, hi = mid * 10;
  const double planned = s.training.reliability.planned_per_day;
  for (int i = 0; i < points && points > 1; ++i) {
    const double tau = lo * std::pow(hi / lo, static_cast<double>(i) / (points - 1));
    const double g = reliability::goodput(tau, r.checkpoint_blocking_s, r.restart_s, r.job_mtbf_s);
    out.push_back({tau, reliability::with_planned(g, planned, r.restart_s)});
  }
  return out;
}

std::vector<CurvePoint> goodput_vs_devices(const Scenario& s, const Estimate& e, int points) {
  std::vector<CurvePoint> out;
  const double lo = 8, hi = std::max(1e6, 64 * s.training.layout.devices());
  for (int i = 0; i < points && points > 1; ++i) {
    const double n = std::round(lo * std::pow(hi / lo, static_cast<double>(i) / (points - 1)));
    out.push_back({n, detail::reliability_for(s, e, n, 1).goodput_predicted});
  }
  return out;
}

}  // namespace sizer
