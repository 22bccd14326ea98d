// Collectives on a device's links (sources in sizer/formulas/collectives.h).
#include "sizer/formulas/collectives.h"

namespace sizer {

const char* to_string(Link l) {
  switch (l) {
    case Link::none: return "none";
    case Link::scale_up: return "scale_up";
    case Link::scale_out: return "scale_out";
  }
  return "?";
}

}  // namespace sizer
