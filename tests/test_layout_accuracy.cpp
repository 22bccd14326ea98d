// The planner's accuracy bands (sizer/layout/layout_accuracy.h): each is the central 80% (10th to 90th
// percentile) of the held-out published runs' step-time misses in its validation group, with the
// 80th percentile of |error| beside it, recomputed here from the runs files, so a change to the
// model or the validation set that moves a band fails until the table says so.
#include <catch2/catch.hpp>

#include <algorithm>

#include "scenario_util.h"
#include "sizer/layout/layout_accuracy.h"
#include "sizer/contract/planner_json.h"
#include "sizer/sizer.h"
#include "validation_util.h"

using namespace sizer;

TEST_CASE("quantile is linear between order statistics", "[validation]") {
  CHECK(quantile({}, 0.8) == 0);
  CHECK(quantile({0.3}, 0.8) == Approx(0.3));
  CHECK(quantile({0.4, 0.1, 0.3, 0.2, 0.5}, 0.5) == Approx(0.3));
  CHECK(quantile({0.4, 0.1, 0.3, 0.2, 0.5}, 0.8) == Approx(0.42));  // at 3.2 of 0..4: 0.4 + 0.2·0.1
  CHECK(quantile({0.4, 0.1, 0.3, 0.2, 0.5}, 1.0) == Approx(0.5));
}

TEST_CASE("a run's step error is its miss as time, whatever metric it was published in", "[validation]") {
  ValidationRow slow_step;  // published 1.2 s, predicted 1.0 s: the run took 20% longer
  slow_step.metric = "step_s", slow_step.observed = 1.2, slow_step.predicted = 1.0;
  slow_step.error = slow_step.predicted / slow_step.observed - 1;
  CHECK(slow_step.error < 0);
  CHECK(slow_step.step_error() == Approx(0.2));
  ValidationRow slow_rate;  // published 100 tokens/s, predicted 120: the run's step was 1.2× longer
  slow_rate.metric = "tokens_per_s", slow_rate.observed = 100, slow_rate.predicted = 120;
  slow_rate.error = slow_rate.predicted / slow_rate.observed - 1;
  CHECK(slow_rate.step_error() == Approx(0.2));
  // Over a group the band is the held-out runs' 10th and 90th percentiles; calibrate runs do not count.
  std::vector<ValidationRow> rows;
  for (double e : {-0.1, 0.0, 0.1, 0.2, 0.3, 0.4}) {
    ValidationRow r;
    r.group = "g", r.metric = "tokens_per_s", r.observed = 100, r.predicted = 100 * (1 + e), r.error = e;
    rows.push_back(r);
  }
  rows.front().in_sample = true;  // −0.1 is fitted on: held out are 0.0 … 0.4
  const auto groups = group_errors(rows);
  REQUIRE(groups.front().group == "g");
  CHECK(groups.front().out_of_sample_runs == 5);
  CHECK(groups.front().out_of_sample_step_p10 == Approx(0.04));  // at 0.4 of 0..4
  CHECK(groups.front().out_of_sample_step_p90 == Approx(0.36));
}

TEST_CASE("signed_percent keeps the sign and a true minus", "[validation]") {
  CHECK(signed_percent(0.234) == "+23.4%");
  CHECK(signed_percent(-0.101) == "−10.1%");
  CHECK(signed_percent(0) == "+0%");
}

