// Metamorphic and cross-output properties over generated scenarios, the checks that guard the
// serving figures against each other: a request under load is never served faster than alone,
// more load never shortens the time to first token, serve-search's front is non-dominated and
// ordered, the sensitivity base lies inside every input's bar, and a figure that cannot be met
// is null with a `nulls` entry, never 0.
//
// Scenarios come from a fixed-seed generator (splitmix64), so a failure names a scenario that
// reproduces everywhere; each property reports its first failing scenario once.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rng_util.h"
#include "sizer/planners/catalog.h"
#include "sizer/planners/estimate.h"
#include "sizer/contract/result_json.h"
#include "sizer/contract/scenario_parse.h"
#include "sizer/serve/serving_model.h"
#include "sizer/planners/serving_search.h"

using namespace sizer;
using nlohmann::json;

namespace {

using testutil::Rng;

// A replica layout that holds the model with room for a few requests: TP within the scale-up
// domain and dividing the heads, PP dividing the layers, the smallest that fits.
bool pick_layout(Rng& g, const Model& m, const Device& d, serve::ServeContext* c, serve::ServeLayout* out) {
  std::vector<double> pps;
  for (double pp : {1.0, 2.0, 4.0, 8.0}) {
    if (pp <= m.layers && std::fmod(m.layers, pp) == 0) pps.push_back(pp);
  }
  const double pp = g.pick(pps);
  for (double tp : {1.0, 2.0, 4.0, 8.0}) {
    if (std::fmod(m.heads, tp) != 0 || (d.scale_up_domain > 0 && tp > d.scale_up_domain)) continue;
    serve::ServeLayout l;
    l.tp = tp, l.pp = pp, l.dp = 1, l.ep = 1;
    const serve::Performance mem = serve::evaluate_memory(m, d, l, *c);
    if (mem.valid() && mem.max_concurrency_kv >= 4) {
      *out = l;
      return true;
    }
  }
  return false;
}

std::string describe(const Model& m, const Device& d, const serve::ServeLayout& l, const serve::Workload& w) {
  return m.id + " on " + d.id + ", tp " + std::to_string(l.tp) + " pp " + std::to_string(l.pp) + ", " +
         std::to_string(w.input_tokens) + " in / " + std::to_string(w.output_tokens) + " out";
}

}  // namespace

