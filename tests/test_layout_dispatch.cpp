// The MoE all-to-all's dispatch element size (training.alltoall_dispatch_bytes): the seed's FP8
// default, as DeepSeek-V3 dispatches, and BF16 as the other frameworks in the validation set send
// it (docs/validation/runs-moe.json, run_details alltoall_dispatch).
#include <catch2/catch.hpp>
#include <string>

#include "scenario_util.h"
#include "validation_util.h"
#include "sizer/sizer.h"

using namespace sizer;

namespace {

using testutil::scenario;

bool says(const std::vector<std::string>& notes, const std::string& words) {
  for (const std::string& n : notes) {
    if (n.find(words) != std::string::npos) return true;
  }
  return false;
}

// EP 16 over two 8-GPU domains, nothing hidden: the all-to-all is its own step term.
const char* kLayout = R"({"model": "deepseek-v3", "device": "h800", "training": {"precision": "bf16", "zero_stage": 1,
  "layout": {"tp": 1, "pp": 16, "ep": 16, "dp": 8, "micro_batch": 1, "global_batch": 15360, "seq_len": 4096,
             "sequence_parallel": false}}})";

}  // namespace

TEST_CASE("the all-to-all's dispatch element size scales its dispatch half; FP8 dispatch is named", "[layout][moe]") {
  const Scenario fp8 = scenario(kLayout);
  std::string text = kLayout;
  text.replace(text.find(R"("zero_stage": 1,)"), 16, R"("zero_stage": 1, "alltoall_dispatch_bytes": 2,)");
  const Scenario bf16 = scenario(text);
  CHECK(fp8.training.alltoall_dispatch_bytes == 1);  // the seed's default (DeepSeek-V3's FP8 dispatch)
  REQUIRE(bf16.training.alltoall_dispatch_bytes == 2);
  const Layout l = fp8.training.layout;
  const LayoutResult a = evaluate_layout(fp8.model, fp8.device, l, fp8.training);
  const LayoutResult b = evaluate_layout(bf16.model, bf16.device, l, bf16.training);
  REQUIRE(a.valid());
  REQUIRE(b.valid());
  CHECK(a.a2a_dispatch_bytes == 1);
  CHECK(b.a2a_dispatch_bytes == 2);
  // Dispatch plus combine (BF16, 2 bytes) per copy: 1 + 2 against 2 + 2 bytes, less the fixed
  // latency per collective, which both pay alike.
  const double per_layer_pass = 2.0 * fp8.model.moe.moe_layers / l.pp * (l.global_batch / (l.dp * l.ep));
  const double latency = per_layer_pass * fp8.device.collective_latency_s;
  CHECK((b.ep_comm_s - latency) / (a.ep_comm_s - latency) == Approx(4.0 / 3.0).epsilon(0.01));
  CHECK(b.step_s > a.step_s);
  const std::string words = "the all-to-all dispatches 1 byte per element";
  CHECK(says(explain_layout(fp8.model, fp8.device, l, a, "megatron"), words));
  CHECK_FALSE(says(explain_layout(bf16.model, bf16.device, l, b, "megatron"), "the all-to-all dispatches"));
  // No expert parallelism, no all-to-all: nothing to say.
  Layout no_ep = l;
  no_ep.ep = 1, no_ep.dp = 128;
  const LayoutResult c = evaluate_layout(fp8.model, fp8.device, no_ep, fp8.training);
  CHECK(c.a2a_dispatch_bytes == 0);
  CHECK_FALSE(says(explain_layout(fp8.model, fp8.device, no_ep, c, "megatron"), "the all-to-all dispatches"));
}

TEST_CASE("every published MoE run with expert parallelism records its dispatch element size", "[layout][moe][validation]") {
  int with_ep = 0;
  for (const ValidationRow& r :
       testutil::published_runs({"runs.json", "runs-extended.json", "runs-chips.json", "runs-moe.json", "runs-fsdp.json"})) {
    if (r.layout.ep <= 1 || !r.scenario.model.moe.enabled()) continue;
    INFO(r.id);
    ++with_ep;
    // DeepSeek-V3 quantizes to FP8 before dispatching (its report §3.3.2); every other run sends BF16.
    CHECK(r.result.a2a_dispatch_bytes == (r.id == "deepseek-v3-2048" ? 1.0 : 2.0));
  }
  CHECK(with_ep == 18);
}
