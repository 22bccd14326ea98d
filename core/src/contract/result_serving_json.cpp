// The result's serving block (see result_json.h): the seed's ceilings, and the serving
// performance model's prediction and disaggregated pools where the scenario asks for them.
#include "contract/result_serving_json.h"

#include <cmath>

#include "contract/json_leaves.h"
#include "sizer/contract/result_json.h"

namespace sizer {

using detail::num_or_null;
using nlohmann::json;

namespace {

json step_json(const serve::StepTime& t) {
  return json_object({{"step_s", num_or_null(t.step_s)},
                      {"weights_read_s", num_or_null(t.weights_read_s)},
                      {"kv_read_s", num_or_null(t.kv_read_s)},
                      {"compute_s", num_or_null(t.compute_s)},
                      {"comm_s", num_or_null(t.comm_s)},
                      {"overhead_s", num_or_null(t.overhead_s)},
                      {"bound", serve::to_string(t.bound)},
                      {"weight_bytes_read_per_device", num_or_null(t.weight_bytes_read)},
                      {"kv_bytes_read_per_device", num_or_null(t.kv_bytes_read)},
                      {"flops_per_device", num_or_null(t.flops)},
                      {"experts_touched_fraction", num_or_null(t.experts_touched_fraction)}});
}

// serving.disaggregated: the prefill and decode pools' prediction (serve::evaluate_disaggregated).
json disaggregated_json(const Scenario& s, const serve::DisaggPerformance& p) {
  const ServingInputs& in = s.serving;
  auto pool = [](const serve::ServeLayout& l) {
    return json_object(
        {{"tp", l.tp}, {"pp", l.pp}, {"dp", l.dp}, {"ep", l.ep}, {"devices", l.devices()}});
  };
  return json_object(
      {{"basis",
        "predicted by the serving performance model with prefill and decode on separate pools "
        "(docs/serving.md)"},
       {"prefill_layout", pool(in.disagg.prefill)},
       {"decode_layout", pool(in.disagg.decode)},
       {"prefill_device",
        in.disagg_prefill_device_given ? in.disagg_prefill_device.id : s.device.id},
       {"decode_device", s.device.id},
       {"ttft_s", num_or_null(p.ttft_s)},
       {"tpot_s", num_or_null(p.tpot_s)},
       {"e2e_s", num_or_null(p.e2e_s)},
       {"queue_s", num_or_null(p.queue_s)},
       {"prefill_s", num_or_null(p.prefill_service_s)},
       {"kv_transfer_s", num_or_null(p.kv_transfer_s)},
       {"kv_transfer_bytes", num_or_null(p.kv_transfer_bytes)},
       {"tokens_per_s_per_user", num_or_null(p.tokens_per_s_per_user)},
       {"decode_batch", num_or_null(p.decode_batch)},
       {"decode_requests_per_s_per_instance", num_or_null(p.decode_requests_per_s)},
       {"prefill_requests_per_s_per_instance_max", num_or_null(p.prefill_requests_per_s_max)},
       {"prefill_utilisation", num_or_null(p.prefill_utilisation)},
       {"prefill_per_decode", num_or_null(p.prefill_per_decode)},
       {"devices_per_decode_instance", num_or_null(p.devices_per_decode_instance)},
       {"output_tokens_per_s_per_device", num_or_null(p.output_tokens_per_s_per_device)},
       {"decode_max_concurrency_kv", num_or_null(p.decode_memory.max_concurrency_kv)},
       {"decode_step_s", num_or_null(p.decode.step_s)},
       {"prefill_step_s", num_or_null(p.prefill.step_s)},
       {"decode_bound", serve::to_string(p.decode.bound)},
       {"meets_slo", p.meets_slo},
       {"ttft_ok", p.ttft_ok},
       {"tpot_ok", p.tpot_ok}});
}

}  // namespace

json serve_performance_json(const serve::Performance& p) {
  const serve::StepTime& d = p.decode;
  return json_object(
      {{"ttft_s", num_or_null(p.ttft_s)},
       {"tpot_s", num_or_null(p.tpot_s)},
       {"e2e_s", num_or_null(p.e2e_s)},
       {"queue_s", num_or_null(p.queue_s)},
       {"prefill_s", num_or_null(p.prefill_s)},
       {"tokens_per_s_per_user", num_or_null(p.tokens_per_s_per_user)},
       {"output_tokens_per_s_per_device", num_or_null(p.output_tokens_per_s_per_device)},
       {"output_tokens_per_s_per_replica", num_or_null(p.output_tokens_per_s_per_replica)},
       {"requests_per_s_per_replica", num_or_null(p.requests_per_s_per_replica)},
       {"max_requests_per_s_per_replica", num_or_null(p.max_requests_per_s_per_replica)},
       {"capacity_limit", p.capacity_limit},
       {"concurrency", num_or_null(p.concurrency)},
       {"decode_batch", num_or_null(p.decode_batch)},
       {"prefill_tokens_per_step", num_or_null(p.prefill_tokens_per_step)},
       {"prefill_utilisation", num_or_null(p.prefill_utilisation)},
       {"tokens_per_step", num_or_null(p.tokens_per_step)},
       {"max_concurrency_kv", num_or_null(p.max_concurrency_kv)},
       {"kv_tokens_per_request", num_or_null(p.kv_tokens_per_request)},
       {"weight_bytes_per_device", num_or_null(p.weight_bytes_per_device)},
       {"kv_bytes_per_token_per_device", num_or_null(p.kv_bytes_per_token_per_device)},
       {"kv_capacity_bytes_per_device", num_or_null(p.kv_capacity_bytes_per_device)},
       {"meets_slo", p.meets_slo},
       {"ttft_ok", p.ttft_ok},
       {"tpot_ok", std::isfinite(p.tpot_s) ? json(p.tpot_ok) : json(nullptr)},
       {"overloaded", (p.problems & serve::kServeOverloaded) != 0},
       {"kv_full", (p.problems & serve::kServeKvFull) != 0},
       {"bound", serve::to_string(d.bound)},
       {"weights_read_s", num_or_null(d.weights_read_s)},
       {"kv_read_s", num_or_null(d.kv_read_s)},
       {"compute_s", num_or_null(d.compute_s)},
       {"comm_s", num_or_null(d.comm_s)},
       {"overhead_s", num_or_null(d.overhead_s)},
       {"step_s", num_or_null(d.step_s)}});
}

namespace detail {

namespace {

// serving.performance: the model's prediction at the workload's operating point.
json performance_json(const ServingResult& v, bool priced) {
  json j = serve_performance_json(v.performance);
  j["basis"] =
      "predicted by the serving performance model (docs/serving.md); the other serving leaves are "
      "the seed's ceilings";
  j["layout"] = json_object({{"tp", v.layout.tp},
                             {"pp", v.layout.pp},
                             {"dp", v.layout.dp},
                             {"ep", v.layout.ep},
                             {"devices", v.layout.devices()}});
  j["replica_usd_per_hour"] = num_or_null(v.perf_replica_usd_per_hour, priced);
  j["cost_per_million_tokens_usd"] = num_or_null(v.perf_cost_per_million_tokens_usd,
                                                 priced && v.perf_cost_per_million_tokens_usd > 0);
  j["replicas_for_demand"] = num_or_null(v.perf_replicas_for_demand);
  j["devices_for_demand"] = num_or_null(v.perf_devices_for_demand);
  j["fleet_basis"] = v.perf_fleet_basis;
  j["fleet_output_tokens_per_s_per_replica"] = num_or_null(v.perf_fleet_tokens_per_s_per_replica);
  if (v.performance_rate_mode) {
    j["replicas_for_rate"] = num_or_null(v.perf_replicas_for_rate, v.perf_replicas_for_rate > 0);
    j["devices_for_rate"] =
        num_or_null(v.perf_replicas_for_rate * v.layout.devices(), v.perf_replicas_for_rate > 0);
  }
  j["decode_step"] = step_json(v.performance.decode);
  j["prefill_step"] = step_json(v.performance.prefill);
  return j;
}

}  // namespace

json serving_json(const Scenario& s, const Estimate& e, const json& price_offer) {
  const ServingResult& v = e.serving;
  const bool has_out = s.device.scale_out_bytes_per_s > 0;
  const bool serve_priced = s.serving.price.usd_per_device_hour > 0;
  json j =
      json_object({{"weight_bytes", v.weight_bytes},
                   {"weight_bytes_bf16", v.weight_bytes_bf16},
                   {"weight_bytes_fp8", v.weight_bytes_fp8},
                   {"weight_bytes_fp4", v.weight_bytes_fp4},
                   {"weight_bytes_fp4_block_scaled", v.weight_bytes_fp4_block_scaled},
                   {"kv_bytes_per_token", v.kv_bytes_per_token},
                   {"kv_bytes_per_token_mha", v.kv_bytes_per_token_mha},
                   {"kv_bytes", v.kv_bytes},
                   {"footprint_bytes", v.footprint_bytes},
                   {"replica_min_devices", v.replica_min_devices},
                   {"replica_devices", v.replica_devices},
                   {"replica_hbm_bytes_per_s", v.replica_hbm_bytes_per_s},
                   {"replica_flops_per_s", v.replica_flops_per_s},
                   {"experts_touched_fraction", v.experts_touched_fraction},
                   {"weight_bytes_read", v.weight_bytes_read},
                   {"bytes_read_per_step", v.bytes_read_per_step},
                   {"decode_bandwidth_step_s", v.decode_bandwidth_step_s},
                   {"decode_compute_step_s", v.decode_compute_step_s},
                   {"decode_step_s", v.decode_step_s},
                   {"decode_bound", v.decode_bound},
                   {"tokens_per_s_per_user", v.tokens_per_s_per_user},
                   {"tokens_per_s_per_replica", v.tokens_per_s_per_replica},
                   {"decode_flops_per_s_needed", v.decode_flops_per_s_needed},
                   {"prefill_s", v.prefill_s},
                   {"kv_transfer_bytes", v.kv_transfer_bytes},
                   {"kv_transfer_s", v.kv_transfer_s},
                   {"tp_group", v.tp_group},
                   {"tp_message_bytes", v.tp_message_bytes},
                   {"tp_allreduces_per_step", v.tp_allreduces_per_step},
                   {"tp_allreduce_bytes_per_step", v.tp_allreduce_bytes_per_step},
                   {"tp_allreduce_s_scale_up", v.tp_allreduce_s_scale_up},
                   {"tp_allreduce_s_scale_out", num_or_null(v.tp_allreduce_s_scale_out, has_out)},
                   {"tp_latency_floor_s", v.tp_latency_floor_s},
                   {"tp_scale_out_slowdown", num_or_null(v.tp_scale_out_slowdown, has_out)},
                   {"replica_usd_per_hour", num_or_null(v.replica_usd_per_hour, serve_priced)},
                   {"serving_price_offer", price_offer},
                   {"realised_share", v.realised_share},
                   {"cost_per_million_tokens_usd",
                    num_or_null(v.cost_per_million_tokens_usd, serve_priced && v.replica_fits)},
                   {"demand_tokens_per_s", v.demand_tokens_per_s},
                   {"replicas_for_demand", num_or_null(v.replicas_for_demand, v.replica_fits)},
                   {"devices_for_demand", num_or_null(v.devices_for_demand, v.replica_fits)},
                   {"devices_with_headroom_low", v.devices_with_headroom_low},
                   {"devices_with_headroom_high", v.devices_with_headroom_high}});
  if (v.has_performance) j["performance"] = performance_json(v, serve_priced);
  if (v.has_disaggregated) j["disaggregated"] = disaggregated_json(s, v.disaggregated);
  return j;
}

}  // namespace detail

}  // namespace sizer
