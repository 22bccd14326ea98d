// State of the serving planner section (serve_planner.h): the last serving search and whether one
// is requested.
#pragma once
#include "sizer/serve_search.h"

namespace sizer_web {

struct ServePlannerState {
  bool requested = false;  // run the search on a later frame ("Searching…" shows first)
  int request_frames = 0;
  bool have = false;
  sizer::serve::ServeSearchResult result;
  double ms = 0;
  int revision = -1;  // Computed::revision the search ran for (stale when the inputs changed)
  int text_revision = 0;  // bumps when a search finishes (the results mirror is rebuilt)
};

}  // namespace sizer_web
