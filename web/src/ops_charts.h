// Charts of the Reliability & cost view, drawn with ImGui draw lists: predicted goodput against
// the checkpoint interval and against the job's size (log x, the optimum and the layout marked),
// the yearly cost of a device owned against renting it at a utilisation (the crossings are the
// break-even utilisations) and the tornado chart of the sensitivity rows. Hovering shows the
// value under the pointer (mirrored as window.sizerHover). They only draw what the core computed
// (sizer/planners/ops_curves.h, sizer/ops/operations.h, sizer/ops/uncertainty.h).
//
// Also the words and units of the interval and sensitivity names, shared with the text mirror.
#pragma once
#include <string>
#include <vector>

#include "sizer/planners/ops_curves.h"
#include "widgets.h"

namespace sizer_web {

// Rect "chart:ops-interval". `optimum_s`: Daly's interval; `current_s`: the interval used.
void goodput_interval_chart(Ui& ui, const std::vector<sizer::CurvePoint>& pts, double optimum_s, double current_s,
                            float height);
// Rect "chart:ops-devices". `layout_devices`: the layout's size, marked.
void goodput_devices_chart(Ui& ui, const std::vector<sizer::CurvePoint>& pts, double layout_devices, float height);
// Rect "chart:ops-breakeven": the owned cost per device-year flat, each offer rising with use.
void breakeven_chart(Ui& ui, const sizer::OwnershipResult& o, float height);
// Rect "chart:ops-tornado": one bar per sensitivity row, output_low to output_high about the base.
void tornado_chart(Ui& ui, const sizer::IntervalResult& r);

// "MFU", "Price per device-hour", ... for a sensitivity row's input.
std::string sensitivity_input_label(const std::string& input);
// An input's value in its unit ("38%", "$5.97/h", "×0.62").
std::string sensitivity_input_value(const std::string& input, double v);
// A value of an interval or sensitivity output ("cluster_cost_usd" -> "$480M"); "out of reach"
// for the infinite values that mean no cluster meets the schedule.
std::string interval_output_value(const std::string& output, double v);
// "cluster rental cost", "cluster devices", ...
std::string interval_output_label(const std::string& output);

}  // namespace sizer_web
