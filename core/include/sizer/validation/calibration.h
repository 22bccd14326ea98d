// Calibration of the layout model's per-chip efficiency parameters against published runs, and
// leave-one-source-out validation (docs/validation.md).
//
// A fit minimises the mean absolute error of the chosen runs' predictions over the named device
// parameters (coordinate descent: a grid over each parameter's range, then golden-section
// refinement, repeated until no parameter moves). Leave-one-source-out refits each chip without
// one publication's runs and predicts that publication, so every run gets an out-of-sample
// prediction; chips with no other publication keep their bundled parameters (reported as such).
#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "sizer/validation/validation.h"

namespace sizer {

// Parameters a fit may move, each within a physical range: the chip's gemm, gemm_half_width,
// attention, memory_bound_factor, link, layer_overhead_s, and the software stack's
// stack.memory_bound_scale, stack.attention, stack.layer_overhead_s.
const std::vector<std::string>& fittable_parameters();
bool is_fittable(const std::string& name);

struct FitResult {
  std::string device;  // or the stack id
  bool stack = false;
  std::vector<std::pair<std::string, double>> values;  // fitted value per parameter
  int runs = 0;                                          // runs the fit used
  double mae_before = 0, mae_after = 0;                  // over those runs
};

// Fits the chip parameters among `params` on the rows `use` accepts among those run on device
// `device_id`; every row on that device (held out too) gets the fitted values and is re-evaluated.
FitResult fit_device(std::vector<ValidationRow>* rows, const std::string& device_id,
                     const std::vector<std::string>& params, const std::function<bool(const ValidationRow&)>& use);
// The same for the stack parameters among `params`, over the rows run on stack `stack_id`.
FitResult fit_stack(std::vector<ValidationRow>* rows, const std::string& stack_id,
                    const std::vector<std::string>& params, const std::function<bool(const ValidationRow&)>& use);

// Fits every stack in `stacks` and every chip in the rows, alternating (a stack's runs span chips
// and a chip's span stacks) for a few rounds, on the rows `use` accepts.
std::vector<FitResult> fit_all(std::vector<ValidationRow>* rows, const std::vector<std::string>& params,
                               const std::vector<std::string>& stacks,
                               const std::function<bool(const ValidationRow&)>& use);

struct LosoRow {
  std::string id, source_key, device, group;
  std::vector<std::string> also;
  double error = 0;       // leave-one-source-out error
  bool refitted = false;  // false: no other source on the chip, bundled parameters used
};

// Every run predicted with the `stacks`' and then its chip's `params` fitted on all other
// publications' runs.
std::vector<LosoRow> leave_one_source_out(const std::vector<ValidationRow>& rows, const std::vector<std::string>& params,
                                          const std::vector<std::string>& stacks);

}  // namespace sizer
