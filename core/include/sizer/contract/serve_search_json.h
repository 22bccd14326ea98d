// The serving search's results as JSON (schemas sizer.serve_search.v1 and
// sizer.serve_search_chips.v1; docs/contract.md).
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "sizer/contract/issue.h"
#include "sizer/planners/catalog.h"
#include "sizer/planners/scenario.h"
#include "sizer/planners/serving_search.h"

namespace sizer::serve {

// What a serving search needs beyond a valid scenario: serving.workload (the search sweeps its
// concurrency; a rate sizes the fleet) and, for the search on several chips, device ids the
// catalog knows (path "devices"; "all" or none means every chip). Empty when the search can run.
// The CLI's `serve-search` and the JS API's serveSearch and serveSearchChips all refuse with these.
std::vector<Issue> serve_search_issues(const Scenario& s, const Catalog& catalog,
                                       const std::vector<std::string>& device_ids = {});

// `sizer serve-search` / sizer.serveSearch() JSON (schema sizer.serve_search.v1).
nlohmann::json serve_search_to_json(const Scenario& s, const ServeSearchResult& r);

// `sizer serve-search --devices` / sizer.serveSearchChips() JSON (schema sizer.serve_search_chips.v1):
// per chip its best, front and counts; `best_chip` the chip whose best is cheapest per million
// output tokens (unpriced chips are compared only when no chip has a price: by output tokens/s per
// device).
nlohmann::json serve_chips_to_json(const Scenario& s, const std::vector<ChipSearch>& chips);

}  // namespace sizer::serve
