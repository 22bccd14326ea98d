// Wheel and trackpad deltas to ImGui units (see wheel.h).
#include "wheel.h"

#include <algorithm>
#include <cmath>

namespace sizer_web {

namespace {
constexpr float kImGuiLinesPerUnit = 5.0f;  // ImGui 1.86 scrolls 5 × font size per wheel unit
constexpr float kImGuiColumnsPerUnit = 2.0f;  // and 2 × font size per horizontal unit
constexpr float kMaxUnitsPerEvent = 20.0f;  // a runaway device never jumps more than 100 lines
}  // namespace

WheelUnits wheel_units(double dx, double dy, WheelDeltaMode mode, float font_px, float dpr, float view_px,
                       bool shift) {
  const float unit_px = std::max(1.0f, kImGuiLinesPerUnit * font_px);  // physical pixels per unit
  float px_per_delta = 1.0f;
  switch (mode) {
    case WheelDeltaMode::pixel: px_per_delta = std::max(0.5f, dpr); break;  // CSS px → physical px
    case WheelDeltaMode::line: px_per_delta = font_px; break;
    case WheelDeltaMode::page: px_per_delta = std::max(1.0f, view_px); break;
  }
  auto convert = [&](double d) {
    if (!std::isfinite(d)) return 0.0f;
    const float u = static_cast<float>(-d) * px_per_delta / unit_px;  // DOM down = ImGui negative
    return std::clamp(u, -kMaxUnitsPerEvent, kMaxUnitsPerEvent);
  };
  const float sideways = kImGuiLinesPerUnit / kImGuiColumnsPerUnit;  // same distance in 2-font units
  if (shift) return {0.0f, std::clamp((convert(dx) + convert(dy)) * sideways, -kMaxUnitsPerEvent, kMaxUnitsPerEvent)};
  return {std::clamp(convert(dx) * sideways, -kMaxUnitsPerEvent, kMaxUnitsPerEvent), convert(dy)};
}

WheelUnits drag_units(float dx, float dy, float font_px) {
  const float down = std::max(1.0f, std::floor(kImGuiLinesPerUnit * font_px));  // ImGui floors its step
  const float across = std::max(1.0f, std::floor(kImGuiColumnsPerUnit * font_px));
  auto finite = [](float v) { return std::isfinite(v) ? v : 0.0f; };
  return {finite(dx) / across, finite(dy) / down};  // finger down = content down = wheel up (+)
}

}  // namespace sizer_web
