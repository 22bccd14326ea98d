// How close the layout model's step time has come to published training runs it was not fitted
// on, by kind of run: the band a plan's predicted step time is quoted with.
//
// Each band is the central 80% of the held-out runs of one validation group (docs/validation.md),
// measured as time: the 10th and 90th percentiles of (published step ÷ predicted step − 1), so a
// plan's step is quoted as step × (1 + p10) to step × (1 + p90). Signed, because the misses lean one
// way (FP8/FP4 and MoE runs were more often slower than predicted than faster). `sizer validate`
// prints both per group (out_of_sample_step_error_p10, _p90) beside the 80th percentile of
// |predicted ÷ published − 1| (out_of_sample_p80_abs_error), and tests/test_layout_accuracy.cpp checks
// the table below against them, so the bands cannot drift from the validation set. A plan counts in
// every group it matches — a mixture-of-experts model, FP8/FP4 precision, ZeRO-3/FSDP, else dense
// BF16 — and takes the widest band of them. A band says how such runs have gone, not a bound: one
// run in ten of the kind was slower than its top, one in ten faster than its bottom.
#pragma once
#include <string>
#include <vector>

#include "sizer/formulas/hardware.h"
#include "sizer/formulas/model.h"

namespace sizer {

struct LayoutAccuracy {
  const char* group = "";  // the validation group: dense_bf16, fsdp_zero3, moe, fp8_fp4
  const char* label = "";  // as the planner says it: "dense BF16", "FSDP/ZeRO-3", "MoE", "FP8/FP4"
  int held_out_runs = 0;   // held-out published runs in the group
  double p80_abs_error = 0;  // 80% of them were within this fraction of the published figure
  double step_p10 = 0;       // 10% of them took less than (1 + step_p10) × the predicted step
  double step_p90 = 0;       // 10% of them took more than (1 + step_p90) × the predicted step
  double width() const { return step_p90 - step_p10; }
  // The band around a predicted step of `step_s` seconds.
  double step_low_s(double step_s) const { return step_s * (1 + step_p10); }
  double step_high_s(double step_s) const { return step_s * (1 + step_p90); }
};

// The bands, measured over the validation set on the date in layout_accuracy.cpp.
const std::vector<LayoutAccuracy>& layout_accuracy_table();

// The widest band among the groups a plan of this kind counts in.
LayoutAccuracy layout_accuracy(const Model& m, Precision p, int zero_stage);

// The band in words, as the views quote it: "−10.1% to +23.4% for 80% of 58 held-out FP8/FP4 runs".
std::string accuracy_phrase(const LayoutAccuracy& a);

// A signed fraction as a percentage with its sign: "+23.4%", "−10.1%".
std::string signed_percent(double fraction);

}  // namespace sizer
