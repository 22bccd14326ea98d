// The calculator UI: owns the scenario the user edits and the estimate computed from it, and
// draws one ImGui frame of panels over them. Platform-free (no Emscripten, no GLFW): main.cpp
// owns the window and calls App::draw.
#pragma once

#include "fonts.h"
#include "sizer/sizer.h"

namespace sizer_web {

class App {
 public:
  App();
  // Draws the whole UI into a window of `width_px` × `height_px` framebuffer pixels.
  void draw(const Fonts& fonts, float width_px, float height_px);

 private:
  sizer::Scenario scenario_;
  sizer::Estimate estimate_;
};

}  // namespace sizer_web
