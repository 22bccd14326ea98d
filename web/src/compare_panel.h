// "Compare chips": the scenario's model on every bundled device, at the chosen precisions and
// every MFU point (like the seed post's training tables), as one sortable table. Rows come from
// sizer::compare_devices and are rebuilt only when the scenario or the precision set changes.
#pragma once
#include "widgets.h"

namespace sizer_web {

void compare_panel(Ui& ui);

}  // namespace sizer_web
