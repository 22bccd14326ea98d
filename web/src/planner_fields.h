// The Planner's layout editor: degrees, batch, switches, stack and recompute (training.layout),
// in planner tables of the field kit (input_fields.h; rects "planner:<path>").
#pragma once
#include "widgets.h"

namespace sizer_web {

void layout_editor(Ui& ui);

}  // namespace sizer_web
