// The browser wheel's deltas in Dear ImGui's units (web/src/wheel.cpp): pixel,
// line and page modes, sign, Shift for sideways, and runaway events capped. Platform-free, so it
// is built natively here as well as in the page.
#include <catch2/catch.hpp>

#include <limits>

#include "../web/src/wheel.h"

using sizer_web::WheelDeltaMode;
using sizer_web::wheel_units;

namespace {
constexpr float kFont = 16, kDpr = 1, kView = 800;
// ImGui 1.86 moves a window by 5 × font px per vertical unit and 2 × font px per horizontal unit.
float down_px(float units) { return -units * 5 * kFont; }
float right_px(float units) { return -units * 2 * kFont; }
}  // namespace

TEST_CASE("wheel: a pixel-mode notch scrolls the page's distance, the page's way", "[web][wheel]") {
  const auto u = wheel_units(0, 100, WheelDeltaMode::pixel, kFont, kDpr, kView);
  CHECK(u.x == 0);
  CHECK(down_px(u.y) == Approx(100));  // 100 CSS px down → content 100 px down, not 100 lines up
  const auto up = wheel_units(0, -100, WheelDeltaMode::pixel, kFont, kDpr, kView);
  CHECK(down_px(up.y) == Approx(-100));
  // A trackpad's small deltas give fractional units (smooth), and add up to the same distance.
  float total = 0;
  for (int i = 0; i < 10; ++i) total += wheel_units(0, 10, WheelDeltaMode::pixel, kFont, kDpr, kView).y;
  CHECK(down_px(total) == Approx(100));
  // At devicePixelRatio 2 a CSS pixel is two physical ones (the font size is in physical px).
  CHECK(-wheel_units(0, 100, WheelDeltaMode::pixel, 2 * kFont, 2, kView).y * 5 * 2 * kFont == Approx(200));
}

TEST_CASE("wheel: line and page modes", "[web][wheel]") {
  CHECK(down_px(wheel_units(0, 3, WheelDeltaMode::line, kFont, kDpr, kView).y) == Approx(3 * kFont));
  CHECK(down_px(wheel_units(0, 1, WheelDeltaMode::page, kFont, kDpr, kView).y) == Approx(kView));
  CHECK(down_px(wheel_units(0, -1, WheelDeltaMode::page, kFont, kDpr, kView).y) == Approx(-kView));
}

TEST_CASE("wheel: sideways, with a trackpad's deltaX or with Shift", "[web][wheel]") {
  const auto h = wheel_units(100, 0, WheelDeltaMode::pixel, kFont, kDpr, kView);
  CHECK(h.y == 0);
  CHECK(right_px(h.x) == Approx(100));  // deltaX right → content 100 px right, at ImGui's 2-font step
  // Shift: ImGui reads only io.MouseWheel (as horizontal); the browser may already have moved the
  // delta to deltaX. Either way the sideways distance is the event's.
  const auto shifted_x = wheel_units(100, 0, WheelDeltaMode::pixel, kFont, kDpr, kView, true);
  CHECK(shifted_x.x == 0);
  CHECK(right_px(shifted_x.y) == Approx(100));
  const auto shifted_y = wheel_units(0, -60, WheelDeltaMode::pixel, kFont, kDpr, kView, true);
  CHECK(right_px(shifted_y.y) == Approx(-60));
}

TEST_CASE("wheel: runaway and invalid deltas never jump", "[web][wheel]") {
  const auto huge = wheel_units(0, 1e9, WheelDeltaMode::pixel, kFont, kDpr, kView);
  CHECK(huge.y == -20);  // at most 20 units (100 lines) per event
  const auto nan = wheel_units(0, std::numeric_limits<double>::quiet_NaN(), WheelDeltaMode::pixel, kFont, kDpr, kView);
  CHECK(nan.y == 0);
  const auto inf = wheel_units(-std::numeric_limits<double>::infinity(), 0, WheelDeltaMode::line, kFont, kDpr, kView);
  CHECK(inf.x == 0);
}
