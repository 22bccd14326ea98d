// The charts view, drawn with ImGui draw lists (no plotting library): training memory stack per
// ZeRO stage against device HBM; device-hours (or cost) across MFU per chip; experts touched
// against batch; decode step time and tokens/s against batch with the point where compute binds.
// Data comes from chart_data.h; hovering a chart shows the values under the mouse.
#pragma once
#include "widgets.h"

namespace sizer_web {

void charts_panel(Ui& ui);

}  // namespace sizer_web
