// How close the layout model's step time has come to published training runs it was not fitted
// on, by kind of run: the band a plan's predicted step time is quoted with.
//
// Each band is the 80th percentile of |predicted ÷ published − 1| over the held-out runs of one
// validation group (docs/validation.md; `sizer validate` prints it per group as
// out_of_sample_p80_abs_error, and tests/test_layout_accuracy.cpp checks the table below against
// it, so the bands cannot drift from the validation set). A plan counts in every group it matches —
// a mixture-of-experts model, FP8/FP4 precision, ZeRO-3/FSDP, else dense BF16 — and takes the widest
// band of them. A band says how such runs have gone, not a bound: one run in five of the kind was
// further off.
#pragma once
#include <string>
#include <vector>

#include "sizer/hardware.h"
#include "sizer/model.h"

namespace sizer {

struct LayoutAccuracy {
  const char* group = "";  // the validation group: dense_bf16, fsdp_zero3, moe, fp8_fp4
  const char* label = "";  // as the planner says it: "dense BF16", "FSDP/ZeRO-3", "MoE", "FP8/FP4"
  int held_out_runs = 0;   // held-out published runs in the group
  double p80_abs_error = 0;  // 80% of them were within this fraction of the published figure
};

// The bands, measured over the validation set on the date in layout_accuracy.cpp.
const std::vector<LayoutAccuracy>& layout_accuracy_table();

// The widest band among the groups a plan of this kind counts in.
LayoutAccuracy layout_accuracy(const Model& m, Precision p, int zero_stage);

// The band in words, as the views quote it: "±18.4% for 80% of 58 held-out FP8/FP4 runs".
std::string accuracy_phrase(const LayoutAccuracy& a);

}  // namespace sizer
