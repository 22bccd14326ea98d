// The layout model against published training runs (docs/validation.md): every group stays close
// to the published step times, held out and in sample, and no group gets worse than its baseline.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "validation_util.h"
#include "sizer/sizer.h"

using namespace sizer;

TEST_CASE("predictions stay close to published runs (docs/validation.md)", "[layout][validation]") {
  const auto rows = testutil::published_runs({"runs.json"});
  REQUIRE(rows.size() >= 6);
  // The dense runs of the original table. The one MoE row (DeepSeek-V3, FP8) is guarded by the
  // per-group test below instead (−3.7% since the layout model's MoE terms and DualPipe's
  // all-to-all overlap; it had been −10% from the FP8 peak cancelling the MoE model's own error).
  std::vector<ValidationRow> dense;
  for (const auto& r : rows) {
    if (r.group != "moe") dense.push_back(r);
  }
  REQUIRE(dense.size() == 13);
  // Mean absolute error over these 13: 4.6% when the table was written, 4.7% since a pipeline runs
  // at its slowest stage (Llama 3 405B: 126 layers over 16 × 2 chunks puts 8 layers on some
  // devices, not 7.875); 6.9% since 2026-12-01, when the chips' GEMM efficiencies were
  // fitted on the whole calibration set (A100 0.796, H100 0.689) and attention became causal (half
  // the score blocks): Llama 3 405B at 131k tokens with CP 16 went −7.6% → +21%, which ring
  // attention's causal load imbalance (not modelled) would explain; 7.1% since the GEMMs run at
  // their per-device shapes (2026-12-01; that run +19.4%); 6.6% since the reference stack's flash
  // attention runs at FlashAttention-2's published 35% of the H100 peak (2026-12-03; that run
  // −7.8%, the 16,384-GPU 8k run −10.4% → −13.1%). It must not get worse.
  CHECK(mean_abs_error(dense) <= 0.067);
  std::vector<ValidationRow> out_of_sample;
  for (const auto& r : dense) {
    if (!r.in_sample) out_of_sample.push_back(r);
  }
  CHECK(out_of_sample.size() >= 5);
  CHECK(mean_abs_error(out_of_sample) <= 0.080);  // runs not used to calibrate: 9.7%, 7.8% since the per-GEMM shapes, 6.6% since FA2's 35%
  for (const auto& r : dense) {
    INFO(r.id << ": " << r.error);
    CHECK(std::fabs(r.error) < 0.20);  // no single run is off by more than 20% (worst: MT-NLG 530B full recompute, 13.4%)
  }
}

