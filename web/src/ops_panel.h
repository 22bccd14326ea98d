// The Reliability & cost view (docs/operations.md): predicted goodput from failures, checkpoints and
// restarts with its two charts; the storage check against the scenario's storage; owning against
// renting with the break-even chart; carbon; and the p10/p50/p90 intervals with the tornado chart.
// It shows what sizer::evaluate put in Estimate::reliability, storage, ownership, carbon and
// intervals, and the curves of sizer/planners/ops_curves.h (made once per estimate, OpsCharts).
#pragma once
#include "widgets.h"

namespace sizer_web {

void ops_panel(Ui& ui);

}  // namespace sizer_web
