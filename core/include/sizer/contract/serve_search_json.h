// The serving search's results as JSON (schemas sizer.serve_search.v1 and
// sizer.serve_search_chips.v1; docs/contract.md).
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "sizer/planners/scenario.h"
#include "sizer/planners/serving_search.h"

namespace sizer::serve {

// `sizer serve-search` / sizer.serveSearch() JSON (schema sizer.serve_search.v1).
nlohmann::json serve_search_to_json(const Scenario& s, const ServeSearchResult& r);

// `sizer serve-search --devices` / sizer.serveSearchChips() JSON (schema sizer.serve_search_chips.v1):
// per chip its best, front and counts; `best_chip` the chip whose best is cheapest per million
// output tokens (unpriced chips are compared only when no chip has a price: by output tokens/s per
// device).
nlohmann::json serve_chips_to_json(const Scenario& s, const std::vector<ChipSearch>& chips);

}  // namespace sizer::serve
