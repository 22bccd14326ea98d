// Planner JSON (see planner_json.h).
#include "sizer/contract/planner_json.h"

#include "sizer/contract/json_object.h"
#include "sizer/contract/result_json.h"

namespace sizer {

using nlohmann::json;

json plan_layout_to_json(const PlanLayout& l) {
  return json_object({{"tp", l.tp}, {"pp", l.pp}, {"dp", l.dp}, {"cp", l.cp}, {"ep", l.ep},
                      {"virtual_stages", l.virtual_stages},
                      {"micro_batch", l.micro_batch}, {"global_batch", l.global_batch}, {"seq_len", l.seq_len},
                      {"recompute", to_string(l.recompute)}, {"sequence_parallel", l.sequence_parallel},
                      {"zero_stage", l.zero_stage}, {"flash_attention", l.flash_attention},
                      {"dp_overlap", l.dp_overlap},
                      {"tp_comm_overlap", l.tp_comm_overlap}, {"pp_comm_overlap", l.pp_comm_overlap}, {"expert_tp", l.expert_tp}, {"ep_folding", l.ep_folding},
                      {"ep_overlap", l.ep_overlap}, {"expert_imbalance", l.expert_imbalance},
                      {"fsdp_shard", l.fsdp_shard},
                      {"offload_activations", l.offload_activations},
                      {"recompute_fraction", l.recompute_fraction}, {"einsum_dispatch", l.einsum_dispatch},
                      {"sparsecore_gather", l.sparsecore_gather},
                      {"pp_schedule", to_string(l.pp_schedule)}, {"ep_dispatcher", to_string(l.ep_dispatcher)},
                      {"devices", l.devices()}});
}

// The band the step time is quoted with (sizer/layout/layout_accuracy.h): 80% of the held-out published
// runs of this kind took between step_ratio_p10 and step_ratio_p90 times the step predicted for
// them (published ÷ predicted; 1 + the signed percentiles), so the step is given as step × p10 to
// step × p90.
json accuracy_to_json(const LayoutAccuracy& a, double step_s) {
  if (!(step_s > 0) || a.held_out_runs == 0) return nullptr;
  return json_object({{"group", a.group}, {"held_out_runs", a.held_out_runs}, {"p80_abs_error", a.p80_abs_error},
                      {"step_ratio_p10", 1 + a.step_p10}, {"step_ratio_p90", 1 + a.step_p90},
                      {"step_s_low", a.step_low_s(step_s)}, {"step_s_high", a.step_high_s(step_s)},
                      {"source", "docs/validation.md (held-out runs of the group)"}});
}

json layout_result_to_json(const RankedLayout& x) {
  const LayoutResult& r = x.result;
  json explanations = json::array();
  for (const std::string& e : x.explanations) explanations.push_back(e);
  return json_object({
      {"valid", r.valid()}, {"fits", r.fits}, {"explanations", explanations},
      {"memory", json_object({{"weight_bytes", r.weight_bytes}, {"grad_bytes", r.grad_bytes},
                              {"optimizer_bytes", r.optimizer_bytes}, {"activation_bytes", r.activation_bytes},
                              {"buffer_bytes", r.buffer_bytes}, {"device_memory_bytes", r.device_memory_bytes},
                              {"usable_memory_bytes", r.usable_memory_bytes}})},
      {"step", json_object({{"compute_s", r.compute_s}, {"memory_bound_s", r.memory_bound_s},
                            {"low_precision_cast_s", r.low_precision_cast_s}, {"tp_comm_s", r.tp_comm_s},
                            {"ep_comm_s", r.ep_comm_s}, {"etp_comm_s", r.etp_comm_s}, {"cp_comm_s", r.cp_comm_s}, {"pp_p2p_s", r.pp_p2p_s},
                            {"pp_p2p_hidden_s", r.pp_p2p_hidden_s},
                            {"pp_bubble_s", r.pp_bubble_s}, {"dp_comm_exposed_s", r.dp_comm_exposed_s},
                            {"optimizer_s", r.optimizer_s}, {"overhead_s", r.overhead_s},
                            {"attention_s", r.attention_s},
                            {"tp_comm_hidden_s", r.tp_comm_hidden_s}, {"expert_compute_s", r.expert_compute_s},
                            {"moe_permute_s", r.moe_permute_s}, {"ep_comm_hidden_s", r.ep_comm_hidden_s},
                            {"step_s", r.step_s}})},
      {"placement", json_object({{"tp", to_string(r.tp_link)}, {"cp", to_string(r.cp_link)},
                                 {"ep", to_string(r.ep_link)},
                                 {"pp", to_string(r.pp_link)}, {"dp", to_string(r.dp_link)}})},
      {"throughput", json_object({{"microbatches", r.microbatches}, {"gemm_efficiency", r.gemm_efficiency},
                                  {"attention_efficiency", r.attention_efficiency}, {"attention_fp8", r.attention_fp8},
                                  {"expert_gemm_efficiency", r.expert_gemm_efficiency},
                                  {"tokens_per_expert", r.tokens_per_expert},
                                  {"expert_imbalance", r.expert_imbalance},
                                  {"dispatch_scale", r.permute_scale},
                                  {"dispatch_vs_stack", r.dispatch_vs_stack},
                                  {"dispatch_sparsecore", r.dispatch_sparsecore},
                                  {"dispatch_bias_share", r.dispatch_bias_share},
                                  {"gmm_tile_waste", r.gmm_tile_waste},
                                  {"attention_block_factor", r.attention_block_factor},
                                  {"vocab_extra_share", r.vocab_extra_share},
                                  {"low_precision_factor", r.low_precision_factor},
                                  {"bf16_layer_share", r.bf16_layer_share},
                                  {"tokens_per_step", r.tokens_per_step},
                                  {"model_flops_per_step", r.model_flops_per_step},
                                  {"hardware_flops_per_step", r.hardware_flops_per_step},
                                  {"model_flops_per_s_per_device", r.model_flops_per_s_per_device},
                                  {"mfu_predicted", r.mfu_predicted}, {"hfu_predicted", r.hfu_predicted},
                                  {"tokens_per_s", r.tokens_per_s}})},
      {"run", json_object({{"train_days", r.train_days}, {"goodput", r.goodput}, {"device_hours", r.device_hours},
                           {"cost_usd", r.cost_usd > 0 ? json(r.cost_usd) : json(nullptr)}})},
      {"accuracy", x.has_accuracy ? accuracy_to_json(x.accuracy, r.step_s) : json(nullptr)},
  });
}

json plan_to_json(const Scenario& s) {
  const RankedLayout x = plan(s);
  return json_object({{"schema", "sizer.plan.v1"}, {"scenario", scenario_to_json(s)},
                      {"layout", plan_layout_to_json(x.layout)},
                      {"result", layout_result_to_json(x)}});
}

json search_to_json(const Scenario& s, const SearchResult& r) {
  auto rows = [&](const std::vector<RankedLayout>& v) {
    json a = json::array();
    for (const RankedLayout& x : v) {
      a.push_back(json_object({{"layout", plan_layout_to_json(x.layout)},
                               {"result", layout_result_to_json(x)}}));
    }
    return a;
  };
  return json_object({{"schema", "sizer.search.v1"}, {"scenario", scenario_to_json(s)},
                      {"objective", s.training.search.objective}, {"device_counts", r.device_counts},
                      {"layouts_evaluated", r.layouts_evaluated}, {"layouts_valid", r.layouts_valid},
                      {"search_s", r.search_s}, {"truncated", r.truncated}, {"top", rows(r.top)},
                      {"pareto", rows(r.pareto)}});
}

}  // namespace sizer
