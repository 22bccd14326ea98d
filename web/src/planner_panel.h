// The planner view: edit a parallel layout (TP, PP, DP, CP, EP, virtual stages, micro-batch,
// batch, sequence, recompute, ZeRO, ...) through the scenario, see what the layout model predicts
// for it (step time, MFU, memory, time and cost to train, with the working on hover), why a
// layout is bad (sizer::explain_layout, as a list), how it sits on the hardware, and search every
// layout for the best ones (sizer::search_layouts, on a button press).
#pragma once
#include "widgets.h"

namespace sizer_web {

void planner_panel(Ui& ui);

}  // namespace sizer_web
