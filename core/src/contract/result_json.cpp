// The result document (see result_json.h). Its scenario echo is written beside the scenario's
// readers (scenario_parse.cpp and the block files it names); the catalog records beside theirs
// (records.cpp).
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

}  // namespace

json issues_to_json(const std::vector<Issue>& issues) {
  json a = json::array();
  for (const Issue& i : issues)
    a.push_back(json_object({{"path", i.path}, {"message", i.message}}));
  return a;
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
  j["working"] = working_to_json(e.working);
  return j;
}

json working_to_json(const std::vector<Working>& working) {
  json work = json::array();
  for (const Working& x : working) {
    work.push_back(json_object({{"path", x.path},
                                {"formula", x.formula},
                                {"substituted", x.substituted},
                                {"source", x.source}}));
  }
  return work;
}

}  // namespace sizer
