// The training view: memory (state floor, activations, per-device total for the layout),
// compute (6·N·D and a row per MFU point: device-hours, cost, cluster, domains) and power.
#pragma once
#include "widgets.h"

namespace sizer_web {

void training_panel(Ui& ui);

}  // namespace sizer_web
