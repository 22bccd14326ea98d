// Shared declarations of the `sizer` CLI's commands (a thin front end over core/).
#pragma once
#include <string>
#include <vector>

#include "sizer/validation/calibration.h"
#include "sizer/contract/json_safe.h"
#include "sizer/validation/serve_validation.h"
#include "sizer/sizer.h"
#include "sizer/contract/user_text.h"

namespace sizer::cli {

// Text report of an estimate with its working (`sizer report`).
std::string text_report(const Scenario& s, const Estimate& e, const std::vector<Issue>& warnings);

// Comparison table in "text" | "csv" | "json" | "markdown".
std::string render_table(const std::vector<ComparisonRow>& rows, const std::string& format);

// Validation table (predicted vs published) in "text" | "markdown" | "json".
std::string render_validation(const std::vector<ValidationRow>& rows, const std::string& format);

// Serving validation (sizer.serving_validation.v1): per-metric error summary, then every
// comparison, in "text" | "markdown" | "json".
std::string render_serving_validation(const std::vector<ServeValidationRow>& rows, const std::string& format);

// Per-chip fit on the runs marked calibrate, the error of every group after it, and (loso) the
// leave-one-source-out error per group, as markdown (`sizer calibrate`).
std::string render_calibration(std::vector<ValidationRow>* rows, const std::vector<std::string>& devices,
                               const std::vector<std::string>& params, bool loso);

}  // namespace sizer::cli
