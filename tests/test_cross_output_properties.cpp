// Cross-output property tests: invariants that must hold between the leaves of ONE result, over a
// few thousand generated scenarios spanning every bundled model preset and device, precisions,
// MFU lists, layouts (EP > 1, CP > 1, ZeRO 0-3), serving batch/context/replica sizes, and prices
// or none.
//
// Violations are tallied per invariant and reported once each with the first failing scenario,
// so a broken invariant gives one readable failure, not thousands.
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "result_leaves.h"
#include "sizer/contract/catalog_load.h"
#include "rng_util.h"

using leaves::json;

namespace {

using testutil::Rng;

bool divides(double n, double d) { return std::fmod(n, d) == 0; }

// One valid scenario (valid for the planner as well: TP divides heads, PP ≤ layers, EP divides the
// experts, CP divides the sequence, global batch splits over dp·ep·micro-batch).
json generate(Rng& g, const sizer::Catalog& cat) {
  const sizer::Model& m = cat.models[g.pick(cat.models.size())];
  const sizer::Device& d = cat.devices[g.pick(cat.devices.size())];
  json s = {{"model", m.id}, {"device", d.id}};
  if (!d.default_system.empty() && g.chance(0.6)) s["system"] = d.default_system;
  std::vector<std::string> precs;
  for (auto [name, v] : {std::pair<const char*, double>{"bf16", d.dense_flops_bf16}, {"fp8", d.dense_flops_fp8},
                         {"fp4", d.dense_flops_fp4}, {"fp32", d.dense_flops_fp32}}) {
    if (v > 0) precs.push_back(name);
  }
  json t = {{"precision", g.pick(precs)}};
  json mfu = json::array();
  for (std::size_t i = 0, n = 1 + g.pick(4); i < n; ++i) mfu.push_back(std::round(g.uniform(0.1, 0.7) * 1000) / 1000);
  t["mfu"] = mfu;
  if (g.chance(0.5)) t["days"] = std::round(g.uniform(5, 365));
  if (g.chance(0.5)) t["goodput"] = std::round(g.uniform(0.5, 1) * 100) / 100;
  if (g.chance(0.3)) t["tokens"] = std::round(std::pow(10, g.uniform(9, 14)));
  if (g.chance(0.2)) t["optimizer"] = "adam_fp8";
  t["zero_stage"] = static_cast<int>(g.pick(4));
  const double price_roll = g.uniform(0, 1);
  if (price_roll < 0.2) t["price"] = nullptr;
  else if (price_roll < 0.4) t["usd_per_device_hour"] = std::round(g.uniform(0.5, 20) * 100) / 100;
  std::vector<double> tps;
  for (double x : {1.0, 2.0, 4.0, 8.0, 16.0}) if (divides(m.heads, x)) tps.push_back(x);
  std::vector<double> pps;
  for (double x : {1.0, 2.0, 4.0, 8.0, 16.0}) if (x <= m.layers) pps.push_back(x);
  std::vector<double> eps = {1.0};
  if (m.moe.enabled()) for (double x : {2.0, 4.0, 8.0, 16.0, 32.0, 64.0}) if (divides(m.moe.experts, x)) eps.push_back(x);
  const double seq = m.seq_len > 0 ? m.seq_len : 2048;
  std::vector<double> cps = {1.0};
  for (double x : {2.0, 4.0}) if (divides(seq, x)) cps.push_back(x);
  const double tp = g.pick(tps), pp = g.pick(pps);
  const double ep = g.pick(eps), cp = g.chance(0.3) ? g.pick(cps) : 1, mb = g.chance(0.5) ? 1 : 2;
  // DP up to 64, kept inside the contract's cap of 10^6 devices per layout.
  double dp = g.pick(std::vector<double>{1, 2, 4, 8, 16, 32, 64});
  while (dp > 1 && tp * pp * dp * cp * ep > 1e6) dp /= 2;
  t["layout"] = {{"tp", tp}, {"pp", pp}, {"dp", dp}, {"ep", ep}, {"cp", cp}, {"micro_batch", mb},
                 {"global_batch", dp * ep * mb * static_cast<double>(1 + g.pick(32))}};
  s["training"] = t;
  json v = {{"weight_precision", g.pick(std::vector<std::string>{"bf16", "fp8", "fp4"})},
            {"kv_precision", g.pick(std::vector<std::string>{"bf16", "fp8"})},
            {"context", g.pick(std::vector<double>{1024, 4096, 8192, 32768, 131072})},
            {"batch", g.pick(std::vector<double>{1, 2, 8, 32, 128, 512, 1024})},
            {"kv_fill", std::round(g.uniform(0.1, 1) * 100) / 100}};
  if (g.chance(0.5)) v["replica_devices"] = g.pick(std::vector<double>{1, 2, 4, 8, 16, 32, 64, 72});
  s["serving"] = v;
  json power = json::object();
  if (g.chance(0.3)) power["pue"] = std::round(g.uniform(1, 2) * 100) / 100;
  if (d.system_w <= 0 && g.chance(0.5)) power["system_w_per_device"] = std::round(g.uniform(500, 2500));
  if (!power.empty()) s["power"] = power;
  return s;
}

struct Tally {
  std::map<std::string, int> count;
  std::map<std::string, std::string> first;
  void check(bool ok, const std::string& name, const std::string& detail, const json& scenario) {
    if (ok) return;
    if (count[name]++ == 0) first[name] = detail + "\n  scenario: " + scenario.dump();
  }
};

bool ge(double a, double b) { return a >= b * (1 - 1e-12) - 1e-300; }
double d(const json* v) { return (v != nullptr && v->is_number()) ? v->get<double>() : NAN; }

void check_result(const json& sc, const leaves::Run& r, Tally& t) {
  const json& j = r.result;
  auto at = [&](const std::string& p) { return leaves::find(j, p); };
  auto num = [&](const std::string& p) { return d(at(p)); };
  auto expect = [&](bool ok, const std::string& name, const std::string& detail = "") { t.check(ok, name, detail, sc); };

  // Devices: one definition, tp·pp·dp·cp·ep, in eval and in plan.
  const json& l = j["scenario"]["training"]["layout"];
  const double devices = l["tp"].get<double>() * l["pp"].get<double>() * l["dp"].get<double>() *
                         l["cp"].get<double>() * l["ep"].get<double>();
  const double eval_devices = num("training.comms.layout_devices");
  const double plan_devices = sizer::plan_to_json(r.s)["layout"]["devices"].get<double>();
  expect(eval_devices == plan_devices, "eval layout_devices == plan layout devices",
         "eval " + leaves::Expect::fmt(eval_devices) + ", plan " + leaves::Expect::fmt(plan_devices));
  expect(eval_devices == devices, "layout_devices == tp·pp·dp·cp·ep");

  // Cost = price × device-hours, per MFU point, for the same hours; and the cluster's own figures.
  const json& c = j["training"]["compute"];
  const double price = num("training.compute.price_offer.usd_per_device_hour");
  const double days = j["scenario"]["training"]["days"], sys_w = num("training.power.system_w_per_device");
  const double pue = j["scenario"]["power"]["pue"];
  const std::size_t n = c["mfu"].size();
  expect(std::isnan(price) == c["cost_usd"].is_null(), "cost_usd is null exactly when there is no price");
  for (const char* leaf : {"cluster_device_hours", "cluster_cost_usd"}) {
    expect(c.contains(leaf), std::string("leaf training.compute.") + leaf + " exists");
  }
  expect(j["training"]["power"].contains("cluster_energy_wh"), "leaf training.power.cluster_energy_wh exists");
  for (std::size_t i = 0; i < n; ++i) {
    const std::string ix = "[" + std::to_string(i) + "]";
    const double hours = num("training.compute.device_hours" + ix), cluster = num("training.compute.cluster_devices" + ix);
    if (!std::isnan(price)) {
      expect(leaves::close_rel(num("training.compute.cost_usd" + ix), price * hours, 1e-12),
             "cost_usd[i] == price × device_hours[i]");
    }
    if (c.contains("cluster_device_hours")) {
      const double ch = num("training.compute.cluster_device_hours" + ix);
      expect(leaves::close_rel(ch, cluster * days * 24, 1e-12), "cluster_device_hours[i] == cluster_devices[i] × days × 24");
      expect(ge(ch, hours), "cluster_device_hours[i] >= device_hours[i]");
      if (c.contains("cluster_cost_usd")) {
        expect(std::isnan(price) == c["cluster_cost_usd"].is_null(), "cluster_cost_usd is null exactly when there is no price");
        if (!std::isnan(price)) {
          expect(leaves::close_rel(num("training.compute.cluster_cost_usd" + ix), price * ch, 1e-12),
                 "cluster_cost_usd[i] == price × cluster_device_hours[i]");
        }
      }
      if (j["training"]["power"].contains("cluster_energy_wh") && !std::isnan(sys_w)) {
        expect(leaves::close_rel(num("training.power.cluster_energy_wh" + ix), ch * sys_w * pue, 1e-12),
               "cluster_energy_wh[i] == cluster_device_hours[i] × system W × PUE");
      }
    }
    // Monotonic within the list: more MFU → fewer device hours, no more devices.
    for (std::size_t k = 0; k < n; ++k) {
      const std::string kx = "[" + std::to_string(k) + "]";
      if (num("training.compute.mfu" + ix) < num("training.compute.mfu" + kx)) {
        expect(hours > num("training.compute.device_hours" + kx), "more MFU → fewer device hours");
        expect(cluster >= num("training.compute.cluster_devices" + kx), "more MFU → no more cluster devices");
      }
    }
  }

  // Decode: the step is at least every floor, and the bound names the largest.
  const double step = num("serving.decode_step_s"), bw = num("serving.decode_bandwidth_step_s");
  const double fl = num("serving.decode_compute_step_s"), lat = num("serving.tp_latency_floor_s");
  expect(ge(step, bw), "decode_step_s >= decode_bandwidth_step_s");
  expect(ge(step, fl), "decode_step_s >= decode_compute_step_s");
  expect(ge(step, lat), "decode_step_s >= tp_latency_floor_s",
         "step " + leaves::Expect::fmt(step) + " < floor " + leaves::Expect::fmt(lat));
  const std::string bound = j["serving"]["decode_bound"].is_string() ? j["serving"]["decode_bound"].get<std::string>() : "";
  expect(bound == "bandwidth" || bound == "compute" || bound == "latency", "decode_bound is bandwidth|compute|latency");
  const double named = bound == "bandwidth" ? bw : bound == "compute" ? fl : lat;
  expect(leaves::close_rel(named, step, 1e-12), "decode_bound names the largest floor",
         "bound " + bound + " = " + leaves::Expect::fmt(named) + ", step " + leaves::Expect::fmt(step));

  // Memory: the layout's devices hold the whole state; an automatic replica holds the footprint.
  expect(ge(num("training.memory.state_bytes_per_device") * eval_devices, num("training.memory.state_bytes")),
         "state_bytes_per_device × layout devices >= state_bytes");
  if (!j["scenario"]["serving"].contains("replica_devices")) {
    expect(ge(num("serving.replica_devices") * j["scenario"]["device"]["memory_bytes"].get<double>() *
                  j["scenario"]["serving"]["hbm_usable"].get<double>(),
              num("serving.footprint_bytes")),
           "automatic replica's usable HBM >= weights + KV");
  }
  expect(ge(num("serving.replica_min_devices") * j["scenario"]["device"]["memory_bytes"].get<double>() *
                j["scenario"]["serving"]["hbm_usable"].get<double>(),
            num("serving.footprint_bytes")),
         "replica_min_devices' usable HBM >= weights + KV");

  // No NaN, infinity or negative number anywhere; every null outside `scenario` has a note.
  std::set<std::string> noted;
  const bool has_nulls = j.contains("nulls") && j["nulls"].is_array();
  expect(has_nulls, "result has a `nulls` list of {path, why}");
  if (has_nulls) {
    for (const json& e : j["nulls"]) {
      const bool ok = e.is_object() && e.contains("path") && e["path"].is_string() && e.contains("why") &&
                      e["why"].is_string() && !e["why"].get<std::string>().empty();
      expect(ok, "every `nulls` entry is {path, why} with a non-empty why", e.dump());
      if (ok) noted.insert(e["path"].get<std::string>());
    }
  }
  leaves::walk(j, "", [&](const std::string& path, const json& v) {
    if (v.is_number()) {
      const double x = v.get<double>();
      expect(std::isfinite(x) && x >= 0, "no NaN, infinity or negative number", path + " = " + v.dump());
    }
    if (v.is_null() && path.rfind("scenario.", 0) != 0) {  // one tally per path: the report lists them
      expect(noted.count(path) == 1, "null leaf without a `nulls` entry: " + path);
    }
  });

  // A verdict whose inputs are unknown is null, not a guess: no NIC figure, no verdict.
  if (!j["scenario"]["device"].contains("scale_out_bytes_per_s")) {
    expect(j["training"]["comms"]["dp_verdict"].is_null(), "dp_verdict is null without scale-out bandwidth",
           j["training"]["comms"]["dp_verdict"].dump());
    for (const char* k : {"pp", "moe"}) {
      const json& verdict = j["training"]["comms"][std::string(k) + "_verdict"];
      const double need = d(leaves::find(j, std::string("training.comms.") + k + (std::string(k) == "pp" ? "_bytes_per_s" : "_alltoall_bytes_per_s[0]")));
      expect(verdict.is_null() || (need == 0 && verdict == "fits_scale_out"),
             std::string(k) + "_verdict is null without scale-out bandwidth", verdict.dump());
    }
  }
}

}  // namespace

