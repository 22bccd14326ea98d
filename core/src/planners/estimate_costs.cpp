// Owning against renting, and carbon, for the scenario, with the working of each number.
// Formulas: sizer/ops/ownership.h.
#include <algorithm>

#include "ops_parts.h"
#include "sizer/planners/catalog.h"
#include "sizer/ops/ownership.h"

namespace sizer::detail {

void evaluate_ownership(const Scenario& s, Estimate& e, WorkingLog& w) {
  const OwnershipInputs& q = s.ownership;
  OwnershipResult& r = e.ownership;
  const double sys_w = s.power.system_w_per_device;
  r.known = q.capital_known && q.capital.usd_per_device > 0;
  if (!r.known) {
    e.notes.push_back("no purchase price for " + s.device.id +
                      " is bundled; give ownership.usd_per_device to compare owning with renting");
    return;
  }
  const double nsf = q.capital.network_storage_fraction;
  r.capex_usd_per_device = q.capital.usd_per_device * (1 + nsf);
  r.capital_usd_per_hour = ownership::capital_usd_per_hour(q.capital.usd_per_device, nsf, q.depreciation_years);
  r.power_usd_per_hour = ownership::power_usd_per_hour(sys_w, s.power.pue, q.usd_per_kwh);
  r.facility_usd_per_hour = ownership::facility_usd_per_hour(sys_w, q.colo_usd_per_kw_month);
  r.ops_usd_per_hour = ownership::ops_usd_per_hour(q.capital.usd_per_device, nsf, q.ops_fraction_per_year);
  r.usd_per_device_hour_owned = r.capital_usd_per_hour + r.power_usd_per_hour + r.facility_usd_per_hour + r.ops_usd_per_hour;
  r.breakeven_utilisation = ownership::breakeven_utilisation(r.usd_per_device_hour_owned, s.training.price.usd_per_device_hour);
  for (const PriceOffer& p : q.device_offers) {
    r.offers.push_back({p.id, p.offer_kind, p.provider, p.usd_per_device_hour,
                        ownership::breakeven_utilisation(r.usd_per_device_hour_owned, p.usd_per_device_hour)});
  }
  std::sort(r.offers.begin(), r.offers.end(),
            [](const OfferBreakeven& a, const OfferBreakeven& b) { return a.usd_per_device_hour < b.usd_per_device_hour; });
  for (double hours : e.compute.cluster_device_hours) r.training_cost_owned_usd.push_back(hours * r.usd_per_device_hour_owned);
  const ServingResult& v = e.serving;
  const double replica_owned = v.replica_devices * r.usd_per_device_hour_owned;
  r.serving_cost_per_million_tokens_owned_usd =
      v.replica_fits && v.tokens_per_s_per_replica > 0 && v.realised_share > 0
          ? replica_owned / (v.tokens_per_s_per_replica * v.realised_share * 3600 / 1e6) : 0;
  write_working(w, [&] {
    w.add("ownership.usd_per_device_hour_owned",
          "capex × (1 + network) ÷ (years × 8760) + W × PUE × $/kWh + W × $/kW-month ÷ 730 + ops share × capex ÷ 8760",
          "$" + num(q.capital.usd_per_device) + " × (1 + " + num(nsf) + ") ÷ (" + num(q.depreciation_years) +
              " × 8760) = $" + num(r.capital_usd_per_hour) + " + " + num(sys_w) + " W × " + num(s.power.pue) + " × $" +
              num(q.usd_per_kwh) + " = $" + num(r.power_usd_per_hour) + " + $" + num(q.colo_usd_per_kw_month) +
              "/kW-month = $" + num(r.facility_usd_per_hour) + " + ops $" + num(r.ops_usd_per_hour) + " → $" +
              num(r.usd_per_device_hour_owned) + " per device-hour (" + q.capital.id + ")",
          q.capital.source.empty() ? kSrcOwn : q.capital.source);
    w.add("ownership.breakeven_utilisation", "owned $/device-hour ÷ rented $/device-hour",
          num(r.usd_per_device_hour_owned) + " ÷ " + num(s.training.price.usd_per_device_hour) + " = " +
              num(r.breakeven_utilisation) + " (owning is cheaper when the devices are busy more than this share of hours)",
          kSrcOwn);
    for (size_t i = 0; i < r.training_cost_owned_usd.size(); ++i) {
      w.add("ownership.training_cost_owned_usd[" + std::to_string(i) + "]", "cluster device-hours × owned $/device-hour",
            num(e.compute.cluster_device_hours[i]) + " × " + num(r.usd_per_device_hour_owned) + " = $" +
                num(r.training_cost_owned_usd[i]),
            kSrcOwn);
    }
    w.add("ownership.serving_cost_per_million_tokens_owned_usd",
          "replica devices × owned $/h ÷ (tok/s × realised × utilisation × 3600 ÷ 1e6)",
          num(v.replica_devices) + " × " + num(r.usd_per_device_hour_owned) + " ÷ (" + num(v.tokens_per_s_per_replica) +
              " × " + num(v.realised_share) + " × 3600 ÷ 1e6) = $" + num(r.serving_cost_per_million_tokens_owned_usd),
          kSrcOwn);
  });
}

void evaluate_carbon(const Scenario& s, Estimate& e, WorkingLog& w) {
  const CarbonInputs& q = s.carbon;
  CarbonResult& r = e.carbon;
  r.g_co2e_per_kwh = q.grid.g_co2e_per_kwh;
  const double kg_dev = s.ownership.capital.embodied_kg_co2e_per_device;
  for (size_t i = 0; i < e.power.cluster_energy_wh.size(); ++i) {
    r.training_kg_co2e.push_back(carbon::kg_co2e(e.power.cluster_energy_wh[i], r.g_co2e_per_kwh));
    if (kg_dev > 0) {  // empty without a published figure (the JSON gives null)
      r.training_embodied_kg_co2e.push_back(
          carbon::embodied_kg_co2e(e.compute.cluster_devices[i], kg_dev, s.training.days, q.lifetime_years));
    }
  }
  const ServingResult& v = e.serving;
  const double replica_wh_per_h = v.replica_devices * s.power.system_w_per_device * s.power.pue;
  const double mtok_per_h = v.tokens_per_s_per_replica * v.realised_share * 3600 / 1e6;
  r.serving_g_co2e_per_million_tokens = v.replica_fits && mtok_per_h > 0 ? replica_wh_per_h / 1000 * r.g_co2e_per_kwh / mtok_per_h : 0;
  if (kg_dev <= 0 && !e.compute.cluster_devices.empty()) {
    e.notes.push_back("no published embodied emissions for " + s.device.id +
                      "; give carbon.embodied_kg_co2e_per_device to include them");
  }
  write_working(w, [&] {
    const std::string grid = q.grid.name + " " + num(r.g_co2e_per_kwh) + " g/kWh" +
                             (q.grid.year > 0 ? " (" + num(q.grid.year) + ")" : "");
    for (size_t i = 0; i < r.training_kg_co2e.size(); ++i) {
      w.add("carbon.training_kg_co2e[" + std::to_string(i) + "]", "cluster energy × grid intensity",
            num(e.power.cluster_energy_wh[i] / 1000) + " kWh × " + num(r.g_co2e_per_kwh) + " g ÷ 1000 = " +
                num(r.training_kg_co2e[i]) + " kg CO2e (" + grid + ")",
            q.grid.source.empty() ? kSrcCarbon : q.grid.source);
    }
    w.add("carbon.serving_g_co2e_per_million_tokens", "replica W × PUE × g/kWh ÷ million tokens per hour",
          num(replica_wh_per_h) + " W × " + num(r.g_co2e_per_kwh) + " g/kWh ÷ 1000 ÷ " + num(mtok_per_h) +
              " M tok/h = " + num(r.serving_g_co2e_per_million_tokens) + " g",
          q.grid.source.empty() ? kSrcCarbon : q.grid.source);
  });
}

}  // namespace sizer::detail
