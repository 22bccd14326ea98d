// One answer per question: with training.layout written, `sizer eval` carries the
// layout model's prediction of that layout's step (training.layout_prediction) beside the seed's
// assumed-MFU step time (training.comms.step_s), both labelled, in the result and in exports.
#include <catch2/catch.hpp>

#include "scenario_util.h"
#include "sizer/share/export.h"
#include "sizer/layout/layout_accuracy.h"
#include "sizer/planners/planner.h"
#include "sizer/contract/planner_json.h"
#include "sizer/contract/result_json.h"
#include "sizer/sizer.h"

using namespace sizer;

TEST_CASE("a written layout gets the layout model's step; the seed's method stays beside it", "[layout][result]") {
  const Scenario s = testutil::scenario(R"({"model": "llama-3-70b", "device": "h100",
      "training": {"layout": {"tp": 8, "pp": 4, "dp": 32, "global_batch": 512, "seq_len": 8192}}})");
  REQUIRE(s.training.layout_given);
  const Estimate e = evaluate(s, true, false);
  REQUIRE(e.layout.has);
  const LayoutResult r = evaluate_layout(s.model, s.device, plan_layout(s), plan_context(s));
  CHECK(e.layout.step_s == Approx(r.step_s));
  CHECK(e.layout.mfu == Approx(r.mfu_predicted));
  CHECK(e.layout.devices == 1024);
  CHECK(e.layout.step_s != Approx(e.comms.step_s));  // two methods, two numbers, both kept
  const auto j = result_to_json(s, e);
  CHECK(j["training"]["layout_prediction"]["step_s"] == Approx(r.step_s));
  CHECK(j["training"]["comms"]["step_s"] == Approx(e.comms.step_s));
  // Quoted with the band plan() gives (sizer/layout/layout_accuracy.h).
  const LayoutAccuracy band = layout_accuracy(s.model, s.training.precision, s.training.zero_stage);
  const nlohmann::json& a = j["training"]["layout_prediction"]["accuracy"];
  CHECK(a["group"] == band.group);
  CHECK(a["step_s_low"].get<double>() == Approx(r.step_s * (1 + band.step_p10)));
  CHECK(a["step_s_high"].get<double>() == Approx(r.step_s * (1 + band.step_p90)));
  CHECK(a["held_out_runs"] == band.held_out_runs);
  const std::string md = results_markdown(j);
  CHECK(md.find("Step time, predicted for the layout") != std::string::npos);
  CHECK(md.find("Step time at the assumed MFU (the seed's method)") != std::string::npos);
  bool worked = false;
  for (const Working& w : e.working) worked = worked || w.path == "training.layout_prediction.step_s";
  CHECK(worked);
}

TEST_CASE("no written layout, no prediction; the echo's defaults do not become the user's layout", "[layout][result]") {
  const Scenario s = testutil::scenario(R"({"model": "llama-3-70b", "device": "h100"})");
  CHECK_FALSE(s.training.layout_given);
  const Estimate e = evaluate(s, false, false);
  CHECK_FALSE(e.layout.has);
  CHECK_FALSE(result_to_json(s, e)["training"].contains("layout_prediction"));
  // The scenario echo writes the default layout with "given": false, and reads back the same.
  const nlohmann::json echo = scenario_to_json(s);
  CHECK(echo["training"]["layout"]["given"] == false);
  const auto again = parse_scenario(echo.dump(), bundled_catalog());
  REQUIRE(again.ok());
  CHECK_FALSE(again.scenario.training.layout_given);
  // A written layout echoes "given": true.
  const Scenario w = testutil::scenario(R"({"model": "llama-3-70b", "device": "h100", "training": {"layout": {"tp": 8}}})");
  CHECK(scenario_to_json(w)["training"]["layout"]["given"] == true);
}

TEST_CASE("eval carries the planner's notes on the written layout", "[layout][result]") {
  // Llama 3.1 8B on 512 GB300 with TP 2 × CP 4 (MLPerf v5.1's layout): an assumed chip efficiency,
  // an assumed FP8 ratio and a micro-batch short enough for the regime note.
  const Scenario s = testutil::scenario(R"({"model": "llama-3.1-8b", "device": "gb300", "training": {"precision": "fp8",
      "layout": {"tp": 2, "cp": 4, "dp": 64, "micro_batch": 1, "global_batch": 64, "seq_len": 8192,
                 "sequence_parallel": true, "tp_comm_overlap": true}}})");
  const Estimate e = evaluate(s, false, false);
  REQUIRE(e.layout.has);
  const nlohmann::json j = result_to_json(s, e);
  const nlohmann::json& notes = j["training"]["layout_prediction"]["notes"];
  const nlohmann::json plan = plan_to_json(s)["result"]["explanations"];
  REQUIRE(notes.is_array());
  CHECK(notes == plan);  // the same notes as plan() gives for the same layout
  bool regime = false;
  for (const auto& n : notes) regime = regime || n.get<std::string>().find("read this step time as optimistic") != std::string::npos;
  CHECK(regime);
  // A layout without anything to say has an empty list, not a missing key.
  const Scenario quiet = testutil::scenario(R"({"model": "llama-3-70b", "device": "h100",
      "training": {"layout": {"tp": 8, "pp": 4, "dp": 32, "global_batch": 512, "seq_len": 8192}}})");
  const nlohmann::json q = result_to_json(quiet, evaluate(quiet, false, false))["training"]["layout_prediction"]["notes"];
  REQUIRE(q.is_array());
  CHECK(q == plan_to_json(quiet)["result"]["explanations"]);
}
