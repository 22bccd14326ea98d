// Disaggregated serving (serve::evaluate_disaggregated, docs/serving.md): decode-only steps for
// TPOT, prefill steps full of prompts, the KV transfer in TTFT, the prefill-per-decode ratio that
// keeps the prefill pool at its design load, throughput per device over both pools; the contract
// serving.disaggregation in and serving.disaggregated out; bad input refused naming the field.
#include <catch2/catch.hpp>
#include <cmath>

#include "scenario_util.h"
#include "sizer/contract/catalog_load.h"
#include "sizer/planners/estimate.h"
#include "sizer/contract/result_json.h"
#include "sizer/planners/serve_scenario.h"

using namespace sizer;
using namespace sizer::serve;

namespace {

const char* kDisagg = R"({"model": "llama-3-70b", "device": "h100", "serving": {"layout": {"tp": 8},
  "workload": {"input_tokens": 4096, "output_tokens": 512, "concurrency": 64},
  "disaggregation": {"prefill": {"tp": 4}, "decode": {"tp": 8}}, "slo": {"ttft_s": 2, "tpot_s": 0.05}}})";

std::string errors(const std::string& text) {
  const auto p = parse_scenario(text, bundled_catalog());
  CHECK_FALSE(p.ok());
  return format_issues(p.issues);
}

}  // namespace

TEST_CASE("disaggregated serving: decode-only TPOT, prefill at the budget, KV transfer, xPyD balance", "[serve][disagg]") {
  const Scenario s = testutil::scenario(kDisagg);
  REQUIRE(s.serving.disagg_given);
  const Estimate e = evaluate(s, false);
  REQUIRE(e.serving.has_disaggregated);
  const DisaggPerformance& p = e.serving.disaggregated;
  CHECK(p.problems == 0);
  const ServeContext c = serve_context(s);
  const Model& m = s.model;
  // TPOT: the decode instance's step with its 64 sequences decoding and no prompt chunks.
  StepLoad dec;
  dec.decode_seqs = 64;
  dec.decode_context = 4096 + 512 / 2;
  const StepTime d = step_time(m, s.device, s.serving.disagg.decode, c, dec);
  CHECK(p.tpot_s == Approx(d.step_s));
  // Faster per token than the same TP 8 replica serving prompts in its own steps.
  REQUIRE(e.serving.has_performance);
  CHECK(p.tpot_s < e.serving.performance.tpot_s);
  CHECK(p.decode_requests_per_s == Approx(64 / (511 * d.step_s)));
  // Prefill instance: steps of the 8,192-token budget, two prompts each.
  StepLoad pre;
  pre.prefill_tokens = 8192;
  pre.prefill_attended = 2048;
  pre.prefill_seqs = 2;
  const StepTime ps = step_time(m, s.device, s.serving.disagg.prefill, c, pre);
  CHECK(p.prefill_requests_per_s_max == Approx(2 / ps.step_s));
  CHECK(p.prefill_service_s == Approx(ps.step_s));  // one step holds the whole prompt
  CHECK(p.queue_s == Approx(0.7 * ps.step_s / (2 * 0.3)));
  // KV transfer: 2 × 80 layers × 8 KV heads × 128 × 2 bytes per token × 4,096 tokens over 50 GB/s.
  const double kv = 2.0 * 80 * 8 * 128 * 2 * 4096;
  CHECK(p.kv_transfer_bytes == Approx(kv));
  CHECK(p.kv_transfer_s == Approx(kv / 50e9));
  CHECK(p.ttft_s == Approx(p.queue_s + p.prefill_service_s + p.kv_transfer_s + c.engine.request_overhead_s));
  CHECK(p.e2e_s == Approx(p.ttft_s + 511 * p.tpot_s));
  // Balance: x prefill instances per decode instance run at 70% of their capacity.
  CHECK(p.prefill_per_decode * 0.7 * p.prefill_requests_per_s_max == Approx(p.decode_requests_per_s));
  CHECK(p.devices_per_decode_instance == Approx(8 + 4 * p.prefill_per_decode));
  CHECK(p.output_tokens_per_s_per_device == Approx(p.decode_requests_per_s * 512 / p.devices_per_decode_instance));
  CHECK(p.meets_slo);
  // The result JSON.
  const auto j = result_to_json(s, e, {});
  const auto& dj = j["serving"]["disaggregated"];
  for (const char* key : {"ttft_s", "tpot_s", "kv_transfer_s", "prefill_per_decode", "output_tokens_per_s_per_device",
                          "tokens_per_s_per_user", "meets_slo", "prefill_layout", "decode_layout"}) {
    INFO(key);
    CHECK(dj.contains(key));
  }
  CHECK(dj["decode_layout"]["devices"] == 8);
  CHECK(dj["prefill_per_decode"].get<double>() == Approx(p.prefill_per_decode));
}

TEST_CASE("a higher prefill load needs fewer prefill instances and queues longer", "[serve][disagg]") {
  Scenario s = testutil::scenario(kDisagg);
  const DisaggPerformance a = evaluate_disaggregated(s.model, s.device, s.serving.disagg, serve_context(s), 50e9, 0.5);
  const DisaggPerformance b = evaluate_disaggregated(s.model, s.device, s.serving.disagg, serve_context(s), 50e9, 0.9);
  CHECK(b.prefill_per_decode == Approx(a.prefill_per_decode * 0.5 / 0.9));
  CHECK(b.queue_s > a.queue_s);
  CHECK(b.output_tokens_per_s_per_device > a.output_tokens_per_s_per_device);
  CHECK(b.tpot_s == a.tpot_s);
}

