// `sizer validate` of the published serving runs (docs/validation/serving-runs.json,
// docs/serving-validation.md): strict parsing of the runs file, the workload conventions
// (saturate → max_concurrency_kv, static batches), refused runs kept as "not expressible", and a
// ratchet that keeps the serving model's error from getting worse.
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "sizer/planners/catalog.h"
#include "sizer/contract/scenario_parse.h"
#include "sizer/planners/serve_scenario.h"
#include "sizer/validation/serve_validation.h"

namespace {

std::string bundled_serving_runs() {
  std::ifstream f(std::string(SIZER_SOURCE_DIR) + "/docs/validation/serving-runs.json");
  REQUIRE(f);
  std::stringstream text;
  text << f.rdbuf();
  return text.str();
}

const char* const kScenario =
    R"({"model": "llama-3-70b", "device": "h100", "serving": {"weight_precision": "fp8", "kv_precision": "fp8",
        "layout": {"tp": 4}, "workload": WORKLOAD}})";

std::string scenario(const std::string& workload) {
  std::string s = kScenario;
  return s.replace(s.find("WORKLOAD"), 8, workload);
}

// A one-run file; `run_extra` is spliced into the run object, `workload` into its scenario.
std::string one_run(const std::string& workload, const std::string& run_extra = "",
                    const std::string& observed = R"({"output_tokens_per_s_per_device": 1000})") {
  return R"({"schema": "sizer.serving_validation.v1", "runs": [{"id": "r1", "name": "R1", "source": "test",
      "split": "calibrate", "group": "g", "note": "n", "scenario": )" +
         scenario(workload) + R"(, "observed": )" + observed + run_extra + "}]}";
}

std::string issues_text(const std::vector<sizer::Issue>& issues) {
  std::string s;
  for (const auto& i : issues) s += i.path + ": " + i.message + "\n";
  return s;
}

const std::string kSaturate = R"({"input_tokens": 1000, "output_tokens": 1000, "saturate": true, "num_requests": 3000})";

}  // namespace

TEST_CASE("serving validation: a well-formed run parses and compares", "[serve_validation]") {
  std::vector<sizer::Issue> issues;
  const auto v = sizer::validate_serving_runs(one_run(kSaturate), sizer::bundled_catalog(), &issues);
  INFO(issues_text(issues));
  REQUIRE(issues.empty());
  REQUIRE(v.rows.size() == 1);
  CHECK(v.rows[0].ok());
  CHECK(v.rows[0].in_sample);
  CHECK(v.rows[0].error == Approx(v.rows[0].predicted / 1000 - 1));
  REQUIRE(v.summaries.size() == 1);
  CHECK(v.summaries[0].calibrate_runs == 1);
  CHECK(v.summaries[0].holdout_runs == 0);
}

