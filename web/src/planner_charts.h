// Drawings of the planner view, made with ImGui draw lists: the step-time breakdown and the
// memory per device as horizontal stacked bars (hover a segment for its value), the layout drawn
// on the hardware (scale-up domains as boxes, PP stages as colours, TP groups as outlined runs of
// devices, the link each group uses) and the Pareto chart of devices against training days.
// They only draw what the layout model computed (sizer::LayoutResult, sizer::SearchResult).
#pragma once
#include "widgets.h"

namespace sizer_web {

void step_bar(Ui& ui, const sizer::LayoutResult& r);
void memory_bar(Ui& ui, const sizer::LayoutResult& r);
void layout_diagram(Ui& ui, const sizer::Scenario& s, const sizer::Layout& l, const sizer::LayoutResult& r);
// Pareto front of the search; returns the index of a clicked point in `search.pareto`, or -1.
int pareto_chart(Ui& ui, const sizer::SearchResult& search, const sizer::Layout& current,
                 const sizer::LayoutResult& current_result, float height);

}  // namespace sizer_web
