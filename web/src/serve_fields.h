// The Serving planner's layout and search-range fields: the replica layout {tp, pp, dp, ep} shown
// resolved and written whole, and serving.search.devices [min, max] (rects "planner:<path>",
// "planner:serving.search.devices[0]" and "[1]"). Cells of the planner's 4-column field table.
#pragma once
#include "sizer/planners/serving_search.h"
#include "widgets.h"

namespace sizer_web {

void layout_fields(Ui& ui);
// `last`: the last search, whose resolved range is shown when the scenario gives none.
void search_range_fields(Ui& ui, const sizer::serve::ServeSearchResult* last);

}  // namespace sizer_web
