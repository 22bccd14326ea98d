// Light and dark themes: ImGui style colours plus the palette the panels and charts draw with.
// apply_theme() sets ImGui's style for a theme and a device pixel ratio; the Palette is the
// source of every colour a panel uses (no colour literals in panels).
#pragma once
#include "imgui.h"

namespace sizer_web {

struct Palette {
  ImU32 text, muted, faint, accent, accent_soft, good, warn, bad, card, card_border, grid, hover;
  ImU32 series[8];  // chart series, colour-blind friendly order
  ImVec4 clear;     // canvas background
};

// Sets ImGui's style (sizes scaled by `dpr`) and returns the palette of the theme.
Palette apply_theme(bool dark, float dpr);

}  // namespace sizer_web
