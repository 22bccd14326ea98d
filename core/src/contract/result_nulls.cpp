// Why a result leaf is null (contract v1: "a null always comes with a note saying why").
//
// result_to_json() walks its own output (everything but the echoed scenario) and asks
// null_reason() for every null it finds; the answers go to the result's "nulls" list. A null
// with no reason here is a bug, and the cross-output property test
// (tests/test_cross_output_properties.cpp) fails on it.
#include "contract/result_nulls.h"

#include "sizer/formulas/units.h"
#include "sizer/formulas/working.h"

namespace sizer::detail {

namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string no_peak(const Scenario& s) {
  return s.device.id + " has no dense " + std::string(to_string(s.training.precision)) +
         " peak in the table: choose another training.precision or enter device.dense_flops." +
         to_string(s.training.precision);
}

std::string no_price(const Device& d, const char* field) {
  std::string why = "no price offer for " + d.id;
  if (!d.price_note.empty()) why += " (" + d.price_note + ")";
  return why + "; enter " + field + " (an offer id or {\"usd_per_device_hour\": …}) to see costs";
}

std::string no_scale_out(const Device& d) {
  return "no scale-out (NIC) bandwidth for " + d.id +
         " in the table; enter device.scale_out_bytes_per_s to get this value";
}

// Why a cluster figure is null when the schedule is out of reach (the MFU points at which no
// cluster meets it); "" when every point is meetable.
std::string unmeetable(const Scenario& s, const Estimate& e) {
  const std::string at = mfu_out_of_reach(e.compute);
  if (at.empty()) return "";
  return "at the predicted goodput no cluster meets the " + num(s.training.days) + "-day schedule at " + at +
         " MFU (failures outpace the devices added): this point is out of reach; lengthen training.days, "
         "raise the MFU, or give training.goodput as a fixed assumption";
}

}  // namespace

