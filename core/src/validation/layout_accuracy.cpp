// The layout model's accuracy bands (see sizer/layout_accuracy.h).
// Source: `sizer validate` over docs/validation/runs{,-extended,-chips,-moe,-fsdp}.json, measured
// on 2026-12-04 (186 runs, 139 held out; docs/validation/results.md). Each value is that group's
// out_of_sample_p80_abs_error and held-out run count; tests/test_layout_accuracy.cpp recomputes them.
#include "sizer/layout_accuracy.h"

#include <string>

#include "sizer/format.h"

namespace sizer {

const std::vector<LayoutAccuracy>& layout_accuracy_table() {
  static const std::vector<LayoutAccuracy> table = {
      {"dense_bf16", "dense BF16", 69, 0.102},
      {"fsdp_zero3", "FSDP/ZeRO-3", 94, 0.125},
      {"moe", "MoE", 18, 0.251},
      {"fp8_fp4", "FP8/FP4", 58, 0.184},
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
    if (in && a.p80_abs_error > widest.p80_abs_error) widest = a;
  }
  return widest;
}

std::string accuracy_phrase(const LayoutAccuracy& a) {
  return u8"±" + fmt::percent(a.p80_abs_error) + " for 80% of " + fmt::count(a.held_out_runs) + " held-out " + a.label +
         " runs";
}

}  // namespace sizer
