// The sharing UI: top-bar buttons (Copy link, Embed, Export, Import, Custom hardware), the
// message line under the scenario, and the dialogs (link, embed snippet, custom hardware).
// Operations are in share_actions.h; this file only draws and forwards clicks.
#pragma once
#include "widgets.h"

namespace sizer_web {

// Width of the buttons drawn by share_buttons, for right-aligning the top bar.
float share_buttons_width(Ui& ui);
void share_buttons(Ui& ui);
// The last link/import/export message (errors in red), with a close button.
void share_banner(Ui& ui);
// Dialog windows; call after the main window has ended.
void share_windows(Ui& ui);

}  // namespace sizer_web
