// The page glue of sharing (Emscripten only, like main.cpp): listens for the address bar
// (back/forward, edited fragments), dropped, pasted and picked files or text, reads the stored custom
// tables and an offline copy's preloaded scenario, and carries out the app's PageActions
// (clipboard, downloads, history, local storage, PNG of the canvas, offline copy). The JS side
// only moves text: every parser and check is the core's, called from share_actions.h.
#pragma once
#include "app_state.h"

namespace sizer_web {

// Installs the page listeners; call once before the main loop.
void page_io_install();
// Before drawing a frame: handles what the page reported and updates the address bar.
void page_io_poll(AppState& state);
// After rendering a frame (the canvas still holds it): carries out queued PageActions.
void page_io_flush(AppState& state);

}  // namespace sizer_web
