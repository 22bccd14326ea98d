// Fonts for the web UI: Roboto for text, JetBrains Mono for numbers, both subset at build time
// (web/CMakeLists.txt) and compiled into the binary, so the app loads no font files.
#pragma once

struct ImFont;

namespace sizer_web {

struct Fonts {
  ImFont* text = nullptr;     // Roboto Regular: labels, prose
  ImFont* numbers = nullptr;  // JetBrains Mono Regular: tables of numbers, formulas
};

// Rebuilds ImGui's font atlas for a device pixel ratio (fonts are rasterised at CSS size × dpr).
// Call before the first frame and whenever the ratio changes; the renderer's font texture must
// be recreated afterwards (ImGui_ImplOpenGL3_CreateFontsTexture).
Fonts load_fonts(float device_pixel_ratio);

}  // namespace sizer_web
