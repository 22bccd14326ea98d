// The page side of touch input: what a finger does on the canvas, as the browser
// reports it, queued for main.cpp's apply_touch (TouchScroll, touch_scroll.h) — and kept from
// Emscripten's GLFW, which would press at the pointer's last position. Taps still reach GLFW and
// ImGui as the browser's own mouse events for them; drags and long presses do not.
//
//   touch_page_install(8.0, TouchScroll::kLongPressSeconds * 1000);  // once, at start-up
//   Module.sizerTouchQueue: [kind, x, y, t]...  (kind 0 down, 1 move, 2 up, 3 cancel)
#pragma once

namespace sizer_web {

// slop_css: CSS px a finger may wander and still tap; long_ms: a finger held this long without
// moving is a long press, not a tap.
void touch_page_install(double slop_css, double long_ms);

}  // namespace sizer_web
