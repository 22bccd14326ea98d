// Browser wheel and trackpad events in Dear ImGui's wheel units (platform-free; main.cpp feeds it).
//
// Emscripten 3.1.6's GLFW hands the raw DOM deltas to ImGui: a 100 px notch becomes 100 wheel
// units in the wrong direction, and every panel jumps to its end. Here a DOM WheelEvent's
// deltaX/deltaY in its deltaMode (pixels, lines or pages) become ImGui units, where one unit
// scrolls 5 × the font size (ImGui 1.86, ImGui::UpdateMouseWheel) and positive means up / left:
// content moves by the distance the browser would have scrolled a page, in the direction it would
// have, and the small pixel deltas of a trackpad give fractional units, so it stays smooth.
// Horizontal units are 2 × the font size in ImGui, so x is scaled to cover the same distance.
// With Shift held ImGui reads io.MouseWheel as horizontal and ignores io.MouseWheelH, while the
// browser has already turned a Shift+wheel into deltaX: both deltas go to y then, which ImGui
// turns sideways.
#pragma once

namespace sizer_web {

enum class WheelDeltaMode { pixel = 0, line = 1, page = 2 };  // DOM WheelEvent.deltaMode

struct WheelUnits {
  float x = 0, y = 0;  // add to io.MouseWheelH and io.MouseWheel
};

// dx, dy: the event's deltaX and deltaY (positive: right, down); font_px: the UI font size in
// physical pixels; dpr: devicePixelRatio; view_px: the canvas height in physical pixels (one page);
// shift: the Shift key is held.
WheelUnits wheel_units(double dx, double dy, WheelDeltaMode mode, float font_px, float dpr, float view_px,
                       bool shift = false);

// A finger's drag of dx, dy physical pixels (positive: right, down) as ImGui wheel units that move
// the content with the finger by the same distance: ImGui's steps are whole pixels, 5 × font_px
// down and 2 × font_px across (panels shorter than 1.5 steps scroll less).
WheelUnits drag_units(float dx, float dy, float font_px);

}  // namespace sizer_web
