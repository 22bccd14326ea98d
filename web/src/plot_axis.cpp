// Chart axes (see plot_axis.h).
#include "plot_axis.h"

#include <algorithm>
#include <cmath>

namespace sizer_web {

double Axis::t(double v) const {
  if (log) return (std::log10(std::max(v, 1e-300)) - std::log10(lo)) / (std::log10(hi) - std::log10(lo));
  return (v - lo) / (hi - lo);
}

std::vector<double> linear_ticks(double lo, double hi, int target) {
  std::vector<double> out;
  const double raw = (hi - lo) / target;
  if (!(raw > 0)) return out;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag * 10;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  }
  for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-6; v += step) out.push_back(v);
  return out;
}

std::vector<double> axis_ticks(const Axis& a) {
  if (!a.ticks.empty()) return a.ticks;
  if (!a.log) return linear_ticks(a.lo, a.hi, 5);
  std::vector<double> out;
  const double decades = std::log10(a.hi / a.lo);
  for (double e = std::floor(std::log10(a.lo)); e <= std::ceil(std::log10(a.hi)); ++e) {
    for (double m : {1.0, 2.0, 5.0}) {
      if (decades > 3 && m != 1.0) continue;
      const double v = m * std::pow(10.0, e);
      if (v >= a.lo * 0.999 && v <= a.hi * 1.001) out.push_back(v);
    }
  }
  return out;
}

}  // namespace sizer_web
