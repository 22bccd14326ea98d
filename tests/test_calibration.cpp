// Calibration (sizer/validation/calibration.h) and software stacks (training.stack): fits recover a known
// parameter, leave-one-source-out never sees the source it predicts, stacks parse and act.
#include <catch2/catch.hpp>
#include <cmath>

#include "scenario_util.h"
#include "validation_util.h"
#include "sizer/contract/catalog_load.h"
#include "sizer/validation/calibration.h"
#include "sizer/planners/planner.h"
#include "sizer/contract/result_json.h"

using namespace sizer;

namespace {

std::vector<ValidationRow> published_runs() {
  return testutil::published_runs({"runs.json", "runs-extended.json", "runs-chips.json", "runs-moe.json"});
}

// Rows whose "published" value is the model's own prediction with the chip's GEMM efficiency set to
// `gemm`: a fit started elsewhere must find `gemm` again.
std::vector<ValidationRow> synthetic(const std::vector<ValidationRow>& rows, const std::string& chip, double gemm) {
  std::vector<ValidationRow> out;
  for (ValidationRow r : rows) {
    if (r.scenario.device.id != chip) continue;
    Device d = r.scenario.device;
    d.gemm_efficiency = gemm;
    reevaluate(&r, d);
    r.observed = r.predicted;
    reevaluate(&r, r.scenario.device);
    r.in_sample = true;
    out.push_back(r);
  }
  return out;
}

}  // namespace

TEST_CASE("a fit recovers a chip's GEMM efficiency from runs it generated", "[calibration]") {
  std::vector<ValidationRow> rows = synthetic(published_runs(), "a100", 0.61);
  REQUIRE(rows.size() >= 5);
  REQUIRE(mean_abs_error(rows) > 0.05);  // the bundled value is far from 0.61
  const FitResult f = fit_device(&rows, "a100", {"gemm"}, [](const ValidationRow& r) { return r.in_sample; });
  REQUIRE(f.values.size() == 1);
  CHECK(f.values[0].second == Approx(0.61).epsilon(0.01));
  CHECK(f.mae_after < 0.005);
  CHECK(mean_abs_error(rows) < 0.005);  // rows were re-evaluated with the fitted value
}

TEST_CASE("a fit only moves parameters of its kind, within their physical range", "[calibration]") {
  std::vector<ValidationRow> rows = synthetic(published_runs(), "a100", 0.61);
  for (ValidationRow& r : rows) r.observed *= 10;  // unreachably fast: the fit hits its bound
  const FitResult f = fit_device(&rows, "a100", {"gemm", "stack.memory_bound_scale"},
                                 [](const ValidationRow&) { return true; });
  REQUIRE(f.values.size() == 1);  // the stack parameter is not a chip parameter
  CHECK(f.values[0].second <= 0.95);
  CHECK_FALSE(is_fittable("peak"));
  CHECK(is_fittable("stack.layer_overhead_s"));
}

TEST_CASE("leave-one-source-out never fits on the source it predicts", "[calibration]") {
  const std::vector<ValidationRow> rows = published_runs();
  const std::vector<std::string> params = {"gemm"};
  const std::vector<LosoRow> base = leave_one_source_out(rows, params, {});
  REQUIRE(base.size() == rows.size());
  // Doubling one publication's measured values moves only that publication's errors, and exactly
  // as a fixed prediction would: (1 + e) ÷ 2 − 1.
  std::vector<ValidationRow> changed = rows;
  const std::string source = "korthikanti-2022";
  for (ValidationRow& r : changed) {
    if (r.source_key == source) r.observed *= 2, r.error = r.predicted / r.observed - 1;
  }
  const std::vector<LosoRow> after = leave_one_source_out(changed, params, {});
  int seen = 0;
  for (std::size_t i = 0; i < base.size(); ++i) {
    REQUIRE(after[i].id == base[i].id);
    if (base[i].source_key == source) {
      ++seen;
      CHECK(after[i].error == Approx((1 + base[i].error) / 2 - 1).margin(1e-9));
    }
  }
  CHECK(seen == 8);
}

TEST_CASE("software stacks: ids, overrides, refusals naming the field", "[calibration][parse]") {
  const Scenario mega = testutil::scenario(R"({"model": "llama-3-70b", "device": "h100"})");
  CHECK(mega.training.stack.id == "megatron");
  const Scenario pt = testutil::scenario(R"({"model": "llama-3-70b", "device": "h100", "training": {"stack": "pytorch"}})");
  CHECK(pt.training.stack.id == "pytorch");
  const Scenario custom = testutil::scenario(
      R"({"model": "llama-3-70b", "device": "h100", "training": {"stack": {"id": "jax", "memory_bound_scale": 2.5, "layer_overhead_s": 1e-5}}})");
  CHECK(custom.training.stack.id == "jax");
  CHECK(custom.training.stack.memory_bound_scale == 2.5);
  CHECK(custom.training.stack.layer_overhead_s == 1e-5);
  // Round trip through the result's scenario echo.
  const auto again = parse_scenario(scenario_to_json(custom).dump(), bundled_catalog());
  REQUIRE(again.ok());
  CHECK(again.scenario.training.stack.memory_bound_scale == 2.5);

  auto refused = [](const std::string& text, const std::string& path) {
    const auto p = parse_scenario(text, bundled_catalog());
    REQUIRE_FALSE(p.ok());
    bool named = false;
    for (const Issue& i : p.issues) named = named || i.path == path;
    INFO(format_issues(p.issues));
    CHECK(named);
  };
  refused(R"({"training": {"stack": "tensorflow"}})", "training.stack");
  refused(R"({"training": {"stack": {"id": "deepspeed"}}})", "training.stack.id");
  refused(R"({"training": {"stack": {"memory_bound_scale": 2}}})", "training.stack.id");
  refused(R"({"training": {"stack": {"id": "pytorch", "memory_bound_scale": -1}}})", "training.stack.memory_bound_scale");
  refused(R"({"training": {"stack": {"id": "pytorch", "layer_overhead_s": 5}}})", "training.stack.layer_overhead_s");
  refused(R"({"training": {"stack": 3}})", "training.stack");
  refused(R"({"training": {"stack": {"id": "pytorch_eager", "cast_scale": 0}}})", "training.stack.cast_scale");
  // The message lists every bundled stack.
  const auto bad = parse_scenario(R"({"training": {"stack": "tensorflow"}})", bundled_catalog());
  CHECK(format_issues(bad.issues).find("megatron, pytorch, pytorch_eager or jax") != std::string::npos);
}