TEST_CASE("serving.disaggregation: bad input is refused naming the field", "[serve][disagg]") {
  const std::string w = R"("workload": {"input_tokens": 1024, "output_tokens": 128, "concurrency": 8})";
  CHECK(errors(R"({"model": "llama-3-70b", "device": "h100", "serving": {)" + w +
               R"(, "disaggregation": {"prefill": {"tp": 8}}}})")
            .find("serving.disaggregation.decode: is required") != std::string::npos);
  CHECK(errors(R"({"model": "llama-3-70b", "device": "h100", "serving": {)" + w +
               R"(, "disaggregation": {"prefill": {"tp": 3}, "decode": {"tp": 8}}}})")
            .find("serving.disaggregation.prefill.tp: must divide the 64 attention heads") != std::string::npos);
  CHECK(errors(R"({"model": "llama-3-70b", "device": "h100", "serving": {)" + w +
               R"(, "disaggregation": {"prefill": {"tp": 8}, "decode": {"tp": 8}, "prefill_utilisation": 1.5}}})")
            .find("serving.disaggregation.prefill_utilisation") != std::string::npos);
  CHECK(errors(R"({"model": "llama-3-70b", "device": "h100", "serving": {"disaggregation": {"prefill": {"tp": 8}, "decode": {"tp": 8}}}})")
            .find("serving.disaggregation: needs serving.workload") != std::string::npos);
  CHECK(errors(R"({"model": "llama-3-70b", "device": "h100", "serving": {"workload": {"input_tokens": 1024, "output_tokens": 128,
      "requests_per_s": 2}, "disaggregation": {"prefill": {"tp": 8}, "decode": {"tp": 8}}}})")
            .find("serving.disaggregation: takes serving.workload.concurrency") != std::string::npos);
  CHECK(errors(R"({"model": "llama-3-70b", "device": "h100", "serving": {)" + w +
               R"(, "disaggregation": {"prefill": {"tp": 8}, "decode": {"tp": 1}}}})")
            .find("serving.disaggregation.decode: leaves no room") != std::string::npos);
  CHECK(errors(R"({"model": "llama-3-70b", "device": "h100", "serving": {)" + w +
               R"(, "disaggregation": {"prefill": {"tp": 8}, "decode": {"tp": 8}, "ratio": 2}}})")
            .find("serving.disaggregation") != std::string::npos);
}

TEST_CASE("disaggregated pools on different chips: prefill on its chip, decode on the scenario's", "[serve][disagg]") {
  const std::string mixed = R"({"model": "llama-3-70b", "device": "h100", "serving": {"layout": {"tp": 8},
    "workload": {"input_tokens": 4096, "output_tokens": 512, "concurrency": 64},
    "disaggregation": {"prefill": {"tp": 4, "device": "b200"}, "decode": {"tp": 8}}}})";
  const Scenario same = testutil::scenario(kDisagg), other = testutil::scenario(mixed);
  REQUIRE(other.serving.disagg_prefill_device_given);
  CHECK(other.serving.disagg_prefill_device.id == "b200");
  const DisaggPerformance a = evaluate(same, false).serving.disaggregated;
  const DisaggPerformance b = evaluate(other, false).serving.disaggregated;
  // The prefill step is the B200's own (as if the whole scenario ran on it); decode stays the H100's.
  const Device& b200 = *bundled_catalog().find_device("b200");
  const DisaggPerformance on_b200 =
      evaluate_disaggregated(other.model, b200, other.serving.disagg, serve_context(other), other.serving.kv_link_bytes_per_s,
                             other.serving.prefill_utilisation);
  CHECK(b.prefill.step_s == Approx(on_b200.prefill.step_s));
  CHECK(b.prefill.step_s < a.prefill.step_s);  // more FLOP/s for the compute-bound prompts
  CHECK(b.decode.step_s == Approx(a.decode.step_s));
  CHECK(b.tpot_s == Approx(a.tpot_s));
  CHECK(b.ttft_s < a.ttft_s);
  CHECK(b.prefill_per_decode < a.prefill_per_decode);  // fewer, faster prefill instances
  const auto j = result_to_json(other, evaluate(other, false));
  CHECK(j["serving"]["disaggregated"]["prefill_device"] == "b200");
  CHECK(j["serving"]["disaggregated"]["decode_device"] == "h100");
  // An unknown chip and a device on the decode pool are refused, naming the field.
  std::string bad = mixed;
  bad.replace(bad.find("b200"), 4, "z900");
  CHECK(errors(bad).find("serving.disaggregation.prefill.device: must be a device id") != std::string::npos);
  std::string on_decode = mixed;
  on_decode.replace(on_decode.find(R"("decode": {"tp": 8})"), 19, R"("decode": {"tp": 8, "device": "b200"})");
  CHECK(errors(on_decode).find("serving.disaggregation.decode.device") != std::string::npos);
}
