// Serving search (sizer/serve/serve_search.h, docs/serving.md): the Pareto front is feasible, sorted and
// non-dominated; its points are what `sizer eval` predicts for the same configuration; the best
// meets the SLO at the lowest cost; the fleet sizes the demand; restrictions hold; an impossible
// SLO names the target that binds; bad serving.search input is refused naming the field.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "scenario_util.h"
#include "sizer/contract/catalog_load.h"
#include "sizer/planners/estimate.h"
#include "sizer/planners/serve_scenario.h"
#include "sizer/contract/serve_search_json.h"

using namespace sizer;
using namespace sizer::serve;
using nlohmann::json;
using testutil::scenario;

namespace {

// Llama 3 70B on H100 (dense: TP × PP only), a 2 s / 50 ms SLO, priced.
const char* kDense = R"({"model": "llama-3-70b", "device": "h100", "serving": {
  "workload": {"input_tokens": 2048, "output_tokens": 256, "concurrency": 16},
  "slo": {"ttft_s": 2, "tpot_s": 0.05}, "search": {"devices": [1, 16]}}})";

// The 1T MoE on GB200 (TP × attention DP × EP), the serving search's target case.
const char* kMoe = R"({"model": "moe-1t", "device": "gb200", "serving": {
  "workload": {"input_tokens": 1024, "output_tokens": 1024, "requests_per_s": 40},
  "slo": {"ttft_s": 2, "tpot_s": 0.05}}})";

std::string errors(const std::string& text) {
  const auto p = parse_scenario(text, bundled_catalog());
  CHECK_FALSE(p.ok());
  return format_issues(p.issues);
}

void check_front(const ServeSearchResult& r) {
  REQUIRE(r.pareto.size() >= 3);
  for (std::size_t i = 0; i < r.pareto.size(); ++i) {
    const Performance& p = r.pareto[i].perf;
    INFO("point " << i);
    CHECK(p.feasible());
    CHECK(p.tokens_per_s_per_user > 0);
    CHECK(p.output_tokens_per_s_per_device > 0);
    if (i > 0) {
      const Performance& q = r.pareto[i - 1].perf;
      CHECK(p.tokens_per_s_per_user >= q.tokens_per_s_per_user);
      CHECK(p.output_tokens_per_s_per_device <= q.output_tokens_per_s_per_device * (1 + 1e-6));
    }
  }
}

}  // namespace

TEST_CASE("serve-search: a dense model's front, its points as eval predicts them, the best and the fleet", "[serve][search]") {
  const Scenario s = testutil::scenario(kDense);
  const ServeSearchResult r = search_serving(s);
  CHECK(r.configs_evaluated > 100);
  CHECK(r.configs_feasible > 0);
  CHECK_FALSE(r.truncated);
  check_front(r);
  for (const ServePoint& p : r.pareto) {
    CHECK(p.layout.dp == 1);  // a dense model's DP ranks would be separate replicas
    CHECK(p.layout.ep == 1);
    CHECK(p.layout.devices() >= 1);
    CHECK(p.layout.devices() <= 16);
  }
  // An aggregated front point is exactly what `sizer eval` predicts for that configuration.
  std::vector<const ServePoint*> aggregated;
  for (const ServePoint& p : r.pareto) {
    if (!p.disaggregated) aggregated.push_back(&p);
  }
  REQUIRE(!aggregated.empty());
  const ServePoint& mid = *aggregated[aggregated.size() / 2];
  const std::string one = std::string(R"({"model": "llama-3-70b", "device": "h100", "serving": {"weight_precision": ")") +
                          to_string(mid.weight_precision) + R"(", "kv_precision": ")" + to_string(mid.kv_precision) +
                          R"(", "compute_precision": ")" + to_string(mid.compute_precision) + R"(", "layout": {"tp": )" +
                          std::to_string(mid.layout.tp) + R"(, "pp": )" + std::to_string(mid.layout.pp) +
                          R"(}, "workload": {"input_tokens": 2048, "output_tokens": 256, "concurrency": )" +
                          std::to_string(mid.concurrency) + R"(}, "slo": {"ttft_s": 2, "tpot_s": 0.05}}})";
  const Estimate e = evaluate(testutil::scenario(one), false);
  REQUIRE(e.serving.has_performance);
  CHECK(e.serving.performance.tokens_per_s_per_user == Approx(mid.perf.tokens_per_s_per_user).epsilon(1e-12));
  CHECK(e.serving.performance.output_tokens_per_s_per_device == Approx(mid.perf.output_tokens_per_s_per_device).epsilon(1e-12));
  CHECK(e.serving.performance.ttft_s == Approx(mid.perf.ttft_s).epsilon(1e-12));
  // The best meets the SLO and costs no more per million output tokens than any front point that does.
  REQUIRE(r.have_best);
  CHECK(r.best.perf.meets_slo);
  CHECK(r.best.perf.ttft_s <= 2);
  CHECK(r.best.perf.tpot_s <= 0.05);
  const double price = s.serving.price.usd_per_device_hour;
  REQUIRE(price > 0);
  CHECK(r.best.replica_usd_per_hour == Approx(price * r.best.layout.devices()));
  CHECK(r.best.cost_per_million_tokens_usd ==
        Approx(r.best.replica_usd_per_hour / (r.best.perf.output_tokens_per_s_per_replica * 3600) * 1e6).epsilon(1e-4));
  for (const ServePoint& p : r.pareto) {
    if (p.perf.meets_slo) CHECK(r.best.cost_per_million_tokens_usd <= p.cost_per_million_tokens_usd * (1 + 1e-3));
  }
  // The fleet: the scenario's daily demand over the best's output tokens/s per replica, rounded up.
  const double demand = s.serving.demand_tokens_per_day / 86400;
  CHECK(std::string(r.fleet.basis) == "tokens_per_day");
  CHECK(r.fleet.demand_output_tokens_per_s == Approx(demand));
  CHECK(r.fleet.replicas == std::ceil(demand / r.best.perf.output_tokens_per_s_per_replica));
  CHECK(r.fleet.devices == r.fleet.replicas * r.best.layout.devices());
  CHECK(r.fleet.usd_per_hour == Approx(r.fleet.replicas * r.best.replica_usd_per_hour));
}