TEST_CASE("Properties: invariants over generated scenarios", "[properties][cross_output]") {
  const sizer::Catalog& cat = sizer::bundled_catalog();
  Rng g{20261025};
  Tally t;
  int refused = 0;
  std::string first_refusal;
  std::set<std::string> models, devices;
  constexpr int kScenarios = 2500;
  for (int i = 0; i < kScenarios; ++i) {
    const json sc = generate(g, cat);
    const leaves::Run r = leaves::run(sc.dump());
    if (!r.ok) {
      if (refused++ == 0) first_refusal = r.issues + "  scenario: " + sc.dump();
      continue;
    }
    models.insert(sc["model"]);
    devices.insert(sc["device"]);
    check_result(sc, r, t);
  }
  {
    INFO("first refusal: " << first_refusal);
    CHECK(refused == 0);  // every generated scenario is valid input
  }
  CHECK(models.size() == cat.models.size());
  CHECK(devices.size() == cat.devices.size());
  for (const auto& [name, count] : t.count) {
    INFO(count << " of " << kScenarios << " scenarios violate: " << name << "\n  first: " << t.first[name]);
    CHECK(count == 0);
  }
}

TEST_CASE("Properties: monotonicity under one changed input", "[properties][cross_output]") {
  // The same scenario with one input changed, through the public Scenario struct and evaluate().
  const sizer::Catalog& cat = sizer::bundled_catalog();
  Rng g{42};
  Tally t;
  for (int i = 0; i < 400; ++i) {
    const json sc = generate(g, cat);
    sizer::ParsedScenario p = sizer::parse_scenario(sc.dump(), cat);
    if (!p.ok()) continue;
    const sizer::Scenario base = p.scenario;
    const sizer::Estimate e0 = sizer::evaluate(base, false);
    auto expect = [&](bool ok, const std::string& name) { t.check(ok, name, "", sc); };
    {  // Twice the tokens: exactly twice the FLOP and the device hours; no fewer devices.
      sizer::Scenario s = base;
      s.training.tokens *= 2;
      const sizer::Estimate e = sizer::evaluate(s, false);
      expect(leaves::close_rel(e.compute.flops, 2 * e0.compute.flops, 1e-12), "2× tokens → 2× FLOP");
      for (std::size_t k = 0; k < e.compute.device_hours.size(); ++k) {
        expect(leaves::close_rel(e.compute.device_hours[k], 2 * e0.compute.device_hours[k], 1e-12), "2× tokens → 2× device hours");
        expect(e.compute.cluster_devices[k] >= e0.compute.cluster_devices[k], "more tokens → no fewer cluster devices");
      }
    }
    {  // 10% more MFU at every point: fewer device hours, no more devices, no higher cost.
      sizer::Scenario s = base;
      for (double& u : s.training.mfu) u = std::min(1.0, u * 1.1);
      const sizer::Estimate e = sizer::evaluate(s, false);
      for (std::size_t k = 0; k < e.compute.device_hours.size(); ++k) {
        expect(e.compute.device_hours[k] < e0.compute.device_hours[k], "more MFU → fewer device hours");
        expect(e.compute.cluster_devices[k] <= e0.compute.cluster_devices[k], "more MFU → no more cluster devices");
        if (!e.compute.cost_usd.empty()) expect(e.compute.cost_usd[k] < e0.compute.cost_usd[k], "more MFU → lower cost");
      }
    }
    {  // A longer schedule: no more devices.
      sizer::Scenario s = base;
      s.training.days *= 2;
      const sizer::Estimate e = sizer::evaluate(s, false);
      for (std::size_t k = 0; k < e.compute.cluster_devices.size(); ++k) {
        expect(e.compute.cluster_devices[k] <= e0.compute.cluster_devices[k], "more days → no more cluster devices");
      }
    }
    {  // A bigger batch on the same replica: no fewer tokens per second per replica, no less KV.
      sizer::Scenario s = base;
      s.serving.replica_devices = e0.serving.replica_devices;
      const sizer::Estimate e1 = sizer::evaluate(s, false);
      s.serving.batch *= 2;
      const sizer::Estimate e = sizer::evaluate(s, false);
      expect(e.serving.tokens_per_s_per_replica >= e1.serving.tokens_per_s_per_replica * (1 - 1e-12),
             "bigger batch → no fewer tokens/s per replica");
      expect(e.serving.kv_bytes > e1.serving.kv_bytes, "bigger batch → more KV bytes");
      expect(e.serving.decode_step_s >= e1.serving.decode_step_s * (1 - 1e-12), "bigger batch → no shorter decode step");
    }
  }
  for (const auto& [name, count] : t.count) {
    INFO(count << " scenarios violate: " << name << "\n  first: " << t.first[name]);
    CHECK(count == 0);
  }
}
