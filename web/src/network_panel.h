// The communication view: the method's four interconnect cases (DP all-reduce, PP boundary,
// TP all-reduce in decode, MoE all-to-all) with sizes, times, rates and a verdict each, plus the
// checkpoint write time.
#pragma once
#include "widgets.h"

namespace sizer_web {

void network_panel(Ui& ui);

}  // namespace sizer_web