TEST_CASE("no group of published runs gets worse (baseline, docs/validation.md)", "[layout][validation]") {
  const auto rows = testutil::published_runs({"runs.json", "runs-extended.json"});
  REQUIRE(rows.size() >= 53);
  // Mean absolute error per group, measured on 2026-11-30 (the validation set's baseline in
  // docs/validation-history.md: dense 23.4%, FSDP 70.5%, MoE 70.4%, FP8/FP4 121.7%, all 55.1%)
  // and ratcheted down after the low-precision GEMM
  // efficiencies, slowest-stage pipelines and attention at heads × head size (which moved the one
  // FP8 MoE row, DeepSeek-V3, from −20% to −28%: MLA's 192-wide query/key heads; FP8/FP4 53.6% →
  // 54.1% while MoE went 54.3% → 45.2%). The layout model's MoE terms (expert GEMMs at their
  // own width, load imbalance, permute traffic, ep_overlap with DualPipe's full overlap for
  // DeepSeek-V3 and V2's shared-expert overlap) took MoE 45.2% → 30.6%, FP8/FP4 54.1% → 51.9%, all
  // 33.7% → 32.6%. Software stacks, causal attention, fixed overheads and the per-chip GEMM fit
  // (2026-12-01, `sizer calibrate`) took dense 23.5% → 10.0%, FSDP 41.7% → 14.7%, MoE 30.6% →
  // 17.1%, FP8/FP4 51.9% → 16.8%, all 32.6% → 12.8%. ZeRO-3 per layer and per micro-batch (first
  // gather and last reduce-scatter exposed, NCCL ring latencies; under PP one gather per step, as
  // torchtitan runs it) merged after that fit. FP8 recipes (casts counted apart), power caps on
  // torchtitan's 500 W H100s and the refit (2026-12-01) took dense 10.0% → 9.3%, FSDP 14.7% →
  // 12.8%, FP8/FP4 16.8% → 13.8%, all 12.8% → 11.5%; MoE 17.1% → 17.3% (within the slack). GEMMs at
  // their per-device shapes (2026-12-01): dense 9.3% → 9.0%, FSDP 12.8% → 12.3%, FP8/FP4 13.8% →
  // 13.7%, all 11.5% → 11.3%, MoE 17.4%. Pipeline schedules as published (same day): DeepSeek-V3's
  // DualPipe −8.4% → +3.0%, DeepSeek-V2's zero-bubble PP +61% → +72% (a whole-run average with
  // ramp-up and restarts, which a step rate overstates): MoE 17.4% → 18.7%. 2026-12-02, raised on
  // purpose: the all-to-all on the links it crosses, DeepSeek-V3 with its published DeepEP-style
  // dispatch (IB once per node, then NVLink) and both DeepSeek rows as whole-run averages (× the
  // predicted goodput) take DeepSeek-V3 from +3.0% to +58.9%: its all-to-all had been charged
  // 1.8× its compute (every routed copy over IB), hiding a compute gap the report's 1:1 ratio
  // (§3.2.1, now reproduced at 1.1:1) exposes; MoE 18.7% → 27.7%, FP8/FP4 13.7% → 15.8%
  // (docs/validation.md). 2026-12-03: the reference stack's flash attention at FlashAttention-2's
  // published 35% of the H100 peak (not the GEMM curve), the SMs an overlapped all-to-all takes
  // (DeepEP: 20 of 132) and DeepSeek-V3's blockwise FP8 (§3.3.2): DeepSeek-V3 +58.9% → +29.8%,
  // V2 +51.9% → +32.5%, Llama 3 at 131k +19.4% → −7.8%; MoE 27.7% → 15.6%, FP8/FP4 15.8% → 14.0%,
  // dense 7.6% → 7.4%, all 10.6% → 9.7%. Then the H800 fitted on its BF16 run (DeepSeek-V2, now
  // calibrate; 0.4101 against the H100's 0.6549): DeepSeek-V3, held out, +29.8% → +2.1%; MoE 15.6% →
  // 0.5%, FP8/FP4 14.0% → 12.3%, all 9.7% → 8.6%. 2026-12-03, raised on purpose: thirteen MLPerf
  // Training runs added, all held out (GPT-3 175B and Llama 3.1 405B on H100, GB200 and GB300, FP8
  // within −2% to +16%; the four NVFP4 runs −26% to −41%, slower than published because a chip
  // without a fitted FP4 ratio runs FP4 GEMMs no faster than FP8): FP8/FP4 12.3% → 13.9%, all
  // 8.6% → 9.9%. Then four MLPerf v5.1 Llama 3.1 8B FP8 runs (72 and 512 GB200/GB300): +7.1% and
  // +18.8% at 72 GPUs, +110% and +112% at 512 (1,024 tokens per GPU per step; the published step
  // halves per-GPU throughput there, which the model does not reproduce): FP8/FP4 13.9% → 19.7%,
  // all 9.9% → 12.8%. Each number may only go down (half a point of slack).
  // 2026-12-03 (fifteenth session): the GB200 refitted on its dense torchtitan pair (its MoE
  // Scout pair, fitted before, now held out at -9%: MoE 0.6% -> 5.1%, raised on purpose) and an
  // FP4 kernel ratio fitted on the B200's TensorRT-LLM serving runs (same die as the GB200): the
  // MLPerf GB200 FP8 runs +11.5%...+15.5% -> -6.2%...-2.7%, NVFP4 -25.9%...-31.9% -> -10.7%...-17.4%:
  // FP8/FP4 19.7% -> 16.8%, dense 7.4% -> 7.0%, FSDP 10.2% -> 9.9%, all 12.8% -> 11.5%. Then that
  // ratio as the FP4 fallback of chips with an FP4 peak (the GB300's NVFP4 run -41.0% -> -2.9%):
  // FP8/FP4 16.8% -> 15.7%, all 11.5% -> 10.9%. Then training.bf16_layers on torchtitan's NVFP4
  // run, whose last 5 layers are BF16 (+23.0% -> +11.1%): FP8/FP4 15.3%, FSDP 9.6%, all 10.8%. Then
  // the MaxText v5p runs' remat policies as their sources state them (recompute_fraction) and the
  // v5p refitted (0.95 -> 0.8935): dense 7.0% -> 6.8%, FSDP 9.4%, all 10.6%. Then FP4 casts at
  // half a byte plus a 1/16-byte scale per element: FP8/FP4 15.3% -> 15.1%, all 10.5%.
  // Sixteenth session, raised on purpose: six held-out MLPerf v5.1 Llama 3.1 8B FP8 runs from other
  // submitters (B200 -18.8%, -13.0%, +7.0%; B300 -2.1%; H100 +8.5% and, with TP 2, +43.3%) and
  // AMD's on 8 MI355X (-28.1%: the chip's gemm is fitted on an eager torchtitan row): new
  // evidence, no model change: FP8/FP4 15.1% -> 15.5%, all 10.5% -> 11.1%. Seventeenth session:
  // four held-out MLPerf v5.1 405B runs (B200, H200) and interleaved pipelines' send/recv
  // overlapped on the megatron stack: FP8/FP4 15.5% -> 14.7%, all 11.1% -> 10.9%. Eighteenth
  // session: UF's three-point MLPerf 8B weak-scaling series on B200 (+6.0%, +8.7%, +24.7%) and seven
  // MLPerf 8B runs with FP8 attention (training.fp8_attention; six NVFP4, one H200 FP8), all held
  // out: FP8/FP4 14.7% -> 14.1%, all 10.9% -> 11.0%. Twenty-first session, MoE raised on purpose:
  // data-parallel collectives hidden behind compute on a GPU cost 10% of their time for the SMs
  // their kernels take, as hidden TP and PP communication already did (data_parallel.cpp), with
  // no chip refitted: FP8/FP4 14.1% -> 12.3%, all 11.0% -> 10.2%, but MoE 5.1% -> 6.8% (the Llama 4
  // Scout pair on 256 GB200s, already too slow, -9% -> -12%: its FSDP traffic is a third of its step).
  // Twenty-third session, MoE raised on purpose: every MoE run's all-to-all element size written as
  // its framework sends it (BF16 dispatch for all but DeepSeek-V3's FP8; the scenario default stays
  // the seed's 1 byte): the Scout pair -12.3%/-12.8% -> -12.8%/-13.4%, DeepSeek-V2 (calibrate; the
  // H800 not refitted) +0.1% -> -2.3%: MoE 6.8% -> 7.6%, while held out over every file MoE went
  // 19.3% -> 18.2% (the test below).
  const std::pair<const char*, double> baseline[] = {
      {"dense_bf16", 0.068}, {"fsdp_zero3", 0.094}, {"moe", 0.077}, {"fp8_fp4", 0.123}, {"all", 0.102}};
  const auto groups = group_errors(rows);
  for (const auto& [name, mae] : baseline) {
    INFO(name);
    const auto g = std::find_if(groups.begin(), groups.end(), [&](const GroupError& e) { return e.group == name; });
    REQUIRE(g != groups.end());
    CHECK(g->runs >= 4);
    CHECK(g->mae <= mae + 0.005);
  }
}

