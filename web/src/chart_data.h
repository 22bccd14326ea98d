// The numbers behind the charts: sweeps made by running the core (sizer::evaluate and
// sizer::compare_devices) on copies of the scenario with one input varied. Rebuilt only when the
// scenario changes and the charts are on screen. No formulas here: every value is the core's.
#pragma once
#include "app_state.h"

namespace sizer_web {

// Fills state.view.charts for state.computed (no-op when already current).
void refresh_chart_data(AppState& state);

}  // namespace sizer_web