TEST_CASE("serving validation: structural errors name the field", "[serve_validation]") {
  struct Case {
    std::string text, path, words;
  };
  const std::string wl = R"({"input_tokens": 100, "output_tokens": 100, "concurrency": 4})";
  const Case cases[] = {
      {one_run(wl, R"(, "extra": 1)"), "runs[0].extra", "unknown field"},
      {R"({"schema": "sizer.serving_validation.v1", "runs": [{"id": "r1", "name": "R1", "source": "s", "split": "holdout",
          "group": "g", "scenario": )" + scenario(wl) + "}]}",
       "runs[0].observed", "is required"},
      {one_run(wl, "", "{}"), "runs[0].observed", "needs at least one of"},
      {one_run(wl, "", R"({"tokens_per_s": 5})"), "runs[0].observed.tokens_per_s", "unknown metric"},
      {one_run(wl, "", R"({"tpot_s": -1})"), "runs[0].observed.tpot_s", ""},
      {[&] {
         std::string t = one_run(wl);
         return t.replace(t.find("\"calibrate\""), 11, "\"train\"");
       }(),
       "runs[0].split", "must be calibrate or holdout"},
      {[&] {
         std::string t = one_run(wl);
         return t.replace(t.find("\"group\": \"g\","), 13, "");
       }(),
       "runs[0].group", "is required"},
      {[&] {
         std::string t = one_run(wl);
         return t.replace(t.find("sizer.serving_validation.v1"), 27, "sizer.serving_validation.v9");
       }(),
       "schema", "must be sizer.serving_validation.v1"},
      {one_run(R"({"input_tokens": 100, "output_tokens": 100, "saturate": true, "concurrency": 4})"),
       "runs[0].scenario.serving.workload.saturate", "takes neither concurrency"},
      {one_run(R"({"input_tokens": 100, "output_tokens": 100, "requests_per_s": 2, "batching": "static"})"),
       "runs[0].scenario.serving.workload.batching", "static needs concurrency"},
      {one_run(R"({"input_tokens": 100, "output_tokens": 100, "concurrency": 2, "batching": "dynamic"})"),
       "runs[0].scenario.serving.workload.batching", "must be static or continuous"},
      {one_run(R"({"input_tokens": 100, "output_tokens": 100, "concurrency": 2, "num_requests": 0.5})"),
       "runs[0].scenario.serving.workload.num_requests", ""},
      {one_run(wl, R"(, "lengths_assumed": "yes")"), "runs[0].lengths_assumed", "must be"},
      {one_run(R"({"input_tokens": 100, "output_tokens": 100})"), "runs[0].scenario.serving.workload",
       "needs concurrency, requests_per_s or saturate"},
      {R"({"schema": "sizer.serving_validation.v1", "runs": [{"id": "r1", "name": "R1", "source": "s", "split": "holdout",
          "group": "g", "scenario": {"model": "llama-3-70b"}, "observed": {"tpot_s": 0.01}}]})",
       "runs[0].scenario.serving", "is required"},
  };
  for (const Case& c : cases) {
    std::vector<sizer::Issue> issues;
    sizer::validate_serving_runs(c.text, sizer::bundled_catalog(), &issues);
    INFO(c.path << "\n" << issues_text(issues));
    bool found = false;
    for (const auto& i : issues) found = found || (i.path == c.path && i.message.find(c.words) != std::string::npos);
    CHECK(found);
  }
  // A repeated id.
  std::string two = one_run(wl);
  const std::string run = two.substr(two.find("{\"id\""), two.rfind("]") - two.find("{\"id\""));
  two.insert(two.rfind("]"), ", " + run);
  std::vector<sizer::Issue> issues;
  sizer::validate_serving_runs(two, sizer::bundled_catalog(), &issues);
  INFO(issues_text(issues));
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].path == "runs[1].id");
}

TEST_CASE("serving validation: saturated runs are simulated bursts; without a request count, the steady state at what fits",
          "[serve_validation]") {
  std::vector<sizer::Issue> issues;
  const auto v = sizer::validate_serving_runs(one_run(kSaturate), sizer::bundled_catalog(), &issues);
  REQUIRE(issues.empty());
  REQUIRE(v.rows.size() == 1);
  // The same scenario as a plain v1 scenario: its capacity, then the burst of the 3,000 requests.
  const auto p = sizer::parse_scenario(scenario(R"({"input_tokens": 1000, "output_tokens": 1000, "concurrency": 1})"),
                                       sizer::bundled_catalog());
  REQUIRE(p.ok());
  const sizer::Scenario& s = p.scenario;
  sizer::serve::ServeContext c = sizer::serve::serve_context(s);
  const double mc = sizer::serve::evaluate_serving(s.model, s.device, s.serving.layout, c).max_concurrency_kv;
  REQUIRE(mc > 8);  // a saturated replica holds many requests
  REQUIRE(mc < 3000);
  const auto b = sizer::serve::simulate_burst(s.model, s.device, s.serving.layout, c, 3000, std::floor(mc));
  REQUIRE(b.valid());
  CHECK(b.max_running == Approx(std::floor(mc)));
  CHECK(v.rows[0].concurrency == Approx(std::floor(mc)));
  CHECK(v.rows[0].predicted == Approx(b.output_tokens_per_s_per_device));
  CHECK(v.rows[0].convention.find("burst of 3,000 requests") != std::string::npos);
  // Without num_requests there is no burst to simulate: the steady state at max_concurrency_kv.
  std::string open = one_run(kSaturate);
  open.replace(open.find(", \"num_requests\": 3000"), 22, "");
  const auto st = sizer::validate_serving_runs(open, sizer::bundled_catalog(), &issues);
  REQUIRE(issues.empty());
  REQUIRE(st.rows.size() == 1);
  c.workload.concurrency = std::floor(mc);
  const auto at_max = sizer::serve::evaluate_serving(s.model, s.device, s.serving.layout, c);
  CHECK(st.rows[0].predicted == Approx(at_max.output_tokens_per_s_per_device));
  CHECK(st.rows[0].convention.find("max_concurrency_kv") != std::string::npos);
  // A benchmark of fewer requests than fit runs them all at once.
  std::string few = one_run(kSaturate);
  few.replace(few.find("\"num_requests\": 3000"), 20, "\"num_requests\": 5");
  const auto capped = sizer::validate_serving_runs(few, sizer::bundled_catalog(), &issues);
  REQUIRE(issues.empty());
  REQUIRE(capped.rows.size() == 1);
  CHECK(capped.rows[0].concurrency == Approx(5));
  CHECK(capped.rows[0].convention.find("(all)") != std::string::npos);
  // A static batch is a burst of its size with all of it running.
  const auto sb = sizer::validate_serving_runs(
      one_run(R"({"input_tokens": 32, "output_tokens": 128, "concurrency": 8, "batching": "static"})", "",
              R"({"output_tokens_per_s_per_device": 100, "e2e_s": 2})"),
      sizer::bundled_catalog(), &issues);
  REQUIRE(issues.empty());
  REQUIRE(sb.rows.size() == 2);
  CHECK(sb.rows[0].metric == "output_tokens_per_s_per_device");
  CHECK(sb.rows[1].metric == "e2e_s");
  CHECK(sb.rows[0].concurrency == Approx(8));
  CHECK(sb.rows[0].convention.find("static batch of 8, simulated") != std::string::npos);
}