TEST_CASE("Serving under load: never faster than the prompt alone, TTFT never falls as load doubles",
          "[serve][properties]") {
  const Catalog& cat = bundled_catalog();
  Rng g{0x7e57'5e2e'0000'0042ULL};
  int scenarios = 0, points = 0;
  std::string alone_fail, monotone_fail;
  for (int trial = 0; trial < 400 && scenarios < 150; ++trial) {
    const Model& m = cat.models[g.pick(cat.models.size())];
    const Device& d = cat.devices[g.pick(cat.devices.size())];
    serve::ServeContext c;
    c.weight_precision = d.dense_flops(Precision::fp8) > 0 ? Precision::fp8 : Precision::bf16;
    c.compute_precision = c.weight_precision;
    if (!(d.dense_flops(c.compute_precision) > 0)) continue;
    c.workload.input_tokens = std::round(std::exp(g.uniform(std::log(64.0), std::log(16384.0))));
    c.workload.output_tokens = g.pick(std::vector<double>{1, 2, 16, 128, 1024});
    c.workload.concurrency = 1;
    serve::ServeLayout l;
    if (!pick_layout(g, m, d, &c, &l)) continue;
    ++scenarios;
    const std::string what = describe(m, d, l, c.workload);
    double last_ttft = 0;
    const serve::Performance base = serve::evaluate_memory(m, d, l, c);
    for (double conc = 1; conc <= base.max_concurrency_kv; conc *= 2) {
      c.workload.concurrency = conc;
      const serve::Performance p = serve::evaluate_serving(m, d, l, c);
      ++points;
      // The prompt alone (r.prefill, no decode batch beside it) is a lower bound on its service.
      if (alone_fail.empty() && p.prefill_s < p.prefill.step_s * (1 - 1e-9)) {
        alone_fail = what + " at concurrency " + std::to_string(conc) + ": prefill " + std::to_string(p.prefill_s) +
                     " s < alone " + std::to_string(p.prefill.step_s) + " s";
      }
      if (monotone_fail.empty() && p.ttft_s < last_ttft * (1 - 1e-9)) {
        monotone_fail = what + ": TTFT " + std::to_string(p.ttft_s) + " s at concurrency " + std::to_string(conc) +
                        " < " + std::to_string(last_ttft) + " s at half of it";
      }
      last_ttft = p.ttft_s;
    }
  }
  INFO(scenarios << " scenarios, " << points << " operating points");
  CHECK(scenarios >= 100);
  INFO(alone_fail);
  CHECK(alone_fail.empty());
  INFO(monotone_fail);
  CHECK(monotone_fail.empty());
}

TEST_CASE("serve-search: every Pareto point is non-dominated and the front is ordered", "[serve][properties]") {
  const Catalog& cat = bundled_catalog();
  Rng g{0x5ea2'c400'0000'0007ULL};
  int searched = 0;
  const std::vector<std::string> models = {"llama-3.1-8b", "llama-3.1-70b", "mixtral-8x7b", "deepseek-v3"};
  const std::vector<std::string> devices = {"h100", "h20", "b200", "mi300x"};
  for (int i = 0; i < 6; ++i) {
    json j = {{"model", g.pick(models)}, {"device", g.pick(devices)}};
    j["serving"]["workload"] = {{"input_tokens", std::round(g.uniform(128, 8192))},
                                {"output_tokens", g.pick(std::vector<double>{1, 64, 512})},
                                {"requests_per_s", std::round(g.uniform(1, 50))}};
    j["serving"]["slo"] = {{"ttft_s", g.uniform(0.3, 3)}, {"tpot_s", g.uniform(0.02, 0.1)}};
    j["serving"]["search"] = {{"devices", {1, 16}}};
    const auto p = parse_scenario(j.dump(), cat);
    INFO(j.dump() << "\n" << format_issues(p.issues));
    REQUIRE(p.ok());
    const serve::ServeSearchResult r = serve::search_serving(p.scenario);
    ++searched;
    const auto& f = r.pareto;
    for (std::size_t a = 0; a < f.size(); ++a) {
      const serve::Performance& x = f[a].perf;
      CHECK(std::isfinite(x.output_tokens_per_s_per_device));
      if (a > 0) {  // ordered: per-user rate up, per-device rate down
        const serve::Performance& w = f[a - 1].perf;
        const double xu = std::isfinite(x.tokens_per_s_per_user) ? x.tokens_per_s_per_user : 0;
        const double wu = std::isfinite(w.tokens_per_s_per_user) ? w.tokens_per_s_per_user : 0;
        CHECK(xu >= wu);
        CHECK(x.output_tokens_per_s_per_device <= w.output_tokens_per_s_per_device * (1 + 1e-9));
      }
      for (std::size_t b = 0; b < f.size(); ++b) {  // no other point is at least as good on both and better on one
        if (a == b) continue;
        const serve::Performance& y = f[b].perf;
        const double xu = std::isfinite(x.tokens_per_s_per_user) ? x.tokens_per_s_per_user : 0;
        const double yu = std::isfinite(y.tokens_per_s_per_user) ? y.tokens_per_s_per_user : 0;
        const bool dominated = yu >= xu && y.output_tokens_per_s_per_device >= x.output_tokens_per_s_per_device &&
                               (yu > xu || y.output_tokens_per_s_per_device > x.output_tokens_per_s_per_device);
        INFO("point " << a << " against " << b);
        CHECK_FALSE(dominated);
      }
    }
  }
  CHECK(searched == 6);
}

TEST_CASE("Intervals: the sensitivity base lies inside every input's bar", "[properties]") {
  const Catalog& cat = bundled_catalog();
  Rng g{0x5e25'1717'0000'0003ULL};
  const std::vector<std::string> models = {"llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b", "dense-1t", "moe-1t"};
  const std::vector<std::string> devices = {"h100", "a100", "b200", "gb200", "mi300x"};
  int checked = 0;
  std::string fail;
  for (int i = 0; i < 60; ++i) {
    json j = {{"model", g.pick(models)}, {"device", g.pick(devices)}};
    j["training"]["days"] = std::round(g.uniform(20, 200));
    if (g.uniform(0, 1) < 0.4) j["training"]["goodput"] = "predicted";
    // Ranges that may or may not hold the scenario's own values.
    const double m0 = g.uniform(0.2, 0.6);
    j["uncertainty"]["mfu"] = {m0, m0 + g.uniform(0.01, 0.15)};
    if (g.uniform(0, 1) < 0.5) {
      const double p0 = g.uniform(1, 6);
      j["uncertainty"]["usd_per_device_hour"] = {p0, p0 * g.uniform(1.1, 2)};
    }
    if (g.uniform(0, 1) < 0.5) {
      const double t0 = std::pow(10, g.uniform(11, 13));
      j["uncertainty"]["tokens"] = {t0, t0 * g.uniform(1.1, 3)};
    }
    const auto p = parse_scenario(j.dump(), cat);
    if (!p.ok()) continue;
    const Estimate e = evaluate(p.scenario);
    const IntervalResult& iv = e.intervals;
    if (!std::isfinite(iv.sensitivity_base)) continue;  // the centre itself out of reach
    for (const SensitivityRow& row : iv.sensitivity) {
      const double lo = std::min(row.output_low, row.output_high), hi = std::max(row.output_low, row.output_high);
      ++checked;
      if (fail.empty() && !(iv.sensitivity_base >= lo * (1 - 1e-9) && iv.sensitivity_base <= hi * (1 + 1e-9))) {
        fail = j.dump() + ": base " + std::to_string(iv.sensitivity_base) + " outside " + row.input + "'s bar " +
               std::to_string(lo) + " – " + std::to_string(hi);
      }
    }
  }
  INFO(checked << " bars");
  CHECK(checked >= 60);
  INFO(fail);
  CHECK(fail.empty());
}

TEST_CASE("Every figure that cannot be met is null with a nulls entry, never 0", "[properties]") {
  const Catalog& cat = bundled_catalog();
  Rng g{0x0dd5'0000'0000'0011ULL};
  const std::vector<std::string> models = {"llama-3.1-70b", "llama-3.1-405b", "dense-1t", "moe-1t"};
  const std::vector<std::string> devices = {"h100", "a100", "h200", "b200", "mi300x"};
  int unmeetable = 0;
  std::string fail;
  for (int i = 0; i < 80; ++i) {
    json j = {{"model", g.pick(models)}, {"device", g.pick(devices)}};
    j["training"] = {{"days", std::round(g.uniform(5, 120))}, {"goodput", "predicted"}};
    const auto p = parse_scenario(j.dump(), cat);
    if (!p.ok()) continue;
    const Estimate e = evaluate(p.scenario);
    const json r = result_to_json(p.scenario, e);
    const json& c = r["training"]["compute"];
    if (!c["device_hours"].is_array()) continue;
    for (std::size_t k = 0; k < c["device_hours"].size(); ++k) {
      const bool out = c["cluster_devices"][k].is_null();
      unmeetable += out;
      for (const auto& [group, leaf] : {std::pair<const char*, const char*>{"compute", "cluster_devices"},
                                        {"compute", "cluster_device_hours"}, {"compute", "cluster_cost_usd"},
                                        {"compute", "scale_up_domains"}, {"power", "facility_power_w"},
                                        {"power", "cluster_energy_wh"}}) {
        const json& list = r["training"][group][leaf];
        if (!list.is_array()) continue;
        const json& v = list[k];
        const std::string path = std::string("training.") + group + "." + leaf;
        if (!fail.empty()) continue;
        if (v.is_number() && v.get<double>() <= 0) fail = j.dump() + ": " + path + "[" + std::to_string(k) + "] is 0";
        if (out && !v.is_null()) fail = j.dump() + ": " + path + "[" + std::to_string(k) + "] is a number out of reach";
        if (v.is_null()) {
          bool reason = false;
          for (const json& n : r["nulls"]) reason = reason || (n["path"] == path && !n["why"].get<std::string>().empty());
          if (!reason) fail = j.dump() + ": " + path + " is null with no nulls entry";
        }
      }
    }
  }
  INFO(unmeetable << " points out of reach");
  CHECK(unmeetable > 0);  // the generator reaches the case
  INFO(fail);
  CHECK(fail.empty());
}
