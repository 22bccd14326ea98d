// Number formatting for working strings (see working.h).
#include <cmath>
#include <cstdio>

#include "sizer/working.h"

namespace sizer {

std::string num(double value) {
  char buf[32];
  const double a = std::fabs(value);
  if (value == 0) return "0";
  if (a >= 1e-3 && a < 1e6) {
    std::snprintf(buf, sizeof buf, "%.4g", value);
  } else {
    std::snprintf(buf, sizeof buf, "%.4g", value);  // %g switches to exponent form itself
  }
  return buf;
}

}  // namespace sizer