// Every runs file, per group and per split (tests keep each group's error from getting worse, in
// sample and out of sample). Measured on 2026-12-01 after the per-GEMM shapes
// and einsum dispatch (docs/validation.md), and the published pipeline schedules (DeepSeek-V2's
// zero-bubble PP took the MoE worst to +71.8%, a whole-run average): {group, in sample, held out,
// worst}. Each may only go down (half a point of
// slack); lower a number here when a change lowers it.
TEST_CASE("every group, in sample and held out, over all 206 runs may only get better", "[layout][validation]") {
  const auto rows = testutil::published_runs(
      {"runs.json", "runs-extended.json", "runs-chips.json", "runs-moe.json", "runs-fsdp.json"});
  REQUIRE(rows.size() >= 206);
  struct Limit {
    const char* group;
    double in_sample, held_out, worst;
  };
  // 2026-12-01 (fifth session): the pytorch_eager stack (torchtitan's two eager rows in
  // calibrate, the MI355X runs without torch.compile held out) and the same-die chips (H200, H800
  // with H100's fit) lowered the held-out errors. Sixth session: the v5e and the MI355X fitted on
  // their own calibrate runs (four single-slice MaxText v5e rows, the CVS BF16 row); then the A100's
  // flash attention at 1.76× the H100's utilisation (FlashAttention-2/-3 papers) took held out
  // dense 9.1% → 7.8% and FSDP 11.5% → 10.5% for in sample 4.4% → 4.8% and 4.9% → 5.2% (IBM's
  // A100 7B run, calibrate, +1.8% → +12.7%). Then four held-out DeepSeek-V3 rows on Ironwood
  // (MaxText's MoE sparse path, −43% to −48%, the Qwen3 rows' blind spot) raised the MoE, FSDP
  // and FP8 held-out errors: new evidence, not a change to the model. Seventh session (2026-12-02):
  // the jax stack's MoE dispatch scale from MaxText #1256 (not fitted on any run here) took the
  // DeepSeek-V3 Ironwood rows within 8% and the Qwen3-235B rows to +34%/+38%: held out MoE 30.9% →
  // 18.6%, FSDP 12.0% → 10.2%, FP8/FP4 18.8% → 14.2%, all 12.2% → 10.5%. Then torchao's B200s at the
  // 750 W its team gives for them (pytorch/ao #3566): held out dense 7.6%, FSDP 9.9%, FP8/FP4 13.2%,
  // all 10.2%; the worst runs 53.3% (dense), 56.0% (FP8/FP4), 60.9% (Qwen3 default all-to-all).
  // Twelfth session (2026-12-02), raised on purpose: the all-to-all split over the links it crosses
  // and DeepSeek-V3's DeepEP-style dispatch uncovered a compute gap its over-charged all-to-all had
  // hidden (+3.0% → +58.9%, see the test above): held out MoE 18.6% → 22.5%, FP8/FP4 13.2% →
  // 16.0% (worst 58.9%), all 10.2% → 10.7%. Thirteenth session (2026-12-03): flash attention in
  // the reference stack at FlashAttention-2's published 35% of the H100 peak, the SM share an
  // overlapped all-to-all takes from the compute under it, DeepSeek-V3's blockwise FP8: held out
  // MoE 22.5% → 19.0%, FP8/FP4 16.0% → 14.6% (worst 56.0%), dense 7.6% → 7.5%, all 10.7% → 10.2%.
  // Then the H800's GEMM efficiency fitted on its BF16 run (DeepSeek-V2 moved to calibrate, as the
  // MI355X's BF16 row was): held out MoE 19.0% → 15.9%, FP8/FP4 14.6% → 13.2%, all 10.2% → 9.6%;
  // in sample MoE 2.7% → 2.1%, all 5.2% → 5.1%. Then IBM fms-fsdp's six 2024-02 rows, which
  // state no torch.compile, on the pytorch_eager stack (they had the compiled stack; `sizer
  // calibrate` keeps every committed value within rounding): in sample dense 4.8% → 3.2%, FSDP
  // 5.2% → 3.8%, all 5.1% → 4.0%. Fourteenth session (2026-12-03), raised on purpose: three
  // published MaxText MoE runs on TPU v5p added, held out (DeepSeek-V3 −16.5%, Llama 4 Scout
  // −4.0%, Llama 4 Maverick −30.7%, all too fast): new evidence, not a change to the model; held
  // out MoE 15.9% → 16.1%, FSDP 9.9% → 10.1%, all 9.6% → 9.9%. Then ZeRO-1/2 as a gradient
  // reduce-scatter and a parameter all-gather hidden per model chunk (Megatron-Core's
  // grad_sync_func / param_sync_func), `param_gather_bytes` for FP8 weight gathers, and three
  // MLPerf v4.0 GPT-3 175B FP8 runs on 512–11,616 H100s, held out (−2.0%, +13.8%, +14.0%): held
  // out FP8/FP4 13.2% → 12.8%; in sample MoE 2.1% → 2.2% (DeepSeek-V2 −0.0% → +0.2%). Then six
  // MLPerf v5.0 Llama 3.1 405B FP8 runs, held out: 512–8,192 H100s −0.8%, +1.2%, +7.3%;
  // 256–2,496 GB200s +11.5%, +13.0%, +15.5%: held out FP8/FP4 12.8% → 11.8%, all 9.9% → 9.8%.
  // Then four MLPerf v5.1 NVFP4 Llama 3.1 405B runs, held out, −25.9% to −41.0% (too slow: no chip
  // has a fitted FP4 ratio, so FP4 GEMMs run no faster than FP8; fitting the GB200's on one of
  // them, 0.8923, puts the other GB200 runs within 7.4% but the serving model's GB200 FP4 runs up
  // to +42% and torchao's NVFP4 run at +44%, so it was not kept, docs/validation.md): held out
  // FP8/FP4 11.8% → 14.2%, all 9.8% → 10.5%. Then four MLPerf v5.1 Llama 3.1 8B FP8 runs, held
  // out (+7.1%, +18.8% on 72 GPUs; +110.1%, +111.8% on 512: see the test above): held out FP8/FP4
  // 14.2% → 19.4% (worst 111.8%), all 10.5% → 12.3%. Fifteenth session (2026-12-03): the GB200's
  // GEMM efficiency and FP8 ratio refitted on its dense torchtitan pair (0.6981 / 0.8731 from the
  // Llama 4 Scout MoE pair → 0.5889 / 0.8191; the Scout pair now held out at −9%, which raises the
  // MoE in-sample mean on the three MoE runs left there, 2.2% → 3.6%, on purpose), and an NVFP4
  // kernel ratio (0.72) fitted on the B200's TensorRT-LLM serving runs and carried to the GB200
  // (same die): held out FP8/FP4 19.4% → 16.8% (worst 110.1%), MoE 16.1% → 15.3%, all 12.3% →
  // 11.4%, dense 7.5% → 7.4%; FSDP 10.1% → 10.2% (torchao's NVFP4 run +7.0% → +23.0%). Then the
  // same ratio as the FP4 fallback for chips with an FP4 peak and no fitted value (it had been FP8
  // speed): the GB300's NVFP4 run −41.0% → −2.9%; held out FP8/FP4 16.8% → 15.8%, all 11.4% → 11.1%.
  // Then `training.bf16_layers` on torchtitan's NVFP4 run, which keeps its last 5 layers in BF16
  // (+23.0% → +11.1%): held out FP8/FP4 15.8% → 15.5%, FSDP 10.2% → 10.0%, all 11.1% → 11.0%.
  // Then, raised on purpose: `recompute_fraction` for the three tpu-recipes v5p runs whose custom
  // remat policies save part of the forward (Llama 3.1 405B 0.73, the v5p's calibrate run;
  // DeepSeek-V3 and Llama 4 Maverick 0.8), which refits the v5p's `gemm` off the range's bound
  // (0.95 → 0.8935: MaxText 32B/128B on v5p +16.3%/+22.2% → +10.1%/+15.7%), and the jax stack's
  // dispatch scale re-derived on MaxText #1256's v5p A/B with it (16.2 → 17.1), which moves the
  // Ironwood MoE runs up (DeepSeek-V3 +1.4%…+8.0% → +4.2%…+11.4%, Qwen3-235B +33.9%/+37.8% →
  // +38.7%/+42.1%): held out MoE 15.3% → 16.3%, FSDP 10.0% → 10.1%, FP8/FP4 15.5% → 15.8%, dense
  // 7.4% → 7.3%, all 11.0% → 11.1%. Then FP4 casts written at half a byte plus a 1/16-byte block
  // scale per element (they had been counted as 8-bit): the MLPerf NVFP4 runs −17.4%…−10.7% →
  // −15.5%…−8.7%, the GB300's −2.9% → +0.3%, torchao's +11.1% → +12.4%; held out FP8/FP4 15.8% →
  // 15.6%, all 11.1% → 11.0%, FSDP 10.14% → 10.16%. Sixteenth session, raised on purpose: six
  // held-out MLPerf v5.1 Llama 3.1 8B FP8 runs from other submitters (the first B300 run among
  // them; Cisco's H100 TP 2 run at +43.3%) and AMD's on 8 MI355X (−28.1%), no model change: held
  // out all 11.0% → 11.4%, FP8/FP4 15.6% → 15.8% (44 runs instead of 37). Seventeenth session:
  // four held-out MLPerf v5.1 405B runs (University of Florida's B200, Nebius's H200) and the
  // megatron stack's interleaved pipelines sending beside compute (overlap_p2p_comm): held out
  // FP8/FP4 15.8% → 15.1% (48 runs), all 11.4% → 11.3%. Eighteenth session: University of
  // Florida's MLPerf 8B weak-scaling series on 32, 128 and 256 B200 (+6.0%, +8.7%, +24.7%: the
  // published step rises 17% from 128 to 256 GPUs, the model's stays flat) and seven MLPerf 8B runs
  // that keep attention in FP8 (training.fp8_attention at FlashAttention-3's FP8/BF16 ratio): NVFP4
  // on 8/16/32 B200, 8 B300, 8 GB200, 8 GB300 (−3.6%, +4.7%, +11.3%, +18.4%, −2.6%, +8.8%) and FP8
  // on 64 H200 with CP 2 (+22.8%), all held out, nothing refitted: FP8/FP4 15.1% → 14.45% (69
  // runs), all 11.3% → 11.25% (186 runs). Twentieth session (2026-12-05), raised on purpose: four
  // more held-out rows of tpu-recipes' Ironwood table, gpt-oss-120b on 64 and 256 chips (−43%: the
  // published steps are 1.7× the predicted ones) and Llama 3.1 70B at 131,072 tokens in BF16 and FP8
  // (−41%, −45%), with the 70B and 405B BF16 rows' custom remat policies written as
  // recompute_fraction: held out MoE 16.3% → 19.0%, FSDP 10.2% → 11.5%, all 11.25% → 12.1% (190
  // runs), new evidence, not a change to the model. Then the Ironwood fitted (it had the A100's
  // 0.76, assumed) on three of its runs: the 70B pair at 8,192 and 131,072 tokens, which differ in
  // attention only (same tokens per step), and the 8,192-token FP8 run: gemm 0.8012, attention
  // 0.4189 of the jax stack's (the jax stack's 1.0, fitted where attention is a small share, is
  // not what a 131,072-token run sees), FP8 at the BF16 efficiency. The held-out 131,072-token FP8
  // run went −44.7% → +0.4%; held out dense 7.9% → 7.45%, FSDP 11.5% → 11.2%, FP8/FP4 14.8% →
  // 14.6%, all 12.1% → 12.0%, but MoE 19.0% → 20.15%: the Ironwood MoE runs had been predicted
  // with attention at the whole peak, which hid part of the dispatch cost's over-estimate there
  // (DeepSeek-V3 +4…+11% → +9…+15%, Qwen3-235B +39/+42% → +42/+48% too slow). Then five held-out
  // MLPerf v4.1 GPT-3 175B FP8 runs (64 B200 −14.3%; 256 and 512 H100 −3.4%, −1.4%; Oracle's 1,536
  // and 3,072 H100 +2.9%, +11.5%), no model change: held out FP8/FP4 14.6% → 14.0%, all 12.0% →
  // 11.8% (195 runs). Then, raised on purpose, the three Gemma 4 rows of the Ironwood table, held
  // out (31B dense −15.0%; 26B MoE +60.7% on 64 and 256 chips: the jax dispatch scale over-charges
  // its 704-wide experts), no model change: held out MoE 20.15% → 23.8%, FSDP 11.2% → 12.3%, dense
  // 7.45% → 7.6%, all 11.8% → 12.5% (198 runs). Twenty-first session: data-parallel collectives
  // hidden behind compute on a GPU cost 10% of their time (kOverlapContention, the SMs NCCL's
  // kernels take, as hidden TP and PP communication already did): held out dense 7.6% → 7.4%, FSDP
  // 12.3% → 12.0%, MoE 23.8% → 23.7%, FP8/FP4 14.0% → 12.7%, all 12.5% → 11.8%; worst FP8/FP4
  // 110.1% → 100.2%. In sample raised on purpose (dense 2.9% → 3.3%, FSDP 3.3% → 3.8%, FP8/FP4
  // 6.1% → 6.7%, all 3.7% → 4.1%): the chips' GEMM efficiencies were not refitted, because they
  // also set the serving model's prefill, and refitting them on training runs alone took serving's
  // held-out TTFT from 19.0% to 21.0% (docs/validation.md, seventeenth pass). Twenty-second
  // session: eight held-out Megatron-Core MoE runs on H100 (MoE Parallel Folding paper, Tables 1-3)
  // and expert TP's gather and scatter of the routed copies behind an all-to-all: held out MoE
  // 23.7% → 19.3% (30 runs), all 11.8% → 11.6% (206 runs); FP8/FP4 unchanged at 12.7% (65 runs).
  // Twenty-third session: each MoE run's all-to-all dispatch element written as its framework
  // sends it (BF16 for Megatron-Core's alltoall dispatcher, torchtitan, MaxText and DeepSeek-V2;
  // FP8 for DeepSeek-V3 only, as before), where the seed's FP8 default had applied unrecorded:
  // held out MoE 19.3% → 18.2%, FSDP 11.95% → 11.7%, all 11.6% → 11.4%; in sample MoE raised on
  // purpose, 3.6% → 4.6% (DeepSeek-V2 +0.1% → −2.3%, Mixtral 8x22B on v6e −5.5% → −6.1%: the H800
  // and the v6e were not refitted, for the serving reason above). Twenty-fourth session: a MoE
  // layer's FP8/FP4 casts and kept activations count every routed copy at the experts' own width
  // (moe_token_path), where ffn_hidden had stood for it: held out MoE 18.23% → 18.22%, FP8/FP4
  // 12.64% → 12.63%; FSDP raised on purpose, 11.71% → 11.80%, because the Ironwood MoE FP8 rows,
  // whose BF16 twins MaxText's dispatch scale already predicts too slow, now pay their casts too
  // (Qwen3-235B +42.3% → +46.6%, DeepSeek-V3 +13.2/+15.2% → +15.3/+17.3%), while the folding
  // paper's Mixtral FP8 rows go +12.2/+6.2% → +9.7/+0.6% and DeepSeek-V3 on H800 +2.0% → −0.9%.
  // Then the GB300 fitted on two of its four MLPerf runs (it had the A100's 0.76, assumed; the B300
  // carries its values as the same GPU): FP8/FP4 in sample 6.7% → 5.7% (14 runs), held out raised
  // on purpose, 12.63% → 12.80% (63 runs), because the two runs moved to the calibrate side were
  // predicted well (+4.8%, +7.6%) and the 405B NVFP4 row goes +0.8% → −8.6%; the worst run,
  // the 8B on 512 GB300, +100.2% → +92.9%; all held out 11.38% → 11.43%. Twenty-fifth session:
  // the Ironwood's own MoE dispatch speeds (dispatch_vs_stack on a Qwen3-235B run, the SparseCore
  // gather path on a DeepSeek-V3 run, both BF16, moved to the calibrate side) and the expert biases
  // a MaxText MoE layer gathers per routed copy (gpt-oss-120b): held out MoE 18.2% → 8.1% (28
  // runs), FSDP 11.8% → 8.7%, FP8/FP4 12.8% → 11.8%, all 11.4% → 9.5% (152 runs); in sample MoE
  // 4.6% → 2.7%, FSDP 3.8% → 3.6%, all 4.0% → 3.9%; worst MoE and FSDP 60.7% → 54.6% (torchtitan's
  // default all-to-all). Then the grouped GEMM's tile visits (gmm_tile_rows 512, the jax stack's
  // dispatch re-derived 17.1 → 17.8 on MaxText #1256, the TPU7x refitted): held out MoE 8.13% →
  // 7.97%, FSDP 8.72% → 8.68%, FP8/FP4 11.80% → 11.75%, all 9.48% → 9.45%; Llama 4 Maverick on v5p
  // −30.8% → −20.4%. Twenty-sixth session: sliding-window layers computed in whole attention blocks
  // (the recipes' splash blocks): Gemma 4 31B −15.0% → −5.4%, gpt-oss-120b −13.5% → −9.5% (×2),
  // Gemma 4 26B +0.3% → +6.2% (×2); two held-out rows added, Gemma 4 E2B and E4B (−15.0%, −16.2%).
  // Held out dense 7.43% → 7.53% (71 runs; 7.31% before the two new rows), MoE raised 7.97% →
  // 8.11%, FSDP 8.68% → 8.76%, all 9.45% → 9.49% (154 runs). Then MaxText's vocabulary GEMMs (the
  // one-hot embedding matmul of use_iota_embed in 57 of the 64 MaxText runs, the logits that
  // num_vocab_tiling > 1 recomputes in 7) and the Ironwood refitted on its five calibrate runs
  // (gemm 0.8012 → 0.8137, dispatch 0.3568 → 0.3657, SparseCore 0.5527 → 0.5589); the other chips
  // whose calibrate runs moved (v6e, v5e, v5p, B200 by +0.3% to +4.5%) not refitted: held out dense
  // 7.53% → 7.25%, FSDP 8.76% → 8.64%, FP8/FP4 11.75% → 11.74%, all 9.49% → 9.42%; MoE raised,
  // 8.11% → 8.34% (Gemma 4 26B +6.2% → +10.4%); in sample raised, all 3.86% → 4.02%, dense 3.3% →
  // 3.5%, FSDP 3.6% → 3.8%, MoE 2.7% → 2.8%, FP8/FP4 5.73% → 5.83%.
  const Limit limits[] = {
      {"dense_bf16", 0.0346, 0.0725, 0.521}, {"fsdp_zero3", 0.0384, 0.0864, 0.546}, {"moe", 0.0283, 0.0834, 0.546},
      {"fp8_fp4", 0.0583, 0.1174, 0.929},    {"all", 0.0402, 0.0942, 0.929},
  };
  const auto groups = group_errors(rows);
  for (const Limit& l : limits) {
    INFO(l.group);
    const auto g = std::find_if(groups.begin(), groups.end(), [&](const GroupError& e) { return e.group == l.group; });
    REQUIRE(g != groups.end());
    INFO("in sample " << g->in_sample_mae << ", held out " << g->out_of_sample_mae << ", worst " << g->worst);
    CHECK(g->in_sample_runs >= 3);  // MoE has three calibrate runs since the GB200 refit
    CHECK(g->out_of_sample_runs >= g->in_sample_runs);  // at least half of every group held out
    CHECK(g->in_sample_mae <= l.in_sample + 0.005);
    CHECK(g->out_of_sample_mae <= l.held_out + 0.005);
    CHECK(g->worst <= l.worst + 0.005);
  }
}

