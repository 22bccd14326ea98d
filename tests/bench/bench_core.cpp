// Benchmark: full-scenario evaluations per second (numbers only, and with working), parse + JSON
// round trips per second, and the device comparison table. Reports numbers; asserts nothing.
//   ./build/tests/bench/sizer_bench [seconds-per-case]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sizer/planners/serve_scenario.h"
#include "sizer/sizer.h"

namespace {

template <typename F>
void measure(const char* name, double seconds, F&& f) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  long n = 0;
  double sink = 0;
  while (true) {
    for (int i = 0; i < 64; ++i) sink += f();
    n += 64;
    const double elapsed = std::chrono::duration<double>(clock::now() - start).count();
    if (elapsed >= seconds) {
      std::printf("%-44s %12.0f per second  (%.2f µs each)\n", name, n / elapsed, 1e6 * elapsed / n);
      break;
    }
  }
  if (sink == 42.4242) std::puts("");  // keep the work observable
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
  const sizer::Catalog& c = sizer::bundled_catalog();
  const char* text = R"({"model": "moe-1t", "device": "gb200", "serving": {"batch": 512, "context": 8192}})";
  const sizer::ParsedScenario p = sizer::parse_scenario(text, c);
  if (!p.ok()) return 1;
  std::printf("sizer %s benchmark (%.1f s per case)\n", sizer::kVersion, seconds);
  measure("evaluate (numbers only)", seconds, [&] { return sizer::evaluate(p.scenario, false).serving.decode_step_s; });
  measure("evaluate (numbers, no intervals)", seconds,
          [&] { return sizer::evaluate(p.scenario, false, false).serving.decode_step_s; });
  // Intervals (docs/operations.md) redraw on every edit; with predicted goodput every draw sizes its cluster.
  const auto pred = sizer::parse_scenario(
      R"({"model": "llama-3.1-405b", "device": "h100", "training": {"goodput": "predicted", "days": 54,
          "layout": {"tp": 8, "pp": 16, "dp": 128, "global_batch": 2048, "seq_len": 8192}}})", c);
  if (pred.ok()) {
    measure("evaluate, predicted goodput + intervals", seconds,
            [&] { return sizer::evaluate(pred.scenario, false).intervals.cluster_devices.p50; });
  }
  measure("evaluate (with working)", seconds, [&] { return sizer::evaluate(p.scenario, true).serving.decode_step_s; });
  measure("parse + evaluate + result JSON text", seconds, [&] {
    const auto q = sizer::parse_scenario(text, c);
    return static_cast<double>(sizer::result_to_json(q.scenario, sizer::evaluate(q.scenario)).dump().size());
  });
  measure("compare all devices × bf16,fp8 × 3 MFU", seconds, [&] {
    return static_cast<double>(
        sizer::compare_devices(sizer::default_scenario(c), c, {sizer::Precision::bf16, sizer::Precision::fp8}).size());
  });
  // Layout model and search (issue: ≥ 1 million layout evaluations per second natively).
  const auto plan = sizer::parse_scenario(
      R"({"model": "dense-1t", "device": "gb200", "training": {"layout": {"tp": 8, "pp": 16, "dp": 32, "global_batch": 4096},
          "search": {"devices": 4096, "top": 10}}})", c);
  if (!plan.ok()) {
    std::fprintf(stderr, "bench: the layout scenario does not parse: %s\n", sizer::format_issues(plan.issues).c_str());
    return 1;
  }
  const sizer::PlanLayout layout = sizer::plan_layout(plan.scenario);
  const sizer::PlanContext ctx = sizer::plan_context(plan.scenario);
  measure("evaluate_layout", seconds, [&] {
    return sizer::evaluate_layout(plan.scenario.model, plan.scenario.device, layout, ctx).step_s;
  });
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  const sizer::SearchResult r = sizer::search_layouts(plan.scenario);
  const double dt = std::chrono::duration<double>(clock::now() - t0).count();
  std::printf("%-44s %12.0f layouts in %.2f ms = %.2fM layouts per second\n", "search: dense 1T on 4,096 GB200",
              r.layouts_evaluated, dt * 1e3, r.layouts_evaluated / dt / 1e6);
  auto wide = plan.scenario;
  wide.training.search.devices_min = 256;
  wide.training.search.devices_max = 32768;
  wide.training.search.allow_cp = true;
  const auto t1 = clock::now();
  const sizer::SearchResult w = sizer::search_layouts(wide);
  const double dt1 = std::chrono::duration<double>(clock::now() - t1).count();
  std::printf("%-44s %12.0f layouts in %.2f ms = %.2fM layouts per second\n", "search: 256–32,768 devices, CP allowed",
              w.layouts_evaluated, dt1 * 1e3, w.layouts_evaluated / dt1 / 1e6);
  // The MoE search also tries EP folded into the TP × CP × DP ranks (expert TP 1, TP > 1).
  for (const bool folding : {false, true}) {
    const auto moe = sizer::parse_scenario(
        R"({"model": "moe-1t", "device": "gb200", "training": {"layout": {"tp": 4, "pp": 8, "dp": 16, "ep": 8,
            "global_batch": 4096}, "search": {"devices": 4096, "top": 10}}})", c);
    if (!moe.ok()) {
      std::fprintf(stderr, "bench: the MoE search scenario does not parse: %s\n", sizer::format_issues(moe.issues).c_str());
      return 1;
    }
    auto ms = moe.scenario;
    ms.training.search.allow_ep_folding = folding;
    const auto t2 = clock::now();
    const sizer::SearchResult mr = sizer::search_layouts(ms);
    const double dt2 = std::chrono::duration<double>(clock::now() - t2).count();
    std::printf("%-44s %12.0f layouts in %.2f ms = %.2fM layouts per second\n",
                folding ? "search: 1T MoE on 4,096 GB200, EP folding" : "search: 1T MoE on 4,096 GB200, no folding",
                mr.layouts_evaluated, dt2 * 1e3, mr.layouts_evaluated / dt2 / 1e6);
  }
  // Serving performance model (docs/serving.md: serve-search wants ≥ 1 million configurations per second).
  const auto serve = sizer::parse_scenario(
      R"({"model": "deepseek-v3", "device": "h200", "serving": {"layout": {"tp": 8, "ep": 8},
          "workload": {"input_tokens": 1024, "output_tokens": 1024, "concurrency": 64}}})", c);
  if (!serve.ok()) {
    std::fprintf(stderr, "bench: the serving scenario does not parse: %s\n", sizer::format_issues(serve.issues).c_str());
    return 1;
  }
  const sizer::serve::ServeContext sc = sizer::serve::serve_context(serve.scenario);
  const sizer::Model& sm = serve.scenario.model;
  const sizer::Device& sd = serve.scenario.device;
  const sizer::serve::ServeLayout sl = serve.scenario.serving.layout;
  sizer::serve::StepLoad load;
  load.decode_seqs = 64;
  load.decode_context = 1536;
  measure("serve::step_time (one decode step)", seconds, [&] { return sizer::serve::step_time(sm, sd, sl, sc, load).step_s; });
  measure("serve::evaluate_serving (steady state)", seconds,
          [&] { return sizer::serve::evaluate_serving(sm, sd, sl, sc).tpot_s; });
  // serve-search for the 1T MoE on one chip type (the serving search's own case: < 100 ms in the
  // browser), at the scenario's precisions and with all of them listed.
  for (const char* extra : {"", R"(, "search": {"weight_precisions": ["bf16", "fp8", "fp4"], "kv_precisions": ["bf16", "fp8"]})"}) {
    const auto ss = sizer::parse_scenario(std::string(R"({"model": "moe-1t", "device": "gb200", "serving": {
        "workload": {"input_tokens": 1024, "output_tokens": 1024, "requests_per_s": 40},
        "slo": {"ttft_s": 2, "tpot_s": 0.05})") + extra + "}}", c);
    if (!ss.ok()) {
      std::fprintf(stderr, "bench: the serve-search scenario does not parse: %s\n", sizer::format_issues(ss.issues).c_str());
      return 1;
    }
    const auto t2 = clock::now();
    const sizer::serve::ServeSearchResult sr = sizer::serve::search_serving(ss.scenario);
    const double dt2 = std::chrono::duration<double>(clock::now() - t2).count();
    std::printf("%-44s %12.0f configs in %.2f ms = %.2fM configs per second\n",
                *extra ? "serve-search: 1T MoE on GB200, 6 precisions" : "serve-search: 1T MoE on GB200",
                sr.configs_evaluated, dt2 * 1e3, sr.configs_evaluated / dt2 / 1e6);
  }
  return 0;
}
