// The custom hardware dialog: the user's own devices, systems and prices, saved in this browser
// (share_actions.h adds and removes the rows; this file draws the form and the saved list).
#pragma once
#include "widgets.h"

namespace sizer_web {

// The dialog, while ShareState::custom_open; call after the main window has ended.
void custom_window(Ui& ui);
// Centres the next window on the display, `w` × `h` CSS px, when it appears (share_panel.cpp).
void centre_next(Ui& ui, float w, float h);

}  // namespace sizer_web
