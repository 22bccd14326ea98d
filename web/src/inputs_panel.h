// The inputs panel (left column): model, hardware, training, serving, price and power blocks.
// Every widget edits the scenario draft by JSON path through scenario_edit.h; problems the core
// reports are shown next to the field they belong to.
#pragma once
#include "widgets.h"

namespace sizer_web {

void inputs_panel(Ui& ui);

}  // namespace sizer_web
