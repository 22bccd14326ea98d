// Pipeline send/recv in the layout model: an interleaved schedule on the megatron stack sends and
// receives beside the next chunk's compute (Megatron-Core overlap_p2p_comm), so only the fill and
// drain chains wait for a transfer; without interleaving, or on a stack that does not overlap,
// every transfer is on the critical path.
#include <catch2/catch.hpp>

#include "../core/src/layout/parts.h"
#include "scenario_util.h"
#include "sizer/contract/result_json.h"
#include "sizer/sizer.h"

using namespace sizer;

namespace {

// Llama 3.1 405B on 512 H100: TP 8, PP 8 across nodes, CP 1, DP 8, 128 micro-batches.
const char* kPipeline = R"({"model": "llama-3.1-405b", "device": "h100", "training": {"layout":
  {"tp": 8, "pp": 8, "dp": 8, "micro_batch": 1, "global_batch": 1024, "seq_len": 8192, "virtual_stages": 8}}})";

LayoutResult run(const Scenario& s, const PlanLayout& l) { return evaluate_layout(s.model, s.device, l, plan_context(s)); }

}  // namespace

TEST_CASE("interleaved megatron pipelines hide their send/recv but for the fill and drain chains", "[layout][pp]") {
  const Scenario s = testutil::scenario(kPipeline);
  REQUIRE(plan_context(s).stack.overlaps_pp_p2p);
  const PlanLayout l = plan_layout(s);
  REQUIRE(l.virtual_stages == 8);
  const LayoutResult r = run(s, l);
  const double total = r.pp_p2p_s + r.pp_p2p_hidden_s - layout::kOverlapContention * r.pp_p2p_hidden_s;
  // One hop: the whole transfer count is 2 per micro-batch per virtual stage.
  const double mb = l.global_batch / (l.dp * l.micro_batch);
  const double hop = total / (2 * mb * l.virtual_stages);
  CHECK(r.pp_p2p_hidden_s > 0);
  CHECK(r.pp_p2p_s == Approx(2 * (l.pp - 1) * hop + layout::kOverlapContention * r.pp_p2p_hidden_s));
  CHECK(r.pp_p2p_s < 0.2 * total);

  // Not interleaved: Megatron's 1F1B sends and receives in the schedule's order, all exposed.
  PlanLayout plain = l;
  plain.virtual_stages = 1;
  const LayoutResult p = run(s, plain);
  CHECK(p.pp_p2p_hidden_s == 0);
  CHECK(p.pp_p2p_s == Approx(2 * mb * hop));

  // A stack that does not overlap (torch.distributed.pipelining here) keeps every transfer.
  PlanContext c = plan_context(s);
  c.stack.overlaps_pp_p2p = false;
  const LayoutResult q = evaluate_layout(s.model, s.device, l, c);
  CHECK(q.pp_p2p_hidden_s == 0);
  CHECK(q.pp_p2p_s == Approx(total));
  CHECK(q.step_s > r.step_s);
}

TEST_CASE("the stacks say which overlap pipeline send/recv", "[layout][pp]") {
  for (const std::string& id : software_stack_ids()) {
    SoftwareStack st;
    REQUIRE(software_stack_defaults(id, &st));
    CHECK(st.overlaps_pp_p2p == (id == "megatron"));
  }
}

TEST_CASE("pp_comm_overlap is read, echoed and refused when it is not a boolean", "[layout][pp][parse]") {
  const auto off = parse_scenario(R"({"model": "llama-3.1-405b", "device": "h100", "training": {"layout":
      {"tp": 8, "pp": 8, "dp": 8, "global_batch": 1024, "virtual_stages": 8, "pp_comm_overlap": false}}})",
                                  bundled_catalog());
  REQUIRE(off.ok());
  CHECK_FALSE(plan_layout(off.scenario).pp_comm_overlap);
  const LayoutResult r = run(off.scenario, plan_layout(off.scenario));
  CHECK(r.pp_p2p_hidden_s == 0);
  // The echo writes it, and reads back the same.
  const nlohmann::json echo = scenario_to_json(off.scenario);
  CHECK(echo["training"]["layout"]["pp_comm_overlap"] == false);
  const auto again = parse_scenario(echo.dump(), bundled_catalog());
  REQUIRE(again.ok());
  CHECK_FALSE(again.scenario.training.layout.pp_comm_overlap);
  // Unset: on (old scenarios keep the megatron stack's behaviour).
  CHECK(testutil::scenario(kPipeline).training.layout.pp_comm_overlap);
  const auto bad = parse_scenario(R"({"training": {"layout": {"pp_comm_overlap": "yes"}}})", bundled_catalog());
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.issues[0].path == "training.layout.pp_comm_overlap");
  CHECK(bad.issues[0].message.find("true or false") != std::string::npos);
}
