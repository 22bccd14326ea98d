// Result and scenario serialization (see result_json.h); the catalog records are written beside
// their readers (records.cpp).
#include "sizer/contract/result_json.h"

#include <cmath>

#include "contract/json_leaves.h"
#include "contract/records.h"
#include "contract/result_nulls.h"
#include "contract/result_ops_json.h"
#include "contract/result_serving_json.h"
#include "sizer/contract/planner_json.h"

namespace sizer {

using detail::list;
using detail::list_or_null;
using detail::num_or_null;
using detail::price_json;
using nlohmann::json;

namespace {

json verdict_json(comms::Verdict v) {
  return v == comms::Verdict::unknown ? json(nullptr) : json(comms::to_string(v));
}

// A price as scenario input: a bundled offer by id, a user's offer as an object.
json price_input(const PriceOffer& p) {
  if (!p.user_supplied) return p.id;
  json j = price_json(p);
  j.erase("user_supplied");
  return j;
}

}  // namespace

json issues_to_json(const std::vector<Issue>& issues) {
  json a = json::array();
  for (const Issue& i : issues)
    a.push_back(json_object({{"path", i.path}, {"message", i.message}}));
  return a;
}

json scenario_to_json(const Scenario& s) {
  const TrainingInputs& t = s.training;
  const Layout& l = t.layout;
  const ServingInputs& v = s.serving;
  json model = model_to_json(s.model);
  model.erase("user_supplied");
  json device = device_to_json(s.device);
  device.erase("user_supplied");
  device.erase("default_system");
  device.erase("default_price");
  if (device["scale_out_bytes_per_s"].is_null()) device.erase("scale_out_bytes_per_s");
  if (device["system_w"].is_null()) device.erase("system_w");
  json j = json_object({{"schema", kScenarioSchema}, {"model", model}, {"device", device}});
  if (!s.system_id.empty()) j["system"] = s.system_id;
  json training = json_object({{"tokens", t.tokens},
                               {"precision", to_string(t.precision)},
                               {"mfu", t.mfu},
                               {"optimizer", to_string(t.optimizer)},
                               {"bytes_per_param", t.bytes_per_param},
                               {"zero_stage", t.zero_stage},
                               {"hbm_usable", t.hbm_usable},
                               {"days", t.days},
                               {"goodput", t.goodput},
                               {"layout", json_object({{"tp", l.tp},
                                                       {"pp", l.pp},
                                                       {"dp", l.dp},
                                                       {"ep", l.ep},
                                                       {"cp", l.cp},
                                                       {"virtual_stages", l.virtual_stages},
                                                       {"micro_batch", l.micro_batch},
                                                       {"global_batch", l.global_batch},
                                                       {"seq_len", l.seq_len},
                                                       {"recompute", to_string(l.recompute)},
                                                       {"sequence_parallel", l.sequence_parallel},
                                                       {"flash_attention", l.flash_attention},
                                                       {"dp_overlap", l.dp_overlap}})},
                               {"alltoall_dispatch_bytes", t.alltoall_dispatch_bytes},
                               {"alltoall_combine_bytes", t.alltoall_combine_bytes},
                               {"grad_bytes", t.grad_bytes},
                               {"activation_bytes", t.activation_bytes},
                               {"checkpoint_bytes_per_s", t.checkpoint_bytes_per_s}});
  if (t.step_mfu > 0) training["step_mfu"] = t.step_mfu;
  training["fp8_recipe"] = to_string(t.fp8_recipe);
  if (t.dropout >= 0) training["dropout"] = t.dropout == 1;  // unset (from the block) by omission
  if (t.param_gather_bytes > 0)
    training["param_gather_bytes"] = t.param_gather_bytes;  // unset: activation_bytes
  if (t.bf16_layers > 0)
    training["bf16_layers"] = t.bf16_layers;              // unset: every layer at the precision
  if (t.fp8_attention) training["fp8_attention"] = true;  // unset: attention in BF16
  training["stack"] = json_object({{"id", t.stack.id},
                                   {"memory_bound_scale", t.stack.memory_bound_scale},
                                   {"layer_overhead_s", t.stack.layer_overhead_s},
                                   {"cast_scale", t.stack.cast_scale},
                                   {"permute_scale", t.stack.permute_scale},
                                   {"gathers_expert_bias", t.stack.gathers_expert_bias},
                                   {"gmm_tile_rows", t.stack.gmm_tile_rows}});
  if (t.stack.attention_efficiency > 0)
    training["stack"]["attention"] = t.stack.attention_efficiency;
  const AttentionBlocks& ab = t.stack.attention_blocks;
  training["stack"]["embedding_matmul"] = t.stack.embedding_matmul;
  training["stack"]["vocab_tiles"] = t.stack.vocab_tiles;
  training["stack"]["attention_blocks"] = json_object({{"q_tokens", ab.q_tokens},
                                                       {"kv_tokens", ab.kv_tokens},
                                                       {"q_bwd_tokens", ab.q_bwd_tokens},
                                                       {"kv_bwd_tokens", ab.kv_bwd_tokens}});
  json& lj = training["layout"];
  lj["given"] = s.training.layout_given;
  lj["tp_comm_overlap"] = l.tp_comm_overlap;
  lj["pp_comm_overlap"] = l.pp_comm_overlap;
  lj["ep_folding"] = l.ep_folding;
  lj["ep_overlap"] = l.ep_overlap;
  if (l.expert_tp > 0) lj["expert_tp"] = l.expert_tp;  // 0 = the default, written by omission
  if (l.expert_imbalance > 0) lj["expert_imbalance"] = l.expert_imbalance;
  if (l.fsdp_shard > 0) lj["fsdp_shard"] = l.fsdp_shard;
  if (l.offload_activations) lj["offload_activations"] = true;  // false, the default, by omission
  if (l.recompute_fraction < 1)
    lj["recompute_fraction"] = l.recompute_fraction;  // 1, the default, by omission
  if (l.einsum_dispatch) lj["einsum_dispatch"] = true;
  if (l.sparsecore_gather) lj["sparsecore_gather"] = true;
  if (l.pp_schedule != PpSchedule::one_f_one_b) lj["pp_schedule"] = to_string(l.pp_schedule);
  if (l.ep_dispatcher != EpDispatcher::alltoall) lj["ep_dispatcher"] = to_string(l.ep_dispatcher);
  const SearchInputs& q = t.search;
  if (q.devices_min > 0 || q.objective != "time" || q.top != 10 || !q.allow_tp || !q.allow_pp ||
      !q.allow_dp || q.allow_cp || !q.allow_ep || !q.allow_ep_folding || !q.allow_flash_attention ||
      !q.allow_tp_comm_overlap) {
    json search =
        json_object({{"objective", q.objective},
                     {"top", q.top},
                     {"allow", json_object({{"tp", q.allow_tp},
                                            {"pp", q.allow_pp},
                                            {"dp", q.allow_dp},
                                            {"cp", q.allow_cp},
                                            {"ep", q.allow_ep},
                                            {"ep_folding", q.allow_ep_folding},
                                            {"flash_attention", q.allow_flash_attention},
                                            {"tp_comm_overlap", q.allow_tp_comm_overlap}})}});
    if (q.devices_min > 0) {
      search["devices"] = q.devices_min == q.devices_max
                              ? json(q.devices_min)
                              : json::array({q.devices_min, q.devices_max});
    }
    training["search"] = search;
  }
  if (t.price.usd_per_device_hour > 0) training["price"] = price_input(t.price);
  json serving = json_object({{"weight_precision", to_string(v.weight_precision)},
                              {"kv_precision", to_string(v.kv_precision)},
                              {"block_scale_bytes_per_param", v.block_scale_bytes_per_param},
                              {"context", v.context},
                              {"batch", v.batch},
                              {"kv_fill", v.kv_fill},
                              {"tp", v.tp},
                              {"hbm_usable", v.hbm_usable},
                              {"prompt_tokens", v.prompt_tokens},
                              {"prefill_mfu", v.prefill_mfu},
                              {"kv_link_bytes_per_s", v.kv_link_bytes_per_s},
                              {"realised_fraction", v.realised_fraction},
                              {"utilisation", v.utilisation},
                              {"demand_tokens_per_day", v.demand_tokens_per_day},
                              {"collective_latency_s", v.collective_latency_s},
                              {"headroom_low", v.headroom_low},
                              {"headroom_high", v.headroom_high}});
  if (v.replica_devices > 0) serving["replica_devices"] = v.replica_devices;
  if (v.price.usd_per_device_hour > 0) serving["price"] = price_input(v.price);
  if (v.workload_given) detail::serving_inputs_json(v, &serving);
  j["training"] = training;
  j["serving"] = serving;
  j["power"] = json_object({{"pue", s.power.pue}});
  if (s.power.system_w_per_device > 0)
    j["power"]["system_w_per_device"] = s.power.system_w_per_device;
  detail::operations_inputs_json(s, &j);
  return j;
}

json result_to_json(const Scenario& s, const Estimate& e, const std::vector<Issue>& warnings) {
  const bool priced = s.training.price.usd_per_device_hour > 0;
  const bool powered = s.power.system_w_per_device > 0;
  const bool peak = e.compute.dense_peak_flops > 0;
  const bool moe = s.model.moe.enabled();
  const bool has_out = s.device.scale_out_bytes_per_s > 0;
  const TrainingMemory& m = e.memory;
  const TrainingCompute& c = e.compute;
  const TrainingComms& k = e.comms;
  const ServingResult& v = e.serving;
  json j;
  j["schema"] = kResultSchema;
  j["scenario"] = scenario_to_json(s);
  j["model"] = json_object({{"params_from_shape", e.model.params_from_shape},
                            {"params_stated", e.model.params_stated},
                            {"shape_ratio", e.model.shape_ratio},
                            {"flops_per_token_train", e.model.flops_per_token_train},
                            {"flops_per_token_decode", e.model.flops_per_token_decode},
                            {"routed_expert_params", e.model.routed_expert_params},
                            {"always_read_params", e.model.always_read_params}});
  json training;
  training["memory"] = json_object(
      {{"bytes_per_param", m.bytes_per_param},
       {"state_bytes", m.state_bytes},
       {"min_devices_full", m.min_devices_full},
       {"min_devices_usable", m.min_devices_usable},
       {"scale_up_domain_bytes", m.scale_up_domain_bytes},
       {"fits_one_domain", m.fits_one_domain},
       {"activation_bytes_per_layer", m.activation_bytes_per_layer},
       {"activation_bytes_first_stage", m.activation_bytes_first_stage},
       {"activation_bytes_no_recompute_per_layer", m.activation_bytes_no_recompute_per_layer},
       {"state_bytes_per_device", m.state_bytes_per_device},
       {"device_total_bytes", m.device_total_bytes},
       {"fits_device", m.fits_device}});
  training["compute"] =
      json_object({{"tokens", c.tokens},
                   {"flops", c.flops},
                   {"tokens_per_param", c.tokens_per_param},
                   {"tokens_per_active_param", c.tokens_per_active_param},
                   {"dense_peak_flops", num_or_null(c.dense_peak_flops, peak)},
                   {"mfu", list(c.mfu)},
                   {"device_hours", list_or_null(c.device_hours, peak)},
                   {"cost_usd", list_or_null(c.cost_usd, priced && peak)},
                   {"cluster_devices", list_or_null(c.cluster_devices, peak)},
                   {"cluster_device_hours", list_or_null(c.cluster_device_hours, peak)},
                   {"cluster_cost_usd", list_or_null(c.cluster_cost_usd, priced && peak)},
                   {"scale_up_domains", list_or_null(c.scale_up_domains, peak)},
                   {"wall_days_on_layout", list_or_null(c.wall_days_on_layout, peak)},
                   {"price_offer", price_json(s.training.price)}});
  training["power"] = json_object(
      {{"system_w_per_device", num_or_null(s.power.system_w_per_device, powered)},
       {"pue", s.power.pue},
       {"it_power_w", list_or_null(e.power.it_power_w, powered && peak)},
       {"facility_power_w", list_or_null(e.power.facility_power_w, powered && peak)},
       {"energy_wh", list_or_null(e.power.energy_wh, powered && peak)},
       {"cluster_energy_wh", list_or_null(e.power.cluster_energy_wh, powered && peak)}});
  training["comms"] = json_object(
      {{"step_mfu", k.step_mfu},
       {"layout_devices", k.layout_devices},
       {"tokens_per_step", k.tokens_per_step},
       {"step_s", num_or_null(k.step_s, peak)},
       {"dp_allreduce_bytes_per_device", k.dp_allreduce_bytes_per_device},
       {"dp_allreduce_s", num_or_null(k.dp_allreduce_s, has_out)},
       {"dp_allreduce_share", num_or_null(k.dp_allreduce_share, has_out && peak)},
       {"dp_verdict", verdict_json(k.dp_verdict)},
       {"pp_boundary_bytes", k.pp_boundary_bytes},
       {"pp_microbatches_per_step", k.pp_microbatches_per_step},
       {"pp_bytes_per_step", k.pp_bytes_per_step},
       {"pp_bytes_per_s", num_or_null(k.pp_bytes_per_s, peak)},
       {"pp_verdict", verdict_json(k.pp_verdict)},
       {"tokens_per_s_per_device", k.tokens_per_s_per_device},
       {"moe_alltoall_bytes_per_token", num_or_null(k.moe_alltoall_bytes_per_token, moe)},
       {"moe_alltoall_bytes_per_s", list_or_null(k.moe_alltoall_bytes_per_s_per_mfu, moe && peak)},
       {"moe_alltoall_bytes_per_s_at_step_mfu",
        num_or_null(k.moe_alltoall_bytes_per_s, moe && peak)},
       {"moe_verdict", moe ? verdict_json(k.moe_verdict) : json(nullptr)},
       {"checkpoint_bytes", k.checkpoint_bytes},
       {"checkpoint_s", k.checkpoint_s}});
  if (e.layout.has) {
    const LayoutPrediction& lp = e.layout;
    training["layout_prediction"] =
        json_object({{"basis",
                      "predicted by the layout model for training.layout (docs/planner.md); "
                      "training.comms.step_s is the "
                      "seed's method at the assumed MFU"},
                     {"step_s", num_or_null(lp.step_s)},
                     {"mfu", num_or_null(lp.mfu)},
                     {"tokens_per_s", num_or_null(lp.tokens_per_s)},
                     {"devices", lp.devices},
                     {"fits", lp.fits},
                     {"device_memory_bytes", num_or_null(lp.device_memory_bytes)},
                     {"usable_memory_bytes", num_or_null(lp.usable_memory_bytes)}});
    // The band the step is quoted with, as plan() gives it (sizer/layout/layout_accuracy.h).
    training["layout_prediction"]["accuracy"] = accuracy_to_json(lp.accuracy, lp.step_s);
    json notes = json::array();
    for (const std::string& n : lp.notes) notes.push_back(n);
    training["layout_prediction"]["notes"] = notes;
  }
  training["reliability"] = detail::reliability_json(s, e);
  training["storage"] = detail::storage_json(s, e);
  j["training"] = training;
  j["serving"] = detail::serving_json(s, e, price_json(s.serving.price));
  j["ownership"] = detail::ownership_json(s, e);
  j["carbon"] = detail::carbon_json(s, e);
  j["intervals"] = detail::intervals_json(s, e);
  json nulls = json::array();
  for (const char* part : {"model", "training", "serving", "ownership", "carbon", "intervals"})
    detail::collect_nulls(j[part], part, s, e, &nulls);
  j["notes"] = e.notes;
  j["nulls"] = nulls;
  j["warnings"] = issues_to_json(warnings);
  json work = json::array();
  for (const Working& x : e.working) {
    work.push_back(json_object({{"path", x.path},
                                {"formula", x.formula},
                                {"substituted", x.substituted},
                                {"source", x.source}}));
  }
  j["working"] = work;
  return j;
}

}  // namespace sizer
