// The overview: the headline answers as cards (training state floor, devices for the schedule,
// cost range, power, serving replica, decode ceiling, cost per million tokens, fleet size), then
// the core's notes and warnings. Every number shows its working on hover.
#pragma once
#include "widgets.h"

namespace sizer_web {

void overview_panel(Ui& ui);

}  // namespace sizer_web
