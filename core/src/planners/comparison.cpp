// Device comparison (see comparison.h).
#include "sizer/planners/comparison.h"

#include <algorithm>

#include "sizer/planners/estimate.h"

namespace sizer {

void apply_device_operations(const Catalog& c, Scenario* s) {
  ReliabilityInputs& q = s->training.reliability;
  if (!q.rates_given) {
    q.rates_fallback = false;
    if (const FailureRates* f = c.find_failure_rates(s->device.id)) {
      q.rates = *f;
      q.rates_fallback = !f->basis.empty() && f->basis != s->device.id;  // e.g. GB200 on H100's rates
    } else if (const FailureRates* d = c.find_failure_rates("default")) {
      q.rates = *d;
      q.rates_fallback = true;
    }
    q.failure_domain_devices = q.rates.failure_domain_devices;
  }
  OwnershipInputs& o = s->ownership;
  if (!o.usd_given) {
    const double embodied = o.capital.embodied_kg_co2e_per_device;
    const std::string embodied_source = o.capital.embodied_source;
    o.capital = CapitalCost{};
    o.capital_known = false;
    if (const CapitalCost* k = c.capital_for_device(s->device.id)) {
      o.capital = *k;
      o.capital_known = true;
    }
    if (o.embodied_given) o.capital.embodied_kg_co2e_per_device = embodied, o.capital.embodied_source = embodied_source;
  }
  o.device_offers.clear();
  for (const PriceOffer& p : c.prices) {
    if (p.device == s->device.id) o.device_offers.push_back(p);
  }
}

Scenario with_device(const Scenario& base, const Catalog& catalog, const Device& d) {
  Scenario s = base;
  if (d.id == base.device.id) return s;
  s.device = d;
  s.system_id.clear();
  const PriceOffer* p = catalog.find_price(d.default_price);
  s.training.price = p ? *p : PriceOffer{};
  s.serving.price = s.training.price;
  s.power.system_w_per_device = d.capped_system_w();
  s.serving.replica_devices = 0;  // re-derive the replica size for this device
  apply_device_operations(catalog, &s);  // its failure rates and capital cost
  return s;
}

std::vector<ComparisonRow> compare_devices(const Scenario& base, const Catalog& catalog,
                                           const std::vector<Precision>& precisions,
                                           const std::vector<std::string>& device_ids) {
  std::vector<ComparisonRow> rows;
  for (const Device& d : catalog.devices) {
    if (!device_ids.empty() &&
        std::find(device_ids.begin(), device_ids.end(), d.id) == device_ids.end()) {
      continue;
    }
    Scenario s = with_device(base, catalog, d);
    for (Precision prec : precisions) {
      if (d.dense_flops(prec) <= 0) continue;
      s.training.precision = prec;
      const Estimate e = evaluate(s, false, false);
      for (std::size_t i = 0; i < e.compute.mfu.size(); ++i) {
        ComparisonRow r;
        r.device = d.id;
        r.device_name = d.name;
        r.user_supplied = d.user_supplied;
        r.precision = prec;
        r.dense_peak_flops = e.compute.dense_peak_flops;
        r.mfu = e.compute.mfu[i];
        r.device_hours = e.compute.device_hours[i];
        r.cost_usd = e.compute.cost_usd.empty() ? 0 : e.compute.cost_usd[i];
        r.cluster_cost_usd = e.compute.cluster_cost_usd.empty() ? 0 : e.compute.cluster_cost_usd[i];
        r.price_note = s.training.price.usd_per_device_hour > 0 ? "" : d.price_note;
        r.price_id = s.training.price.usd_per_device_hour > 0 ? s.training.price.id : "";
        r.offer_kind = s.training.price.usd_per_device_hour > 0 ? s.training.price.offer_kind : "";
        r.cluster_devices = e.compute.cluster_devices[i];
        r.scale_up_domains = e.compute.scale_up_domains[i];
        r.facility_power_w = s.power.system_w_per_device > 0 ? e.power.facility_power_w[i] : 0;
        r.min_devices_usable = e.memory.min_devices_usable;
        r.replica_min_devices = e.serving.replica_min_devices;
        r.replica_devices = e.serving.replica_devices;
        r.tokens_per_s_per_replica = e.serving.tokens_per_s_per_replica;
        r.cost_per_million_tokens_usd = e.serving.cost_per_million_tokens_usd;
        rows.push_back(std::move(r));
      }
    }
  }
  return rows;
}

}  // namespace sizer