std::string null_reason(const std::string& path, const Scenario& s, const Estimate& e) {
  const bool peak = e.compute.dense_peak_flops > 0;
  const bool priced = s.training.price.usd_per_device_hour > 0;
  const bool powered = s.power.system_w_per_device > 0;
  const bool moe = s.model.moe.enabled();
  const bool has_out = s.device.scale_out_bytes_per_s > 0;
  const std::string leaf = path.substr(path.rfind('.') + 1);

  if (starts_with(path, "training.compute.")) {
    if (leaf == "price_offer" || leaf == "cost_usd" || leaf == "cluster_cost_usd") {
      if (!priced) return no_price(s.device, "training.price");
    }
    if (!peak) return no_peak(s);
    return unmeetable(s, e);
  }
  if (starts_with(path, "training.power.")) {
    if (!powered) {
      return "no system power per device for " + s.device.id +
             " in the table; enter power.system_w_per_device (watts per device including host, NICs and fans)";
    }
    if (!peak) return no_peak(s);
    return unmeetable(s, e);
  }
  if (starts_with(path, "training.comms.")) {
    if (starts_with(leaf, "moe_") && !moe) return "dense model: there is no expert all-to-all";
    if (leaf == "dp_allreduce_s") return has_out ? "" : no_scale_out(s.device);
    if (ends_with(leaf, "_verdict")) {
      if (!peak) return "the verdict needs the step time, which needs a peak: " + no_peak(s);
      if (!has_out) return "the verdict compares traffic with the scale-out network: " + no_scale_out(s.device);
      return "";
    }
    if (!peak) return no_peak(s);
    if (leaf == "dp_allreduce_share" && !has_out) return no_scale_out(s.device);
    return "";
  }
  if (starts_with(path, "training.reliability.") || starts_with(path, "training.storage.")) {
    if (leaf == "job_mtbf_s" || leaf == "young_interval_s") return "the failure rates are 0: the job never fails";
    if (leaf == "capacity_bytes" || leaf == "read_bytes_per_s") {
      return "not given: enter training.storage." + leaf + " for a verdict";
    }
    if (!peak) return no_peak(s);
    if (leaf == "extra_cost_usd" && !priced) return no_price(s.device, "training.price");
    return "the predicted goodput is 0: the job fails faster than it can finish a checkpoint interval";
  }
  if (starts_with(path, "ownership.")) {
    if (!e.ownership.known) {
      return "no purchase price for " + s.device.id + " is bundled (assets/operations.json capital_costs); enter "
             "ownership.usd_per_device (USD per device, its share of the system) to compare owning with renting";
    }
    if (leaf == "breakeven_utilisation") return no_price(s.device, "training.price");
    if (!peak) return no_peak(s);
    if (!e.serving.replica_fits) return "serving.replica_devices is below the devices the model needs: not priced";
    return "the serving replica has no decode throughput to spread the owned cost over";
  }
  if (starts_with(path, "carbon.")) {
    const bool training = starts_with(leaf, "training_");
    if (leaf == "training_embodied_kg_co2e" && s.ownership.capital.embodied_kg_co2e_per_device <= 0) {
      return "no published embodied emissions for " + s.device.id + "; enter carbon.embodied_kg_co2e_per_device";
    }
    if (!powered) return "no system power per device for " + s.device.id + "; enter power.system_w_per_device";
    if (!peak) return no_peak(s);
    if (training) return unmeetable(s, e);
    if (!e.serving.replica_fits) return "serving.replica_devices is below the devices the model needs: no emissions per token";
    return "the serving replica has no decode throughput";
  }
  if (starts_with(path, "intervals.")) {
    if (!peak) return no_peak(s);
    if (starts_with(path, "intervals.sensitivity")) {
      return "at this end of the input's range no cluster meets the schedule at the predicted goodput";
    }
    if (e.intervals.infeasible_share > 0 && !starts_with(path, "intervals.wall_days")) {
      return "in " + num(100 * e.intervals.infeasible_share) + "% of the draws no cluster meets the schedule at the "
             "predicted goodput (failures outpace added devices): this percentile is beyond reach";
    }
    if (starts_with(path, "intervals.cost_usd_quantiles")) return no_price(s.device, "training.price");
    if (starts_with(path, "intervals.power_w_quantiles")) {
      return "no system power per device for " + s.device.id + "; enter power.system_w_per_device";
    }
    if (starts_with(path, "intervals.usd_per_million_tokens_quantiles")) {
      if (!e.serving.replica_fits) return "serving.replica_devices is below the devices the model needs: not priced";
      return no_price(s.device, "serving.price");
    }
    return "";
  }
  if (starts_with(path, "serving.") && s.serving.workload.output_tokens <= 1 &&
      (leaf == "tpot_s" || leaf == "tokens_per_s_per_user" || leaf == "tpot_ok")) {
    return "serving.workload.output_tokens is 1: there is no token after the first, so the time per output token "
           "is not defined" + std::string(s.serving.slo.tpot_s > 0 ? " and serving.slo.tpot_s is not judged" : "");
  }
  if (starts_with(path, "serving.")) {
    if (!e.serving.replica_fits && (leaf == "cost_per_million_tokens_usd" || leaf == "replicas_for_demand" ||
                                    leaf == "devices_for_demand") && !starts_with(path, "serving.performance")) {
      return "serving.replica_devices " + num(e.serving.replica_devices) + " cannot hold the weights and KV cache (" +
             num(e.serving.replica_min_devices) + " devices needed): a replica that does not fit is not priced; "
             "raise serving.replica_devices or omit it for the automatic size";
    }
    if (leaf == "serving_price_offer" || leaf == "replica_usd_per_hour" || leaf == "cost_per_million_tokens_usd") {
      if (s.serving.price.usd_per_device_hour <= 0) return no_price(s.device, "serving.price");
      return "the replica has no decode throughput to spread the price over";
    }
    if (leaf == "replicas_for_rate" || leaf == "devices_for_rate" ||
        (starts_with(path, "serving.performance.") && (leaf == "replicas_for_demand" || leaf == "devices_for_demand" ||
                                                        leaf == "fleet_output_tokens_per_s_per_replica"))) {
      return "no number of replicas meets serving.slo on this layout (it misses even at almost no load); "
             "change serving.layout, the precisions or serving.slo";
    }
    if (leaf == "tp_allreduce_s_scale_out" || leaf == "tp_scale_out_slowdown") {
      return has_out ? "" : no_scale_out(s.device);
    }
    return "";
  }
  return "";
}

void collect_nulls(const nlohmann::json& node, const std::string& path, const Scenario& s, const Estimate& e,
                   nlohmann::json* out) {
  if (node.is_null()) {
    std::string why = null_reason(path, s, e);
    if (why.empty()) why = "not defined for this scenario";
    out->push_back({{"path", path}, {"why", why}});
    return;
  }
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      collect_nulls(*it, path.empty() ? it.key() : path + "." + it.key(), s, e, out);
    }
  } else if (node.is_array()) {
    // One entry for a list: its elements are null for the same reason.
    for (const auto& x : node) {
      if (x.is_null()) {
        collect_nulls(x, path, s, e, out);
        return;
      }
    }
  }
}

}  // namespace sizer::detail