TEST_CASE("the accuracy bands are the validation set's held-out percentiles, per group",
          "[layout][validation]") {
  const auto rows = testutil::published_runs(
      {"runs.json", "runs-extended.json", "runs-chips.json", "runs-moe.json", "runs-fsdp.json"});
  const auto groups = group_errors(rows);
  REQUIRE(layout_accuracy_table().size() == 4);
  for (const LayoutAccuracy& a : layout_accuracy_table()) {
    INFO(a.group);
    const auto g = std::find_if(groups.begin(), groups.end(), [&](const GroupError& e) { return e.group == a.group; });
    REQUIRE(g != groups.end());
    INFO("held out " << g->out_of_sample_runs << " runs, 80th percentile " << g->out_of_sample_p80 << ", step p10 "
                     << g->out_of_sample_step_p10 << ", p90 " << g->out_of_sample_step_p90);
    CHECK(a.held_out_runs == g->out_of_sample_runs);
    CHECK(a.p80_abs_error == Approx(g->out_of_sample_p80).margin(0.0005));
    CHECK(a.step_p10 == Approx(g->out_of_sample_step_p10).margin(0.0005));
    CHECK(a.step_p90 == Approx(g->out_of_sample_step_p90).margin(0.0005));
    // A band is wider than the group's mean error and narrower than its worst run; it straddles the
    // prediction (some runs were faster, some slower).
    CHECK(a.p80_abs_error > g->out_of_sample_mae);
    CHECK(a.p80_abs_error < g->worst);
    CHECK(a.step_p10 < 0);
    CHECK(a.step_p90 > 0);
    CHECK(a.width() < 2 * g->worst);
  }
}

TEST_CASE("a plan takes the widest band among the groups it counts in", "[layout][validation]") {
  const Model dense = testutil::scenario(R"({"model": "llama-3-70b"})").model;
  const Model moe = testutil::scenario(R"({"model": "deepseek-v3"})").model;
  REQUIRE(moe.moe.enabled());
  CHECK(std::string(layout_accuracy(dense, Precision::bf16, 1).group) == "dense_bf16");
  CHECK(std::string(layout_accuracy(dense, Precision::bf16, 3).group) == "fsdp_zero3");
  CHECK(std::string(layout_accuracy(dense, Precision::fp8, 1).group) == "fp8_fp4");
  CHECK(std::string(layout_accuracy(dense, Precision::fp4, 3).group) == "fp8_fp4");  // FP8/FP4's band is wider
  CHECK(std::string(layout_accuracy(moe, Precision::bf16, 1).group) == "moe");
  const LayoutAccuracy moe_fp8 = layout_accuracy(moe, Precision::fp8, 1);
  double widest = 0;
  for (const LayoutAccuracy& a : layout_accuracy_table()) {
    if (std::string(a.group) == "moe" || std::string(a.group) == "fp8_fp4") widest = std::max(widest, a.width());
  }
  CHECK(moe_fp8.width() == widest);
}

TEST_CASE("plan() quotes the step time with its band", "[layout][validation]") {
  const Scenario s = testutil::scenario(R"({"model": "llama-3.1-8b", "device": "h100", "training": {"precision": "fp8",
      "layout": {"tp": 1, "dp": 8, "micro_batch": 2, "global_batch": 16}}})");
  const nlohmann::json p = plan_to_json(s);
  const nlohmann::json& a = p["result"]["accuracy"];
  const double step = p["result"]["step"]["step_s"].get<double>();
  const LayoutAccuracy band = layout_accuracy(s.model, Precision::fp8, 1);
  CHECK(a["group"] == "fp8_fp4");
  CHECK(a["held_out_runs"] == band.held_out_runs);
  CHECK(a["step_ratio_p10"].get<double>() == Approx(1 + band.step_p10));
  CHECK(a["step_ratio_p90"].get<double>() == Approx(1 + band.step_p90));
  CHECK(a["step_s_low"].get<double>() == Approx(step * (1 + band.step_p10)));
  CHECK(a["step_s_high"].get<double>() == Approx(step * (1 + band.step_p90)));
  CHECK(a["step_s_low"].get<double>() < step);
  CHECK(a["step_s_high"].get<double>() > step);
  // An invalid layout (TP 3 does not divide 32 heads; a search can meet it) has no step and no band.
  Scenario bad = s;
  bad.training.layout.tp = 3;
  const RankedLayout planned = plan(bad);
  REQUIRE(planned.layout.tp == 3);
  REQUIRE_FALSE(planned.result.valid());
  CHECK_FALSE(planned.has_accuracy);
  CHECK(layout_result_to_json(planned)["accuracy"].is_null());
}
