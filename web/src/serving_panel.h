// The serving view: weights and KV cache, replica size, the decode ceiling (bandwidth or compute
// bound), prefill and KV transfer, cost per million tokens and fleet size with headroom.
#pragma once
#include "widgets.h"

namespace sizer_web {

void serving_panel(Ui& ui);

}  // namespace sizer_web
