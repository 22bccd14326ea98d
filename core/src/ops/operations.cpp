// Names of the operations inputs' enumerations (sizer/ops/operations.h, sizer/ops/uncertainty.h).
#include "sizer/ops/operations.h"
#include "sizer/ops/uncertainty.h"

namespace sizer {

const char* to_string(CheckpointMode m) { return m == CheckpointMode::sync ? "sync" : "async"; }

const char* to_string(Distribution d) { return d == Distribution::triangular ? "triangular" : "uniform"; }

}  // namespace sizer