TEST_CASE("serving validation: settings trtllm-bench applies its max batch size and max num tokens heuristic",
          "[serve_validation]") {
  // Llama 3 70B FP8 on 4 H100s (TP 4), 1000/1000: tuning.py by hand. Weights 70.55 GB; cache
  // 0.95 × (4 × 80 GB − 70.55 GB) = 236.98 GB; KV per token over the TP group 2 × 80 layers × 8 KV
  // heads × 128 × 1 byte = 163,840 B, × 2,000 tokens = 327.68 MB per request → 723.2 requests;
  // max batch 128 × ⌈723.2 ÷ 128⌉ = 768; tokens 723.2 × 2 = 1,446 → 2,048.
  std::vector<sizer::Issue> issues;
  const std::string wl = R"({"input_tokens": 1000, "output_tokens": 1000, "saturate": true, "num_requests": 3000, "settings": "trtllm-bench"})";
  const auto v = sizer::validate_serving_runs(one_run(wl), sizer::bundled_catalog(), &issues);
  INFO(issues_text(issues));
  REQUIRE(issues.empty());
  REQUIRE(v.rows.size() == 1);
  CHECK(v.rows[0].convention.find("trtllm-bench settings: max batch 768, max tokens 2,048") != std::string::npos);
  std::string bad = wl;
  bad.replace(bad.find("trtllm-bench"), 12, "vllm");
  sizer::validate_serving_runs(one_run(bad), sizer::bundled_catalog(), &issues);
  bool named = false;
  for (const auto& i : issues) named = named || i.path == "runs[0].scenario.serving.workload.settings";
  CHECK(named);
}

TEST_CASE("serving validation: a run the parser refuses is kept as not expressible", "[serve_validation]") {
  // Llama 3.1 70B FP8 on one H100: weights + activations + reserve exceed usable HBM.
  std::string text = one_run(kSaturate);
  text.replace(text.find("\"tp\": 4"), 7, "\"tp\": 1");
  std::vector<sizer::Issue> issues;
  const auto v = sizer::validate_serving_runs(text, sizer::bundled_catalog(), &issues);
  INFO(issues_text(issues));
  REQUIRE(issues.empty());
  REQUIRE(v.rows.size() == 1);
  CHECK(v.rows[0].status == "not_expressible");
  CHECK(v.rows[0].message.find("leaves no room for one request's KV cache") != std::string::npos);
  REQUIRE(v.summaries.size() == 1);
  CHECK(v.summaries[0].runs == 0);
  CHECK(v.summaries[0].not_predicted == 1);
}

