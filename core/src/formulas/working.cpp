// Number formatting for working strings (see working.h).
#include <cmath>
#include <cstdio>

#include "sizer/formulas/working.h"

namespace sizer {

std::string num(double value) {
  if (value == 0) return "0";
  if (std::isnan(value)) return "not defined";  // e.g. a cluster for a schedule out of reach
  if (std::isinf(value)) return value > 0 ? "unbounded" : "−unbounded";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", value);  // %g switches to exponent form when needed
  return buf;
}

}  // namespace sizer