TEST_CASE("serve-search: the 1T MoE on GB200 searches TP × DP × EP and sizes the fleet from the rate", "[serve][search]") {
  const Scenario s = testutil::scenario(kMoe);
  const ServeSearchResult r = search_serving(s);
  check_front(r);
  bool wide_ep = false;
  for (const ServePoint& p : r.pareto) wide_ep = wide_ep || (p.layout.ep > 1 && p.layout.dp > 1);
  CHECK(wide_ep);  // attention DP with experts spread over the DP ranks is on the front
  REQUIRE(r.have_best);
  CHECK(std::string(r.fleet.basis) == "requests_per_s");
  CHECK(r.fleet.demand_output_tokens_per_s == Approx(40 * 1024));
  CHECK(r.fleet.replicas == std::ceil(40 * 1024 / r.best.perf.output_tokens_per_s_per_replica - 1e-9));
  // The JSON carries the contract's leaves.
  const auto j = serve_search_to_json(s, r);
  CHECK(j["schema"] == "sizer.serve_search.v1");
  CHECK(j["configs_evaluated"].get<double>() == r.configs_evaluated);
  CHECK(j["pareto"].size() == r.pareto.size());
  for (const char* key : {"ttft_s", "tpot_s", "tokens_per_s_per_user", "output_tokens_per_s_per_device",
                          "output_tokens_per_s_per_replica", "requests_per_s_per_replica", "e2e_s", "decode_batch",
                          "max_concurrency_kv", "meets_slo", "bound", "weights_read_s", "kv_read_s", "compute_s",
                          "comm_s", "overhead_s", "concurrency", "layout", "weight_precision", "kv_precision"}) {
    INFO(key);
    CHECK(j["best"].contains(key));
    CHECK(j["pareto"][0].contains(key));
  }
  CHECK(j["fleet"]["replicas"].get<double>() == r.fleet.replicas);
}

TEST_CASE("serve-search: disaggregated pools join the front as eval predicts them", "[serve][search]") {
  // Long prompts and short answers: prefill dominates, so separate pools pay.
  Scenario s = testutil::scenario(R"({"model": "llama-3-70b", "device": "h100", "serving": {
    "workload": {"input_tokens": 8192, "output_tokens": 256, "concurrency": 8}, "slo": {"tpot_s": 0.03},
    "search": {"devices": [4, 16]}}})");
  const ServeSearchResult r = search_serving(s);
  check_front(r);
  const ServePoint* dis = nullptr;
  for (const ServePoint& p : r.pareto) {
    if (p.disaggregated && !dis) dis = &p;
  }
  REQUIRE(dis);
  // The point is serve::evaluate_disaggregated of its two pools at its concurrency.
  ServeContext c = serve_context(s);
  c.weight_precision = dis->weight_precision, c.kv_precision = dis->kv_precision, c.compute_precision = dis->compute_precision;
  c.workload.concurrency = dis->concurrency;
  const DisaggPerformance q =
      evaluate_disaggregated(s.model, s.device, {dis->prefill_layout, dis->layout}, c, s.serving.kv_link_bytes_per_s,
                             s.serving.prefill_utilisation);
  CHECK(dis->perf.tpot_s == Approx(q.tpot_s));
  CHECK(dis->perf.ttft_s == Approx(q.ttft_s));
  CHECK(dis->perf.output_tokens_per_s_per_device == Approx(q.output_tokens_per_s_per_device));
  CHECK(dis->replica_usd_per_hour == Approx(s.serving.price.usd_per_device_hour * q.devices_per_decode_instance));
  const auto j = serve_search_to_json(s, r);
  bool seen = false;
  for (const auto& p : j["pareto"]) {
    if (p["mode"] == "disaggregated") {
      seen = true;
      CHECK(p.contains("prefill_layout"));
      CHECK(p["prefill_per_decode"].get<double>() > 0);
    }
  }
  CHECK(seen);
  // Off: aggregated only.
  s.serving.search.disaggregated = false;
  for (const ServePoint& p : search_serving(s).pareto) CHECK_FALSE(p.disaggregated);
}

