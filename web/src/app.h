// The calculator UI: owns the user's inputs and draws one ImGui frame of panels over them.
// Platform-free (no Emscripten, no GLFW): main.cpp owns the window and calls App::draw.
#pragma once

#include "fonts.h"

namespace sizer_web {

class App {
 public:
  // Draws the whole UI into a window of `width_px` × `height_px` framebuffer pixels.
  void draw(const Fonts& fonts, float width_px, float height_px);

 private:
  double params_ = 1e12;     // model parameters
  double tokens_ = 20e12;    // training tokens
};

}  // namespace sizer_web
