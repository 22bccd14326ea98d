// Every chip on one chart: the serving search (sizer::serve::search_serving_chips) of the
// scenario on each device of the catalog, drawn as one throughput–interactivity front per chip,
// with a table of each chip's best configuration meeting the SLO (layout, throughput, $/M tokens,
// fleet). A section of the serving planner, run by its button.
#pragma once
#include <string>

#include "widgets.h"

namespace sizer_web {

void serve_chips_section(Ui& ui);

// Plain-text lines for the results mirror (the last chip comparison).
std::string serve_chips_text(const AppState& state);

}  // namespace sizer_web
