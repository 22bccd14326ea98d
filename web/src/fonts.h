// Fonts for the web UI: Roboto (Regular, Medium) for text, JetBrains Mono for numbers, all subset
// at build time (web/CMakeLists.txt) and compiled into the binary, so the app loads no font files.
#pragma once

struct ImFont;

namespace sizer_web {

struct Fonts {
  ImFont* text = nullptr;     // Roboto Regular 15: labels, prose
  ImFont* small = nullptr;    // Roboto Regular 13: captions, units, sources
  ImFont* strong = nullptr;   // Roboto Medium 15: table headers, emphasis
  ImFont* heading = nullptr;  // Roboto Medium 18: section titles
  ImFont* big = nullptr;      // Roboto Medium 26: headline numbers
  ImFont* numbers = nullptr;  // JetBrains Mono 14: tables of numbers, formulas
};

// Rebuilds ImGui's font atlas for a device pixel ratio (fonts are rasterised at CSS size × dpr).
// Call before the first frame and whenever the ratio changes; the renderer's font texture must
// be recreated afterwards (ImGui_ImplOpenGL3_CreateFontsTexture).
Fonts load_fonts(float device_pixel_ratio);

}  // namespace sizer_web
