// The layout model's accuracy bands (see sizer/layout/layout_accuracy.h).
// Source: `sizer validate` over docs/validation/runs{,-extended,-chips,-moe,-fsdp}.json, measured
// on 2026-12-06 (208 runs, 154 held out, after the Ironwood fit, MLPerf v4.1, Gemma 4, the SMs that
// hidden data-parallel collectives take on GPUs, the eight MoE Parallel Folding rows on H100,
// each MoE run's all-to-all element size as its framework sends it, the casts and activations of every
// routed copy, the Ironwood's own MoE dispatch speeds, expert-bias gathers, grouped-GEMM tiles, whole
// attention blocks in sliding-window layers, the held-out Gemma 4 E2B and E4B rows and MaxText's
// vocabulary GEMMs (one-hot embedding matmul, recomputed logits);
// docs/validation/results.md). Each row is that group's held-out run count,
// out_of_sample_p80_abs_error, out_of_sample_step_error_p10 and _p90; tests/test_layout_accuracy.cpp
// recomputes them.
#include "sizer/layout/layout_accuracy.h"

#include <cmath>
#include <string>

#include "sizer/formulas/format.h"

namespace sizer {

const std::vector<LayoutAccuracy>& layout_accuracy_table() {
  static const std::vector<LayoutAccuracy> table = {
      {"dense_bf16", "dense BF16", 71, 0.094, -0.078, 0.104},
      {"fsdp_zero3", "FSDP/ZeRO-3", 98, 0.098, -0.075, 0.134},
      {"moe", "MoE", 28, 0.105, -0.100, 0.103},
      {"fp8_fp4", "FP8/FP4", 63, 0.141, -0.111, 0.181},
  };
  return table;
}

LayoutAccuracy layout_accuracy(const Model& m, Precision p, int zero_stage) {
  const bool moe = m.moe.enabled(), low = p == Precision::fp8 || p == Precision::fp4, fsdp = zero_stage >= 3;
  LayoutAccuracy widest;
  for (const LayoutAccuracy& a : layout_accuracy_table()) {
    const std::string g = a.group;
    const bool in = (g == "moe" && moe) || (g == "fp8_fp4" && low) || (g == "fsdp_zero3" && fsdp) ||
                    (g == "dense_bf16" && !moe && !low && !fsdp);
    if (in && a.width() > widest.width()) widest = a;
  }
  return widest;
}

std::string signed_percent(double f) { return (f < 0 ? "−" : "+") + fmt::percent(std::fabs(f)); }

std::string accuracy_phrase(const LayoutAccuracy& a) {
  return signed_percent(a.step_p10) + " to " + signed_percent(a.step_p90) + " for 80% of " +
         fmt::count(a.held_out_runs) + " held-out " + a.label + " runs";
}

}  // namespace sizer
