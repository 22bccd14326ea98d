// The v1 result contract: every promised leaf name appears exactly once, lists follow the MFU
// points, no scenario (valid or not) yields NaN or infinity in the JSON, and a verdict without its
// inputs is null with a reason.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "json_util.h"
#include "scenario_util.h"
#include "sizer/sizer.h"

using namespace sizer;
using nlohmann::json;
using testutil::all_finite;
using testutil::scenario;

namespace {

void count_keys(const json& j, std::map<std::string, int>& counts) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      ++counts[it.key()];
      count_keys(*it, counts);
    }
  } else if (j.is_array()) {
    for (const json& x : j) count_keys(x, counts);
  }
}

json eval_json(const std::string& text) {
  const auto p = parse_scenario(text, bundled_catalog());
  REQUIRE(p.ok());
  return result_to_json(p.scenario, evaluate(p.scenario), p.warnings);
}

}  // namespace

TEST_CASE("every v1 leaf name appears exactly once", "[contract]") {
  const json r = eval_json(R"({"model": "moe-1t"})");
  std::map<std::string, int> counts;
  json copy = r;
  copy.erase("scenario");  // the echoed inputs use input names
  copy.erase("working");
  count_keys(copy, counts);
  for (const char* leaf :
       {"state_bytes", "min_devices_full", "min_devices_usable", "flops", "device_hours", "cost_usd",
        "cluster_devices", "scale_up_domains", "it_power_w", "facility_power_w", "energy_wh",
        "activation_bytes_per_layer", "activation_bytes_first_stage", "state_bytes_per_device",
        "dp_allreduce_bytes_per_device", "dp_allreduce_s", "pp_boundary_bytes", "moe_alltoall_bytes_per_s",
        "weight_bytes", "kv_bytes_per_token", "kv_bytes", "replica_min_devices", "decode_step_s",
        "tokens_per_s_per_user", "tokens_per_s_per_replica", "decode_flops_per_s_needed",
        "experts_touched_fraction", "prefill_s", "kv_transfer_s", "tp_allreduce_bytes_per_step",
        "cost_per_million_tokens_usd", "replicas_for_demand"}) {
    INFO(leaf);
    CHECK(counts[leaf] == 1);
  }
  CHECK(r["schema"] == "sizer.result.v1");
}

TEST_CASE("per-MFU results are lists in the order of the MFU points", "[contract]") {
  const json r = eval_json(R"({"training": {"mfu": [0.5, 0.25]}})");
  const json& c = r["training"]["compute"];
  REQUIRE(c["device_hours"].size() == 2);
  CHECK(c["device_hours"][1].get<double>() == Approx(2 * c["device_hours"][0].get<double>()));
  CHECK(r["training"]["power"]["energy_wh"].size() == 2);
}

TEST_CASE("undefined values are null, never NaN: no price, no system power, no scale-out", "[contract]") {
  const json r = eval_json(R"({"device": "mi355x"})");
  CHECK(r["training"]["compute"]["cost_usd"].is_null());
  CHECK(r["serving"]["cost_per_million_tokens_usd"].is_null());
  CHECK(r["training"]["comms"]["dp_allreduce_s"].is_null());  // AMD publishes no NIC per GPU
  CHECK_FALSE(r["notes"].empty());
  const json t = eval_json(R"({"device": "tpu-v5p"})");
  CHECK(t["training"]["power"]["facility_power_w"].is_null());
  CHECK(all_finite(r));
  CHECK(all_finite(t));
}

