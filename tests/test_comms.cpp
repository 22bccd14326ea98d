// Communication: the four interconnect cases and their verdicts; through evaluate(), the devices
// of a layout, the MoE gradient all-reduce sharded by EP, what a checkpoint holds and the
// all-to-all per MFU point (expected values from the model's published shape, not the core).
#include <catch2/catch.hpp>
#include <string>

#include "scenario_util.h"
#include "sizer/formulas/comms.h"
#include "sizer/planners/estimate.h"
#include "sizer/planners/planner.h"

using namespace sizer;

namespace {

using testutil::scenario;

// DeepSeek-V3's published layout: PP16, EP64, ZeRO-1 DP on 2,048 H800 (DeepSeek-V3 report §3.2).
const char* const kDeepSeekLayout = R"({"model": "deepseek-v3", "device": "h800", "training": {
    "layout": {"tp": 1, "pp": 16, "ep": 64, "dp": 2, "micro_batch": 1, "global_batch": 15360, "seq_len": 4096},
    "zero_stage": 1}})";

}  // namespace

TEST_CASE("ring all-reduce factor is 2(n−1)/n and tends to 2", "[comms]") {
  CHECK(comms::ring_allreduce_factor(1) == 0);
  CHECK(comms::ring_allreduce_factor(2) == Approx(1));
  CHECK(comms::ring_allreduce_factor(8) == Approx(1.75));
  CHECK(comms::ring_allreduce_factor(1e6) == Approx(2).epsilon(1e-5));
}

TEST_CASE("case 1: data-parallel all-reduce moves about twice the gradient shard", "[comms]") {
  CHECK(comms::dp_allreduce_bytes_per_device(1e12 / 512, 2) == Approx(2 * 2 * 1e12 / 512));
}

TEST_CASE("case 2: pipeline boundary carries s·b·h activations", "[comms]") {
  CHECK(comms::pp_boundary_bytes(2048, 1, 25600, 2) == Approx(2048.0 * 25600 * 2));
  CHECK(comms::pp_boundary_bytes(2048, 4, 25600, 2) == Approx(4 * 2048.0 * 25600 * 2));
}

TEST_CASE("case 3: tensor-parallel decode all-reduces", "[comms]") {
  const double msg = comms::tp_message_bytes(25600, 32, 2);
  CHECK(msg == Approx(25600.0 * 32 * 2));
  CHECK(comms::tp_allreduce_bytes_per_step(msg, 8, 256) == Approx(msg * 1.75 * 256));
  CHECK(comms::tp_allreduce_bytes_per_step(msg, 1, 256) == 0);  // no group, no traffic
}

TEST_CASE("case 4: MoE all-to-all bytes per token", "[comms]") {
  CHECK(comms::moe_alltoall_bytes_per_token(7168, 8, 60, 1, 2) == Approx((7168.0 * 8 + 7168.0 * 8 * 2) * 60));
}

TEST_CASE("verdicts compare needs with the scale-out and scale-up links", "[comms]") {
  using comms::Verdict;
  CHECK(comms::bandwidth_verdict(10e9, 900e9, 50e9) == Verdict::fits_scale_out);
  CHECK(comms::bandwidth_verdict(81e9, 900e9, 50e9) == Verdict::scale_up_only);
  CHECK(comms::bandwidth_verdict(1e12, 900e9, 50e9) == Verdict::too_slow);
  // No scale-out figure (MI3xx tables) gives no verdict, not "scale_up_only".
  CHECK(comms::bandwidth_verdict(10e9, 900e9, 0) == Verdict::unknown);
  CHECK(comms::bandwidth_verdict(0, 900e9, 0) == Verdict::fits_scale_out);  // no traffic at all
  CHECK(comms::time_verdict(7.8e9, 75, 0.25, 900e9, 0) == Verdict::unknown);
  CHECK(comms::time_verdict(7.8e9, 0, 0.25, 900e9, 50e9) == Verdict::unknown);  // no step time: no peak
  CHECK(comms::time_verdict(7.8e9, 75, 0.25, 900e9, 50e9) == Verdict::fits_scale_out);
  CHECK(comms::time_verdict(7.8e9, 0.05, 0.25, 900e9, 50e9) == Verdict::scale_up_only);
  CHECK(comms::time_verdict(7.8e9, 0.001, 0.25, 900e9, 50e9) == Verdict::too_slow);
  CHECK(std::string(comms::describe(Verdict::scale_up_only)).find("scale-up") != std::string::npos);
}

TEST_CASE("eval and plan count the same devices for a layout", "[comms]") {
  const Scenario s = scenario(kDeepSeekLayout);
  const Estimate e = evaluate(s);
  CHECK(e.comms.layout_devices == 2048);  // 16 × 64 × 2, as DeepSeek-V3 ran
  CHECK(plan_layout(s).devices() == 2048);
  CHECK(e.comms.layout_devices == plan_layout(s).devices());
}

TEST_CASE("the MoE data-parallel all-reduce is sharded by expert parallelism", "[comms]") {
  const Scenario s = scenario(kDeepSeekLayout);
  const Estimate e = evaluate(s);
  const double routed = e.model.routed_expert_params, dense = s.model.params - routed;
  // Each rank reduces its dense shard (÷ PP 16) and its expert shard (÷ PP 16 × EP 64).
  const double want = 2 * (dense / 16 + routed / (16 * 64)) * s.training.grad_bytes;
  CHECK(e.comms.dp_allreduce_bytes_per_device == Approx(want).epsilon(1e-12));
  // The unsharded figure was about 25× larger.
  CHECK(2 * s.model.params / 16 * s.training.grad_bytes / e.comms.dp_allreduce_bytes_per_device > 20);
}

TEST_CASE("checkpoints hold no gradients; the all-to-all has one rate per MFU point", "[comms]") {
  const Scenario s = scenario(R"({"model": "moe-1t", "device": "gb200", "training": {"mfu": [0.25, 0.3, 0.35]}})");
  const Estimate e = evaluate(s);
  // Mixed-precision Adam: 2 (weights) + 12 (master, momentum, variance) of the 16 bytes.
  CHECK(e.comms.checkpoint_bytes == Approx(s.model.params * 14));
  REQUIRE(e.comms.moe_alltoall_bytes_per_s_per_mfu.size() == 3);
  CHECK(e.comms.moe_alltoall_bytes_per_s_per_mfu[2] / e.comms.moe_alltoall_bytes_per_s_per_mfu[0] == Approx(0.35 / 0.25));
  CHECK(e.comms.moe_alltoall_bytes_per_s_per_mfu[1] == Approx(e.comms.moe_alltoall_bytes_per_s));  // 0.3 = step MFU
}