TEST_CASE("serving validation: requests_per_s is per replica × replicas", "[serve_validation]") {
  std::vector<sizer::Issue> issues;
  const auto one = sizer::validate_serving_runs(
      one_run(R"({"input_tokens": 400, "output_tokens": 200, "requests_per_s": 2})", "", R"({"requests_per_s": 2})"),
      sizer::bundled_catalog(), &issues);
  const auto two = sizer::validate_serving_runs(
      one_run(R"({"input_tokens": 400, "output_tokens": 200, "requests_per_s": 4, "replicas": 2})", "",
              R"({"requests_per_s": 4})"),
      sizer::bundled_catalog(), &issues);
  INFO(issues_text(issues));
  REQUIRE(issues.empty());
  REQUIRE(one.rows.size() == 1);
  REQUIRE(two.rows.size() == 1);
  CHECK(one.rows[0].predicted == Approx(2).epsilon(1e-6));  // served in full below capacity
  CHECK(two.rows[0].predicted == Approx(2 * one.rows[0].predicted));
}

// The ratchet (a test keeps the error from getting worse). The mean absolute
// error of the serving model on docs/validation/serving-runs.json, per metric, on the calibrate and
// the holdout runs separately (sizer validate docs/validation/serving-runs.json;
// docs/serving-validation.md has the table). Each may only go down (half a percentage point of
// slack for rounding-level changes); when a change lowers one, lower its number here.
// History: uncalibrated (2026-12-01, first session): holdout 41.7% on output tokens/s per device,
// 76.8% on tokens/s per user. Then (same day): saturated and static runs simulated as bursts,
// TensorRT-LLM's KV reservation and trtllm-bench's settings, the step residual in TTFT, and five
// engine values fitted on the calibrate rows only (scripts/fit-serving.py): holdout 14.4% and 12.3%.
// Fifth session: the H200 with the H100's fitted GEMM efficiency (same die) and the pre-XQA
// TensorRT-LLM rows with engine.kv_reads_per_kv_head 4.36 (fitted on their one calibrate row),
// gpt-oss on Hopper with BF16 activations (as TensorRT-LLM's README states), sliding windows and
// mixed-input GEMMs (fitted on the two gpt-oss H200 calibrate rows): holdout 9.7% and 9.0%, no run
// worse than 50%.
TEST_CASE("serving validation: the error on the published runs may only go down", "[serve_validation]") {
  std::vector<sizer::Issue> issues;
  const auto v = sizer::validate_serving_runs(bundled_serving_runs(), sizer::bundled_catalog(), &issues);
  INFO(issues_text(issues));
  REQUIRE(issues.empty());
  struct Limit {
    const char* metric;
    int calibrate_runs, holdout_runs;
    double calibrate_mae, holdout_mae;  // measured 2026-12-01
  };
  const Limit limits[] = {
      {"output_tokens_per_s_per_device", 26, 47, 0.1362, 0.0972},
      {"tokens_per_s_per_user", 4, 12, 0.1232, 0.0905},
      {"tpot_s", 4, 12, 0.1500, 0.0877},
      {"ttft_s", 5, 13, 0.0689, 0.1898},
      {"e2e_s", 3, 6, 0.0516, 0.0803},
      {"requests_per_s", 4, 12, 0.0927, 0.0745},
  };
  constexpr double kSlack = 0.005;
  int not_predicted = 0;
  for (const auto& s : v.summaries) not_predicted += s.not_predicted;
  CHECK(not_predicted <= 1);  // only the 70B FP8 run on one H100 is refused today
  for (const Limit& l : limits) {
    const sizer::ServeMetricSummary* s = nullptr;
    for (const auto& m : v.summaries) {
      if (m.metric == l.metric) s = &m;
    }
    INFO(l.metric);
    REQUIRE(s);
    INFO("calibrate MAE " << s->calibrate_mae << " (" << s->calibrate_runs << " runs), holdout MAE "
                          << s->holdout_mae << " (" << s->holdout_runs << " runs)");
    CHECK(s->calibrate_runs >= l.calibrate_runs);  // runs may become expressible, never fewer
    CHECK(s->holdout_runs >= l.holdout_runs);
    CHECK(s->calibrate_mae <= l.calibrate_mae + kSlack);
    CHECK(s->holdout_mae <= l.holdout_mae + kSlack);
    // No run worse than 50%, in either split (45.7% at most today).
    INFO("worst " << s->worst << " (" << s->worst_id << ")");
    CHECK(s->worst <= 0.50);
  }
}
