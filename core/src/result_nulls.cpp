// Why a result leaf is null (contract v1: "a null always comes with a note saying why").
//
// result_to_json() walks its own output (everything but the echoed scenario) and asks
// null_reason() for every null it finds; the answers go to the result's "nulls" list. A null
// with no reason here is a bug, and the audit property test (tests/test_audit_properties.cpp)
// fails on it.
#include "result_nulls.h"

#include "sizer/units.h"

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
    return "";
  }
  if (starts_with(path, "training.power.")) {
    if (!powered) {
      return "no system power per device for " + s.device.id +
             " in the table; enter power.system_w_per_device (watts per device including host, NICs and fans)";
    }
    if (!peak) return no_peak(s);
    return "";
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
  if (starts_with(path, "serving.")) {
    if (leaf == "serving_price_offer" || leaf == "replica_usd_per_hour" || leaf == "cost_per_million_tokens_usd") {
      if (s.serving.price.usd_per_device_hour <= 0) return no_price(s.device, "serving.price");
      return "the replica has no decode throughput to spread the price over";
    }
    if (leaf == "replicas_for_rate" || leaf == "devices_for_rate") {
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
