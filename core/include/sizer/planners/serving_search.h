// The serving search (sizer/serve/serve_search.h) for a scenario, and on every chip of the catalog
// (`sizer serve-search`, `--devices`; the JS API's serveSearch and serveSearchChips).
#pragma once
#include <string>
#include <vector>

#include "sizer/planners/catalog.h"
#include "sizer/planners/scenario.h"
#include "sizer/serve/serve_search.h"

namespace sizer::serve {

// The search for a scenario: its model, device, serving context, serving.search ranges, price,
// KV link and demand (core/src/planners/serving_search.cpp).
ServeSearchResult search_serving(const Scenario& s);

// The search on each chip (core/src/planners/serving_search.cpp): the scenario with the device (its default
// price offer, system power and replica range) swapped in; every device of the catalog, or only
// `device_ids` when non-empty, in catalog order. A chip without a dense peak at any precision the
// weights could run at has no result (configs_evaluated 0).
struct ChipSearch {
  std::string device, device_name, price_id;  // price_id empty: no public price
  Precision compute_precision = Precision::bf16;
  ServeSearchResult result;
};
std::vector<ChipSearch> search_serving_chips(const Scenario& s, const Catalog& catalog,
                                             const std::vector<std::string>& device_ids = {});

}  // namespace sizer::serve