TEST_CASE("pytorch_eager: PyTorch without torch.compile moves more bytes, casts included", "[calibration][layout]") {
  const std::string shape = R"({"model": "llama-3.1-8b", "device": "h100", "training": {"precision": "fp8", "zero_stage": 3,
      "layout": {"tp": 1, "pp": 1, "dp": 8, "micro_batch": 2, "global_batch": 16, "seq_len": 8192}, "stack": ")";
  const Scenario compiled = testutil::scenario(shape + R"(pytorch"}})");
  const Scenario eager = testutil::scenario(shape + R"(pytorch_eager"}})");
  CHECK(eager.training.stack.memory_bound_scale > compiled.training.stack.memory_bound_scale);
  CHECK(eager.training.stack.cast_scale == Approx(eager.training.stack.memory_bound_scale /
                                                  compiled.training.stack.memory_bound_scale));
  CHECK(compiled.training.stack.cast_scale == 1);
  const LayoutResult a = evaluate_layout(compiled.model, compiled.device, plan_layout(compiled), plan_context(compiled));
  const LayoutResult b = evaluate_layout(eager.model, eager.device, plan_layout(eager), plan_context(eager));
  CHECK(b.low_precision_cast_s == Approx(a.low_precision_cast_s * eager.training.stack.cast_scale));
  CHECK(b.step_s > a.step_s);
  CHECK(b.compute_s == Approx(a.compute_s));  // GEMMs and attention run the same kernels
  // The stack and its cast scale round-trip through the scenario echo.
  const auto again = parse_scenario(scenario_to_json(eager).dump(), bundled_catalog());
  REQUIRE(again.ok());
  CHECK(again.scenario.training.stack.id == "pytorch_eager");
  CHECK(again.scenario.training.stack.cast_scale == Approx(eager.training.stack.cast_scale));
}

TEST_CASE("a stack's values act on the step where they should", "[calibration][layout]") {
  const Scenario s = testutil::scenario(
      R"({"model": "llama-3-70b", "device": "h100", "training": {"layout": {"tp": 8, "pp": 1, "dp": 8, "global_batch": 16, "seq_len": 8192}}})");
  const PlanLayout l = plan_layout(s);
  PlanContext c = plan_context(s);
  const LayoutResult base = evaluate_layout(s.model, s.device, l, c);
  c.stack.memory_bound_scale = 3;
  const LayoutResult slow_mem = evaluate_layout(s.model, s.device, l, c);
  CHECK(slow_mem.memory_bound_s == Approx(3 * base.memory_bound_s));
  CHECK(slow_mem.compute_s == Approx(base.compute_s));
  c.stack.memory_bound_scale = 1;
  c.stack.layer_overhead_s = 1e-4;
  const LayoutResult launch = evaluate_layout(s.model, s.device, l, c);
  CHECK(launch.overhead_s == Approx(1e-4 * s.model.layers * 3 * launch.microbatches));  // 3 passes: selective recompute
  c.stack.layer_overhead_s = 0;
  c.stack.attention_efficiency = base.attention_efficiency / 2;
  const LayoutResult slow_attn = evaluate_layout(s.model, s.device, l, c);
  CHECK(slow_attn.attention_s == Approx(2 * base.attention_s));
  CHECK(slow_attn.compute_s - slow_attn.attention_s == Approx(base.compute_s - base.attention_s));
}

TEST_CASE("a whole-run average is compared with the steady-state rate times the run's goodput", "[validation]") {
  // The same run, read once as a steady-state rate and once as a whole-run average (GPU-hours per
  // token over a run, restarts included): the second prediction is the first × the goodput.
  const std::string scenario = R"({"model": "llama-3-70b", "device": "h100", "training": {"goodput": 0.8,
      "layout": {"tp": 8, "pp": 1, "dp": 8, "global_batch": 64, "seq_len": 8192}}})";
  const std::string runs = R"({"runs": [
      {"id": "steady", "name": "a", "source": "s", "metric": "tokens_per_s", "observed": 1e5, "scenario": )" + scenario + R"(},
      {"id": "whole", "name": "b", "source": "s", "metric": "tokens_per_s_whole_run", "observed": 1e5, "scenario": )" + scenario + R"(}]})";
  std::vector<Issue> issues;
  const auto rows = validate_runs(runs, bundled_catalog(), &issues);
  REQUIRE(issues.empty());
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].predicted > 0);
  CHECK(rows[1].predicted == Approx(rows[0].predicted * 0.8));
  // An unknown metric names the field and lists the allowed ones.
  std::vector<Issue> bad;
  validate_runs(R"({"runs": [{"id": "x", "name": "b", "source": "s", "metric": "tokens_per_day", "observed": 1,
      "scenario": )" + scenario + "}]}", bundled_catalog(), &bad);
  REQUIRE_FALSE(bad.empty());
  CHECK(bad[0].path == "runs[0].metric");
  CHECK(bad[0].message.find("tokens_per_s_whole_run") != std::string::npos);
}
