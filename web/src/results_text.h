// The headline results as plain text, mirrored into the page (main.cpp puts it in an aria-live
// element) so screen readers can read it, Ctrl+F can find it and it can be copied. Same numbers
// and formatting as the overview cards.
#pragma once
#include <string>

#include "app_state.h"

namespace sizer_web {

std::string results_text(const AppState& state);

}  // namespace sizer_web