TEST_CASE("held-out FP8/BF16 speed-ups are predicted within 10% (docs/validation.md)", "[layout][validation][precision]") {
  std::map<std::string, ValidationRow> by_id;
  for (const auto& r : testutil::published_runs({"runs.json", "runs-extended.json"})) by_id[r.id] = r;
  // Same layout, same source, FP8 (tensorwise or MXFP8) against BF16; none of these was fitted on
  // (the GB200's dense torchtitan pair is its calibration pair since 2026-12-03; its MoE pair is held out).
  const std::pair<const char*, const char*> pairs[] = {
      {"tt25-llama31-70b-256-fp8tensorwise-tp8", "tt25-llama31-70b-256-bf16-tp8"},
      {"ao-llama3-8b-b200-8-fp8-tensorwise", "ao-llama3-8b-b200-8-bf16"},
      {"ao-llama3-8b-b200-8-mxfp8", "ao-llama3-8b-b200-8-bf16"},
      {"tt-llama4-scout-gb200-256-mxfp8", "tt-llama4-scout-gb200-256-bf16"}};
  for (const auto& [lp, bf] : pairs) {
    INFO(lp);
    REQUIRE(by_id.count(lp) == 1);
    REQUIRE(by_id.count(bf) == 1);
    REQUIRE_FALSE(by_id[lp].in_sample);
    const double measured = by_id[lp].observed / by_id[bf].observed;
    const double predicted = by_id[lp].predicted / by_id[bf].predicted;
    CHECK(std::fabs(predicted / measured - 1) < 0.10);
  }
}