TEST_CASE("Disaggregated serve-search points carry real memory figures or null, never 0", "[serve][search]") {
  const Scenario s = scenario(R"({"model":"llama-3.1-70b","device":"h100","serving":{
    "workload":{"input_tokens":2048,"output_tokens":256,"concurrency":32},"slo":{"ttft_s":2,"tpot_s":0.05},
    "search":{"devices":[2,16],"disaggregated":true}}})");
  const json r = serve::serve_search_to_json(s, serve::search_serving(s));
  int disaggregated = 0;
  for (const json& p : r["pareto"]) {
    if (p["mode"] != "disaggregated") continue;
    ++disaggregated;
    // The decode instance holds the weights: 70.6e9 parameters in FP8 over its devices.
    const double devices = p["layout"]["devices"].get<double>();
    CHECK(p["weight_bytes_per_device"].get<double>() >= 0.9 * s.model.params / devices);
    CHECK(p["kv_bytes_per_token_per_device"].get<double>() > 0);
    CHECK(p["kv_capacity_bytes_per_device"].get<double>() > 0);
    CHECK(p["max_requests_per_s_per_replica"].is_null());
  }
  CHECK(disaggregated > 0);
}

TEST_CASE("serve-search: restrictions hold; spec decode is tried on and off", "[serve][search]") {
  Scenario s = testutil::scenario(R"({"model": "llama-3-70b", "device": "h100", "serving": {
    "workload": {"input_tokens": 1024, "output_tokens": 512, "concurrency": 8},
    "spec_decode": {"draft_tokens": 3, "acceptance": 0.7},
    "search": {"devices": 8, "weight_precisions": ["fp8"], "kv_precisions": ["fp8"]}}})");
  const ServeSearchResult r = search_serving(s);
  REQUIRE(!r.pareto.empty());
  bool on = false;
  for (const ServePoint& p : r.pareto) {
    CHECK(p.layout.devices() == 8);
    CHECK(p.weight_precision == Precision::fp8);
    CHECK(p.kv_precision == Precision::fp8);
    on = on || p.spec_decode;
  }
  CHECK(on);  // 3 drafts at 70% acceptance make fewer, fuller steps: on the front
  s.serving.search.spec_decode_both = false;
  for (const ServePoint& p : search_serving(s).pareto) CHECK(p.spec_decode);
}

TEST_CASE("serve-search: the scenario's precisions unless listed; listed, the lowest dominates", "[serve][search]") {
  Scenario s = testutil::scenario(R"({"model": "llama-3-70b", "device": "h100", "serving": {"weight_precision": "bf16",
    "workload": {"input_tokens": 1024, "output_tokens": 1024, "concurrency": 8}, "search": {"devices": [1, 8]}}})");
  for (const ServePoint& p : search_serving(s).pareto) {
    CHECK(p.weight_precision == Precision::bf16);
    CHECK(p.kv_precision == Precision::bf16);
    CHECK(p.compute_precision == Precision::bf16);
  }
  // Every precision listed: FP4 weights read a quarter of BF16's bytes but H100 has no FP4 path, so
  // they are dequantised into FP8 GEMMs at engine.mixed_input_gemm_efficiency of the FP8 rate;
  // FP8 KV halves the KV bytes. No BF16 point is left on the front: at small batches, where the
  // weight reads bind, FP4 weights win; where the GEMMs bind, FP8 weights.
  s.serving.search.weight_precisions = precision_bit(Precision::bf16) | precision_bit(Precision::fp8) | precision_bit(Precision::fp4);
  s.serving.search.kv_precisions = precision_bit(Precision::bf16) | precision_bit(Precision::fp8);
  const ServeSearchResult all = search_serving(s);
  REQUIRE(!all.pareto.empty());
  for (const ServePoint& p : all.pareto) {
    CHECK(p.weight_precision != Precision::bf16);
    CHECK(p.compute_precision == Precision::fp8);
    CHECK(p.kv_precision == Precision::fp8);
  }
  // The fastest point per user (batch 1: fewest bytes per token) has FP4 weights.
  CHECK(all.pareto.back().weight_precision == Precision::fp4);
}

