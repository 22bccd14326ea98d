// `sizer serve-search` JSON (schema sizer.serve_search.v1; docs/contract.md, "serve-search").
#include <cmath>

#include "sizer/contract/json_object.h"
#include "sizer/contract/result_json.h"
#include "sizer/contract/serve_search_json.h"
#include "sizer/contract/user_text.h"

namespace sizer::serve {

std::vector<Issue> serve_search_issues(const Scenario& s, const Catalog& catalog,
                                       const std::vector<std::string>& device_ids) {
  std::vector<Issue> out;
  if (!s.serving.workload_given) {
    out.push_back({"serving.workload", "is required for serve-search: input_tokens, output_tokens and concurrency or "
                                       "requests_per_s (the search sweeps the concurrency; a rate sizes the fleet)"});
  }
  for (const std::string& d : device_ids) {
    if (d == "all") continue;
    const Device* found = catalog.find_device(d);
    if (!found || found->id != d) {
      out.push_back({"devices", "unknown device " + echo_quoted(d) + "; known: " + catalog.device_ids() + " (or all)"});
    }
  }
  return out;
}

namespace {

using nlohmann::json;

json num_or_null(double v, bool defined = true) { return defined && std::isfinite(v) ? json(v) : json(nullptr); }

json precisions(unsigned mask) {
  json a = json::array();
  for (Precision p : {Precision::bf16, Precision::fp8, Precision::fp4}) {
    if (mask & precision_bit(p)) a.push_back(to_string(p));
  }
  return a;
}

json point_json(const ServePoint& pt, bool priced) {
  json j = serve_performance_json(pt.perf);
  j["layout"] = json_object({{"tp", pt.layout.tp}, {"pp", pt.layout.pp}, {"dp", pt.layout.dp}, {"ep", pt.layout.ep},
                             {"devices", pt.layout.devices()}});
  j["weight_precision"] = to_string(pt.weight_precision);
  j["kv_precision"] = to_string(pt.kv_precision);
  j["compute_precision"] = to_string(pt.compute_precision);
  j["spec_decode"] = pt.spec_decode;
  j["concurrency"] = pt.concurrency;  // the requests in flight searched (the steady state's own is the same)
  j["replica_usd_per_hour"] = num_or_null(pt.replica_usd_per_hour, priced);
  j["cost_per_million_tokens_usd"] = num_or_null(pt.cost_per_million_tokens_usd, priced);
  j["mode"] = pt.disaggregated ? "disaggregated" : "aggregated";
  if (pt.disaggregated) {
    // `layout` is the decode instance; per decode instance, with its share of prefill instances.
    const ServeLayout& l = pt.prefill_layout;
    j["prefill_layout"] = json_object({{"tp", l.tp}, {"pp", l.pp}, {"dp", l.dp}, {"ep", l.ep},
                                       {"devices", l.devices()}});
    j["prefill_per_decode"] = num_or_null(pt.disagg.prefill_per_decode);
    j["devices_per_decode_instance"] = num_or_null(pt.disagg.devices_per_decode_instance);
    j["kv_transfer_s"] = num_or_null(pt.disagg.kv_transfer_s);
  }
  return j;
}

}  // namespace

json serve_search_to_json(const Scenario& s, const ServeSearchResult& r) {
  const ServingInputs& v = s.serving;
  const ServeSearchInputs& q = v.search;
  const bool priced = v.price.usd_per_device_hour > 0;
  const double domain = std::max(1.0, s.device.scale_up_domain);
  json pareto = json::array();
  for (const ServePoint& p : r.pareto) pareto.push_back(point_json(p, priced));
  json slo = json::object();
  if (v.slo.ttft_s > 0) slo["ttft_s"] = v.slo.ttft_s;
  if (v.slo.tpot_s > 0) slo["tpot_s"] = v.slo.tpot_s;
  json j = json_object({{"schema", "sizer.serve_search.v1"},
                        {"basis", "predicted by the serving performance model (docs/serving.md), aggregated and "
                                  "disaggregated serving"},
                        {"model", s.model.id == "custom" ? s.model.name : s.model.id},
                        {"device", s.device.id},
                        {"workload", json_object({{"input_tokens", v.workload.input_tokens},
                                                  {"output_tokens", v.workload.output_tokens}})},
                        {"slo", slo},
                        {"search",
                         json_object({
                             {"devices_min", r.devices_min}, {"devices_max", r.devices_max},
                             {"device_counts", serve_search_device_counts(r.devices_min, r.devices_max, domain)},
                             {"weight_precisions", precisions(r.weight_precisions)},
                             {"kv_precisions", precisions(r.kv_precisions)},
                             {"spec_decode", v.spec.draft_tokens > 0 ? (q.spec_decode_both ? "on and off" : "on") : "off"},
                             {"disaggregated", q.disaggregated},
                             {"not_searched", "other chips (one search per device); decode instances of disaggregated "
                                              "pools other than the aggregated front's configurations"}})},
                        {"layouts", r.layouts},
                        {"configs_evaluated", r.configs_evaluated},
                        {"configs_feasible", r.configs_feasible},
                        {"configs_meeting_slo", r.configs_meeting_slo},
                        {"truncated", r.truncated},
                        {"search_s", r.search_s},
                        {"pareto", pareto},
                        {"best_by", r.best_by},
                        {"price", priced ? json(v.price.id) : json(nullptr)}});
  if (r.have_best) {
    j["best"] = point_json(r.best, priced);
    const ServeFleet& f = r.fleet;
    j["fleet"] = json_object({{"basis", f.basis},
                              {"demand_output_tokens_per_s", num_or_null(f.demand_output_tokens_per_s)},
                              {"replicas", f.replicas},
                              {"devices", f.devices},
                              {"usd_per_hour", num_or_null(f.usd_per_hour, priced)},
                              {"cost_per_million_tokens_usd", num_or_null(f.cost_per_million_tokens_usd, priced)}});
    if (r.best.disaggregated) {
      j["fleet"]["decode_instances"] = f.replicas;
      j["fleet"]["prefill_instances"] = f.prefill_instances;
    }
  } else {
    j["best"] = nullptr;
    j["fleet"] = nullptr;
    j["no_best_reason"] = r.no_best_reason;
  }
  // The best of each kind, side by side (null when none of that kind meets the SLO).
  j["best_aggregated"] = r.have_best_aggregated ? point_json(r.best_aggregated, priced) : json(nullptr);
  j["best_disaggregated"] = r.have_best_disaggregated ? point_json(r.best_disaggregated, priced) : json(nullptr);
  return j;
}

json serve_chips_to_json(const Scenario& s, const std::vector<ChipSearch>& chips) {
  json arr = json::array();
  int best = -1;
  auto key = [&](const ChipSearch& c, bool any_priced) {
    // Lower is better: cost per million output tokens when priced, else −tokens/s per device.
    if (any_priced) return c.price_id.empty() ? 1e300 : c.result.best.cost_per_million_tokens_usd;
    return -c.result.best.perf.output_tokens_per_s_per_device;
  };
  bool any_priced = false;
  for (const ChipSearch& c : chips) any_priced = any_priced || (c.result.have_best && !c.price_id.empty());
  for (std::size_t i = 0; i < chips.size(); ++i) {
    const ChipSearch& c = chips[i];
    const ServeSearchResult& r = c.result;
    const bool priced = !c.price_id.empty();
    json front = json::array();
    for (const ServePoint& p : r.pareto) {
      front.push_back(json_object({
          {"tokens_per_s_per_user", num_or_null(p.perf.tokens_per_s_per_user)},
          {"output_tokens_per_s_per_device", num_or_null(p.perf.output_tokens_per_s_per_device)},
          {"meets_slo", p.perf.meets_slo}, {"mode", p.disaggregated ? "disaggregated" : "aggregated"}}));
    }
    json j = json_object({{"device", c.device},
                          {"device_name", c.device_name},
                          {"price", priced ? json(c.price_id) : json(nullptr)},
                          {"compute_precision", to_string(c.compute_precision)},
                          {"configs_evaluated", r.configs_evaluated},
                          {"pareto", front},
                          {"best", r.have_best ? point_json(r.best, priced) : json(nullptr)}});
    if (r.have_best) {
      j["fleet"] = json_object({{"replicas", r.fleet.replicas},
                                {"devices", r.fleet.devices},
                                {"usd_per_hour", num_or_null(r.fleet.usd_per_hour, priced)}});
      if (!any_priced || priced) {
        if (best < 0 || key(c, any_priced) < key(chips[best], any_priced)) best = static_cast<int>(i);
      }
    } else {
      j["no_best_reason"] = r.configs_evaluated > 0 ? r.no_best_reason
                                                    : "the device has no dense peak the weights can run at";
    }
    arr.push_back(j);
  }
  return json_object({{"schema", "sizer.serve_search_chips.v1"},
                      {"model", s.model.name},
                      {"chips", arr},
                      {"best_chip", best >= 0 ? json(chips[best].device) : json(nullptr)},
                      {"best_by", any_priced ? "cost_per_million_tokens_usd" : "output_tokens_per_s_per_device"}});
}

}  // namespace sizer::serve
