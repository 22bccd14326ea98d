// Names of the enums in units.h, training_options.h and model.h, as used in the JSON contract.
#include <cmath>
#include <cstring>

#include "sizer/formulas/model.h"
#include "sizer/formulas/training_options.h"
#include "sizer/formulas/units.h"

namespace sizer {

double ceil_count(double x) {
  const double whole = std::floor(x);
  if (x == whole) return whole;
  // Any positive requirement below one needs one; FP noise above a whole count does not count.
  return (whole >= 1 && x - whole <= 1e-9) ? whole : whole + 1;
}

const char* to_string(Precision p) {
  switch (p) {
    case Precision::fp32: return "fp32";
    case Precision::bf16: return "bf16";
    case Precision::fp16: return "fp16";
    case Precision::fp8: return "fp8";
    case Precision::fp4: return "fp4";
  }
  return "?";
}

bool parse_precision(const char* text, Precision* out) {
  static const Precision kAll[] = {Precision::fp32, Precision::bf16, Precision::fp16,
                                   Precision::fp8, Precision::fp4};
  for (Precision p : kAll) {
    if (std::strcmp(text, to_string(p)) == 0) {
      *out = p;
      return true;
    }
  }
  return false;
}

const char* to_string(AttentionKind k) {
  switch (k) {
    case AttentionKind::mha: return "mha";
    case AttentionKind::gqa: return "gqa";
    case AttentionKind::mla: return "mla";
  }
  return "?";
}

const char* to_string(Recompute r) {
  switch (r) {
    case Recompute::none: return "none";
    case Recompute::selective: return "selective";
    case Recompute::full: return "full";
  }
  return "?";
}

const char* to_string(PpSchedule p) {
  switch (p) {
    case PpSchedule::one_f_one_b: return "1f1b";
    case PpSchedule::zero_bubble: return "zero_bubble";
    case PpSchedule::dualpipe: return "dualpipe";
  }
  return "?";
}

const char* to_string(EpDispatcher e) {
  switch (e) {
    case EpDispatcher::alltoall: return "alltoall";
    case EpDispatcher::deepep: return "deepep";
  }
  return "?";
}

const char* to_string(Optimizer o) {
  switch (o) {
    case Optimizer::adam_mixed: return "adam_mixed";
    case Optimizer::adam_fp8: return "adam_fp8";
  }
  return "?";
}

}  // namespace sizer