TEST_CASE("serve-search: an SLO nothing meets names the target that binds", "[serve][search]") {
  const ServeSearchResult r = search_serving(testutil::scenario(R"({"model": "llama-3-70b", "device": "h100",
    "serving": {"workload": {"input_tokens": 1024, "output_tokens": 256, "concurrency": 1},
    "slo": {"tpot_s": 0.0001}, "search": {"devices": [1, 8]}}})"));
  CHECK_FALSE(r.have_best);
  CHECK(r.no_best_reason.find("serving.slo.tpot_s binds") != std::string::npos);
  CHECK(r.configs_meeting_slo == 0);
  CHECK(!r.pareto.empty());  // the front does not depend on the SLO
}

TEST_CASE("serve-search: bad serving.search input is refused naming the field", "[serve][search]") {
  const std::string head = R"({"serving": {"workload": {"input_tokens": 1, "output_tokens": 2, "concurrency": 1}, "search": )";
  CHECK(errors(head + R"({"devices": [8, 4]}}})").find("serving.search.devices") != std::string::npos);
  CHECK(errors(head + R"({"devices": [0, 4]}}})").find("serving.search.devices[0]") != std::string::npos);
  CHECK(errors(head + R"({"devices": "many"}}})").find("serving.search.devices") != std::string::npos);
  CHECK(errors(head + R"({"weight_precisions": ["int4"]}}})").find("serving.search.weight_precisions[0]") !=
        std::string::npos);
  CHECK(errors(head + R"({"kv_precisions": []}}})").find("serving.search.kv_precisions") != std::string::npos);
  CHECK(errors(head + R"({"spec_decode": "maybe"}}})").find("serving.search.spec_decode") != std::string::npos);
  CHECK(errors(head + R"({"wide": true}}})").find("serving.search") != std::string::npos);
}

TEST_CASE("serve-search device counts: powers of two, both ends and the scale-up domain", "[serve][search]") {
  CHECK(serve_search_device_counts(1, 72, 72) == std::vector<double>{1, 2, 4, 8, 16, 32, 64, 72});
  CHECK(serve_search_device_counts(3, 20, 8) == std::vector<double>{3, 4, 8, 16, 20});
  CHECK(serve_search_device_counts(8, 8, 72) == std::vector<double>{8});
  CHECK(serve_search_device_counts(0, 8, 8).empty());
}

TEST_CASE("serve-search on every chip: each chip is the search with that device swapped in", "[serve][search]") {
  const auto p = parse_scenario(kDense, bundled_catalog());
  REQUIRE(p.ok());
  const std::vector<ChipSearch> chips = search_serving_chips(p.scenario, bundled_catalog(), {"h100", "a100", "gb200"});
  REQUIRE(chips.size() == 3);
  // Catalog order, not the order asked.
  CHECK(chips[0].device == "a100");
  CHECK(chips[1].device == "h100");
  CHECK(chips[2].device == "gb200");
  // The scenario's own chip is exactly its own search.
  const ServeSearchResult own = search_serving(p.scenario);
  CHECK(chips[1].result.configs_evaluated == own.configs_evaluated);
  REQUIRE(chips[1].result.have_best == own.have_best);
  if (own.have_best) CHECK(chips[1].result.best.cost_per_million_tokens_usd == Approx(own.best.cost_per_million_tokens_usd));
  // Another chip is the search of the scenario edited to that device (its price offer with it).
  const auto a100 = parse_scenario(std::string(kDense).replace(std::string(kDense).find("\"h100\""), 6, "\"a100\""),
                                   bundled_catalog());
  REQUIRE(a100.ok());
  const ServeSearchResult direct = search_serving(a100.scenario);
  CHECK(chips[0].result.configs_evaluated == direct.configs_evaluated);
  CHECK(chips[0].compute_precision == Precision::bf16);  // no FP8 on an A100: its GEMMs run BF16
  REQUIRE(chips[0].result.have_best == direct.have_best);
  if (direct.have_best) {
    CHECK(chips[0].result.best.perf.output_tokens_per_s_per_device ==
          Approx(direct.best.perf.output_tokens_per_s_per_device));
  }
  // The JSON names the cheapest chip among those with a price.
  const auto j = serve_chips_to_json(p.scenario, chips);
  CHECK(j["schema"] == "sizer.serve_search_chips.v1");
  REQUIRE(j["chips"].size() == 3);
  double cheapest = 1e300;
  std::string id;
  for (const auto& c : chips) {
    if (c.result.have_best && !c.price_id.empty() && c.result.best.cost_per_million_tokens_usd < cheapest) {
      cheapest = c.result.best.cost_per_million_tokens_usd;
      id = c.device;
    }
  }
  REQUIRE_FALSE(id.empty());
  CHECK(j["best_chip"] == id);
}