TEST_CASE("no verdict without its inputs, and every null has a reason", "[contract]") {
  SECTION("no scale-out bandwidth (MI300X): the DP verdict is null with a note, not scale_up_only") {
    const Scenario s = scenario(R"({"model": "dense-1t", "device": "mi300x"})");
    REQUIRE(s.device.scale_out_bytes_per_s == 0);
    const nlohmann::json r = result_to_json(s, evaluate(s));
    CHECK(r["training"]["comms"]["dp_verdict"].is_null());
    bool explained = false;
    for (const auto& n : r["nulls"]) {
      explained = explained || (n["path"] == "training.comms.dp_verdict" &&
                                n["why"].get<std::string>().find("scale-out") != std::string::npos);
    }
    CHECK(explained);
  }
  SECTION("no system power (TPU v5p): power is null and the result says why") {
    const Scenario s = scenario(R"({"model": "dense-1t", "device": "tpu-v5p"})");
    const nlohmann::json r = result_to_json(s, evaluate(s));
    CHECK(r["training"]["power"]["it_power_w"].is_null());
    bool explained = false;
    for (const auto& n : r["nulls"]) {
      explained = explained || (n["path"] == "training.power.it_power_w" &&
                                n["why"].get<std::string>().find("power.system_w_per_device") != std::string::npos);
    }
    CHECK(explained);
  }
}

TEST_CASE("extreme but valid inputs stay finite across every device and model", "[contract]") {
  const char* extremes[] = {
      R"({"training": {"mfu": [0.001, 1], "days": 0.01, "goodput": 0.001, "tokens": 1e18}})",
      R"({"serving": {"batch": 1e7, "context": 1e8, "kv_fill": 1, "prompt_tokens": 1e8}})",
      R"({"serving": {"batch": 1, "context": 1, "kv_fill": 0.001, "demand_tokens_per_day": 0}})",
      R"({"model": {"preset": "dense-1t", "params": 1e16, "layers": 1e7, "hidden": 1e7, "heads": 1e7}})",
      R"({"training": {"layout": {"tp": 1e6, "pp": 1e6, "dp": 1e6, "global_batch": 1, "micro_batch": 1e6}}})",
  };
  for (const Model& m : bundled_catalog().models) {
    for (const Device& d : bundled_catalog().devices) {
      for (const char* extra : extremes) {
        json in = json::parse(extra);
        if (!in.contains("model")) in["model"] = m.id;
        in["device"] = d.id;
        const auto p = parse_scenario(in.dump(), bundled_catalog());
        if (!p.ok()) continue;  // e.g. a precision a device lacks
        const json r = result_to_json(p.scenario, evaluate(p.scenario), p.warnings);
        INFO(in.dump());
        REQUIRE(all_finite(r));
      }
    }
  }
}

TEST_CASE("every result comes with its working", "[contract][working]") {
  const json r = eval_json(R"({"model": "moe-1t"})");
  std::map<std::string, int> paths;
  for (const json& w : r["working"]) {
    CHECK_FALSE(w["formula"].get<std::string>().empty());
    CHECK_FALSE(w["substituted"].get<std::string>().empty());
    CHECK_FALSE(w["source"].get<std::string>().empty());
    ++paths[w["path"].get<std::string>()];
  }
  for (const char* p : {"training.memory.state_bytes", "training.compute.flops", "training.compute.device_hours[0]",
                        "training.compute.cluster_devices[1]", "serving.kv_bytes_per_token", "serving.decode_step_s",
                        "serving.experts_touched_fraction", "training.comms.moe_alltoall_bytes_per_s[1]",
                        "training.comms.moe_alltoall_bytes_per_s_at_step_mfu", "training.compute.cluster_cost_usd[0]",
                        "training.power.cluster_energy_wh[0]", "training.comms.checkpoint_bytes",
                        "serving.cost_per_million_tokens_usd"}) {
    INFO(p);
    CHECK(paths[p] == 1);
  }
  SECTION("the fast path skips working but computes the same numbers") {
    const auto p = parse_scenario(R"({"model": "moe-1t"})", bundled_catalog());
    const Estimate fast = evaluate(p.scenario, false);
    CHECK(fast.working.empty());
    CHECK(fast.serving.decode_step_s == evaluate(p.scenario, true).serving.decode_step_s);
  }
}
