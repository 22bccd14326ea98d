// State of the serving planner section (serve_planner.h): the last serving search and whether one
// is requested.
#pragma once
#include <vector>

#include "sizer/planners/serving_search.h"

namespace sizer_web {

struct ServePlannerState {
  bool requested = false;  // run the search on a later frame ("Searching…" shows first)
  int request_frames = 0;
  bool have = false;
  sizer::serve::ServeSearchResult result;
  double ms = 0;
  int revision = -1;  // Computed::revision the search ran for (stale when the inputs changed)
  int text_revision = 0;  // bumps when a search finishes (the results mirror is rebuilt)
  // The same search on every chip of the catalog (serve_chips.h).
  bool chips_requested = false;
  int chips_frames = 0;
  bool chips_have = false;
  std::vector<sizer::serve::ChipSearch> chips;
  double chips_ms = 0;
  int chips_revision = -1;
};

}  // namespace sizer_web
