// The serving search (sizer/serve/serve_search.h) for a scenario: its serving block resolved into
// the search's context and space, unchanged.
//
// The serving search on every chip (sizer/planners/serving_search.h, search_serving_chips): the same model,
// workload, SLO and search ranges on each device of the catalog, with that device's default price
// offer and system power, as the "Compare chips" view does for training (comparison.cpp). The
// GEMMs run at the scenario's compute precision where the chip has that peak, else at the chip's
// default for the weight precision (planners/serving_scenario.cpp): FP8 on a chip without FP8 runs BF16.
// Each chip's front and best come from search_serving unchanged; nothing here is a new formula.
#include <algorithm>

#include "sizer/planners/catalog.h"
#include "sizer/planners/comparison.h"
#include "sizer/planners/serve_scenario.h"
#include "sizer/planners/serving_search.h"

namespace sizer::serve {

ServeSearchResult search_serving(const Scenario& s) {
  const ServingInputs& v = s.serving;
  ServeSearchSpace space;
  space.search = v.search;
  space.usd_per_device_hour = v.price.usd_per_device_hour;
  space.kv_link_bytes_per_s = v.kv_link_bytes_per_s;
  space.prefill_utilisation = v.prefill_utilisation;
  space.demand_tokens_per_day = v.demand_tokens_per_day;
  return search_serving(s.model, s.device, serve_context(s), space);
}

std::vector<ChipSearch> search_serving_chips(const Scenario& base, const Catalog& catalog,
                                             const std::vector<std::string>& device_ids) {
  std::vector<ChipSearch> out;
  for (const Device& d : catalog.devices) {
    if (!device_ids.empty() && std::find(device_ids.begin(), device_ids.end(), d.id) == device_ids.end()) continue;
    Scenario s = with_device(base, catalog, d);
    if (d.dense_flops(s.serving.compute_precision) <= 0) {
      s.serving.compute_precision = default_compute_precision(d, s.serving.weight_precision);
    }
    ChipSearch c;
    c.device = d.id;
    c.device_name = d.name;
    c.price_id = s.serving.price.usd_per_device_hour > 0 ? s.serving.price.id : "";
    c.compute_precision = s.serving.compute_precision;
    if (d.dense_flops(s.serving.compute_precision) > 0) c.result = search_serving(s);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace sizer::serve
