// The frame of a throughput–interactivity chart (the serving planner's Pareto front and the
// every-chip chart): an invisible button of the chart's size with its rectangle noted, a grid with
// tick labels, the axis label and the TPOT target as a vertical line. The small font stays pushed
// for the caller's marks: it pops it (ImGui::PopFont) when done.
#pragma once
#include "widgets.h"

namespace sizer_web {

struct FrontAxes {
  ImVec2 p0, p1;          // plot area, top left and bottom right
  double x1 = 1, y1 = 1;  // axis maxima (tokens/s per user, output tokens/s per device)
  float fh = 0;           // small font height
  bool hovered = false;
  ImDrawList* dl = nullptr;
  ImVec2 at(double x, double y) const {
    return ImVec2(p0.x + static_cast<float>(x / x1) * (p1.x - p0.x), p1.y - static_cast<float>(y / y1) * (p1.y - p0.y));
  }
};

// `x_max`, `y_max`: the data's largest values; `tpot_label_lines`: lines below the top at which
// the TPOT label sits (1 leaves the top line to a legend).
FrontAxes front_axes(Ui& ui, const char* id, const char* rect, float height, double x_max, double y_max,
                     double tpot_target, int tpot_label_lines);

}  // namespace sizer_web
