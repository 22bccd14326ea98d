// The operations parts of the result JSON (docs/operations.md; docs/contract.md "Result"): training.reliability,
// training.storage, ownership, carbon and intervals (their inputs are written back beside their
// readers, in scenario_ops.cpp).
#include "contract/result_ops_json.h"

#include "contract/json_leaves.h"

#include <cmath>

namespace sizer::detail {

namespace {

json quantiles_json(const Quantiles& q, bool defined) {
  if (!defined) return nullptr;
  return json_object({{"p10", num_or_null(q.p10)}, {"p50", num_or_null(q.p50)}, {"p90", num_or_null(q.p90)}});
}

}  // namespace

json reliability_json(const Scenario& s, const Estimate& e) {
  const ReliabilityResult& r = e.reliability;
  const bool peak = e.compute.dense_peak_flops > 0;
  const ReliabilityInputs& q = s.training.reliability;
  return json_object({{"goodput_mode", q.predict_goodput ? "predicted" : "assumed"},
                      {"goodput_used", list_or_null(e.goodput_used, peak)},
                      {"job_devices", num_or_null(r.job_devices)},
                      {"failures_per_device_day", num_or_null(r.failures_per_device_day)},
                      {"failure_rates", json_object({{"device", q.rates.device}, {"host", q.rates.host},
                                                     {"network", q.rates.network},
                                                     {"software", q.rates.software}, {"basis", q.rates.basis},
                                                     {"source", q.rates.source},
                                                     {"fallback", q.rates_fallback}})},
                      {"failure_domain_devices", q.failure_domain_devices},
                      {"job_mtbf_s", num_or_null(r.job_mtbf_s, r.job_mtbf_s > 0)},
                      {"expected_interruptions", num_or_null(r.expected_interruptions, peak)},
                      {"expected_failures", num_or_null(r.expected_failures, peak)},
                      {"checkpoint_bytes", num_or_null(r.checkpoint_bytes)},
                      {"checkpoint_mode", to_string(q.checkpoint)},
                      {"checkpoint_write_s", num_or_null(r.checkpoint_write_s)},
                      {"checkpoint_blocking_s", num_or_null(r.checkpoint_blocking_s)},
                      {"checkpoint_interval_s", num_or_null(r.checkpoint_interval_s)},
                      {"optimal_interval_s", num_or_null(r.optimal_interval_s)},
                      {"young_interval_s", num_or_null(r.young_interval_s, r.job_mtbf_s > 0)},
                      {"restart_s", num_or_null(r.restart_s)},
                      {"reload_s", num_or_null(r.reload_s)},
                      {"spare_domains", num_or_null(r.spare_domains)},
                      {"spare_shortfall_probability", num_or_null(r.spare_shortfall_probability)},
                      {"goodput_predicted", num_or_null(r.goodput_predicted)},
                      {"useful_days", num_or_null(r.useful_days, peak)},
                      {"wall_days", num_or_null(r.wall_days, peak && r.goodput_predicted > 0)},
                      {"extra_days", num_or_null(r.extra_days, peak && r.goodput_predicted > 0)},
                      {"lost_device_hours", num_or_null(r.lost_device_hours, peak && r.goodput_predicted > 0)},
                      {"extra_cost_usd", num_or_null(r.extra_cost_usd, peak && r.goodput_predicted > 0 &&
                                                                           s.training.price.usd_per_device_hour > 0)}});
}

json storage_json(const Scenario& s, const Estimate& e) {
  const StorageResult& r = e.storage;
  const StorageInputs& q = s.training.storage;
  return json_object({{"checkpoint_capacity_bytes", num_or_null(r.checkpoint_capacity_bytes)},
                      {"write_bytes_per_s_needed", num_or_null(r.write_bytes_per_s_needed)},
                      {"dataset_bytes", num_or_null(r.dataset_bytes)},
                      {"read_bytes_per_s_needed", num_or_null(r.read_bytes_per_s_needed)},
                      {"total_capacity_bytes", num_or_null(r.total_capacity_bytes)},
                      {"capacity_bytes", num_or_null(q.capacity_bytes, q.capacity_bytes > 0)},
                      {"write_bytes_per_s", s.training.checkpoint_bytes_per_s},
                      {"read_bytes_per_s", num_or_null(q.read_bytes_per_s, q.read_bytes_per_s > 0)},
                      {"capacity_verdict", r.capacity_verdict},
                      {"write_verdict", r.write_verdict},
                      {"read_verdict", r.read_verdict}});
}

json ownership_json(const Scenario& s, const Estimate& e) {
  const OwnershipResult& r = e.ownership;
  const OwnershipInputs& q = s.ownership;
  const bool k = r.known, peak = e.compute.dense_peak_flops > 0;
  json offers = json::array();
  for (const OfferBreakeven& o : r.offers) {
    offers.push_back(json_object({{"offer", o.offer_id}, {"offer_kind", o.offer_kind}, {"provider", o.provider},
                                  {"usd_per_device_hour", o.usd_per_device_hour},
                                  {"breakeven_utilisation", o.breakeven_utilisation}}));
  }
  return json_object({{"capital", k ? json(q.capital.id) : json(nullptr)},
                      {"capital_source", k ? json(q.capital.source) : json(nullptr)},
                      {"capex_usd_per_device", num_or_null(r.capex_usd_per_device, k)},
                      {"usd_per_device_hour_owned", num_or_null(r.usd_per_device_hour_owned, k)},
                      {"capital_usd_per_hour", num_or_null(r.capital_usd_per_hour, k)},
                      {"power_usd_per_hour", num_or_null(r.power_usd_per_hour, k)},
                      {"facility_usd_per_hour", num_or_null(r.facility_usd_per_hour, k)},
                      {"ops_usd_per_hour", num_or_null(r.ops_usd_per_hour, k)},
                      {"breakeven_utilisation",
                       num_or_null(r.breakeven_utilisation, k && s.training.price.usd_per_device_hour > 0)},
                      {"offers", k ? offers : json(nullptr)},
                      {"training_cost_owned_usd", list_or_null(r.training_cost_owned_usd, k && peak)},
                      {"serving_cost_per_million_tokens_owned_usd",
                       num_or_null(r.serving_cost_per_million_tokens_owned_usd,
                                   k && r.serving_cost_per_million_tokens_owned_usd > 0)}});
}

json carbon_json(const Scenario& s, const Estimate& e) {
  const CarbonResult& r = e.carbon;
  const bool powered = s.power.system_w_per_device > 0, peak = e.compute.dense_peak_flops > 0;
  const bool embodied = s.ownership.capital.embodied_kg_co2e_per_device > 0;
  return json_object({{"region", s.carbon.grid.id},
                      {"region_name", s.carbon.grid.name},
                      {"g_co2e_per_kwh", r.g_co2e_per_kwh},
                      {"grid_source", s.carbon.grid.source},
                      {"training_kg_co2e", list_or_null(r.training_kg_co2e, powered && peak)},
                      {"training_embodied_kg_co2e", list_or_null(r.training_embodied_kg_co2e, embodied && peak)},
                      {"serving_g_co2e_per_million_tokens",
                       num_or_null(r.serving_g_co2e_per_million_tokens,
                                   powered && r.serving_g_co2e_per_million_tokens > 0)}});
}

json intervals_json(const Scenario& s, const Estimate& e) {
  const IntervalResult& r = e.intervals;
  const bool ok = r.samples > 0;
  json sens = json::array();
  for (const SensitivityRow& x : r.sensitivity) {
    // An end of the range where no cluster meets the schedule is infinite: null (result_nulls.cpp says why).
    sens.push_back(json_object({{"input", x.input}, {"input_low", x.input_low}, {"input_high", x.input_high},
                                {"output_low", num_or_null(x.output_low)},
                                {"output_high", num_or_null(x.output_high)}}));
  }
  (void)s;
  return json_object({{"samples", num_or_null(r.samples)},
                      {"infeasible_share", num_or_null(r.infeasible_share)},
                      {"distribution", to_string(s.uncertainty.distribution)},
                      {"devices_quantiles", quantiles_json(r.cluster_devices, ok)},
                      {"wall_days_quantiles", quantiles_json(r.wall_days, ok)},
                      {"cost_usd_quantiles", quantiles_json(r.cluster_cost_usd, ok && r.has_cost)},
                      {"power_w_quantiles", quantiles_json(r.facility_power_w, ok && r.has_power)},
                      {"usd_per_million_tokens_quantiles",
                       quantiles_json(r.cost_per_million_tokens_usd, ok && r.has_serving_cost)},
                      {"sensitivity_output", r.sensitivity_output},
                      {"sensitivity_base", num_or_null(r.sensitivity_base, ok)},
                      {"sensitivity", sens}});
}

}  // namespace sizer::detail
