// A chart axis shared by the chart views (charts.cpp, ops_charts.cpp): linear or log, its mapping
// to 0..1, and nice tick values. Drawing stays with each view.
#pragma once
#include <string>
#include <vector>

namespace sizer_web {

using Format = std::string (*)(double);

struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  Format format = nullptr;
  std::vector<double> ticks;  // explicit tick values; empty = axis_ticks() chooses them
  double t(double v) const;   // 0..1 along the axis
};

// Nice linear ticks (1, 2, 2.5, 5 × 10^k) over [lo, hi], about `target` of them.
std::vector<double> linear_ticks(double lo, double hi, int target = 5);
// The axis's explicit ticks, else 1-2-5 per decade (1 only beyond three decades) on a log axis, or
// linear_ticks on a linear one.
std::vector<double> axis_ticks(const Axis& a);

}  // namespace sizer_web
