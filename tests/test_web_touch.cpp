// One-finger touch gestures of the page (web/src/touch_scroll.cpp): a drag moves
// the content with the finger 1:1, a flick glides on and slows exponentially, a finger that
// wanders less than the slop is still a tap, and one held still for half a second is a long press
// (the working tooltip) that never drags. Platform-free, so built natively as well as in the page.
#include <catch2/catch.hpp>

#include <cmath>

#include "../web/src/touch_scroll.h"
#include "../web/src/wheel.h"

using sizer_web::TouchScroll;

namespace {
constexpr float kSlop = 16;        // physical px (8 CSS px at devicePixelRatio 2)
constexpr double kFrame = 1.0 / 60;

// Steps the gesture from t0 to t1 at 60 frames a second; returns the total movement.
TouchScroll::Step run(TouchScroll& g, double t0, double t1, int* long_presses = nullptr) {
  TouchScroll::Step total;
  for (double t = t0; t <= t1 + 1e-9; t += kFrame) {
    const TouchScroll::Step s = g.step(t);
    total.dx += s.dx;
    total.dy += s.dy;
    if (s.long_press && long_presses) ++*long_presses;
  }
  return total;
}

// A finger from (x, y) moved by (dx, dy) in `n` samples over `seconds`, stepping a frame after each.
void drag(TouchScroll& g, float x, float y, float dx, float dy, int n, double t0, double seconds, TouchScroll::Step* moved) {
  g.start(x, y, t0, kSlop);
  for (int i = 1; i <= n; ++i) {
    const double t = t0 + seconds * i / n;
    g.move(x + dx * i / n, y + dy * i / n, t);
    const TouchScroll::Step s = g.step(t);
    moved->dx += s.dx;
    moved->dy += s.dy;
  }
}
}  // namespace

TEST_CASE("touch: a drag moves the content with the finger, 1:1, in whole pixels", "[web][touch]") {
  TouchScroll g;
  TouchScroll::Step moved;
  drag(g, 100, 400, 0, -150, 10, 1.0, 0.4, &moved);
  CHECK(g.dragging());
  CHECK(moved.dx == 0);
  CHECK(moved.dy == -150);  // finger up 150 px: content up 150 px
  CHECK(g.anchor_x() == 100);  // the pointer ImGui sees stays where the finger went down
  CHECK(g.anchor_y() == 400);
  // Sideways too (a wide table): the same 1:1 following on x.
  TouchScroll h;
  TouchScroll::Step side;
  drag(h, 300, 200, -120.5f, 0, 8, 1.0, 0.3, &side);
  CHECK(side.dx == -120);  // the half pixel waits for the next frame
  CHECK(side.dy == 0);
}

TEST_CASE("touch: drag_units turns the finger's pixels into the wheel units ImGui scrolls by", "[web][touch]") {
  const float font = 32;  // 16 CSS px at devicePixelRatio 2
  const auto u = sizer_web::drag_units(-60, 150, font);
  // ImGui 1.86 moves floor(5 × font) px per vertical unit and floor(2 × font) px per horizontal one.
  CHECK(u.y * std::floor(5 * font) == Approx(150));  // finger down → content down → wheel up (+)
  CHECK(u.x * std::floor(2 * font) == Approx(-60));
  CHECK(sizer_web::drag_units(NAN, INFINITY, font).x == 0);
  CHECK(sizer_web::drag_units(NAN, INFINITY, font).y == 0);
}

TEST_CASE("touch: a finger that wanders less than the slop is a tap, not a drag", "[web][touch]") {
  TouchScroll g;
  g.start(50, 50, 2.0, kSlop);
  g.move(55, 58, 2.05);  // about 9.4 px: inside the slop
  CHECK_FALSE(g.dragging());
  const TouchScroll::Step s = g.step(2.05);
  CHECK(s.dx == 0);
  CHECK(s.dy == 0);
  g.end(2.1);
  CHECK_FALSE(g.gliding());
  CHECK_FALSE(g.long_pressed());
  // Just past the slop it is a drag, and the content then follows the whole way from the start.
  g.start(50, 50, 3.0, kSlop);
  g.move(50, 50 + kSlop + 1, 3.05);
  CHECK(g.dragging());
  CHECK(g.step(3.05).dy == kSlop + 1);
}

TEST_CASE("touch: a flick glides on with the finger's speed and slows exponentially to a stop", "[web][touch]") {
  TouchScroll g;
  TouchScroll::Step moved;
  drag(g, 100, 600, 0, -100, 10, 1.0, 0.1, &moved);  // 1000 px/s up
  g.end(1.1);
  REQUIRE(g.gliding());
  const TouchScroll::Step first = run(g, 1.1 + kFrame, 1.1 + 0.325);
  // After one time constant the glide has covered v·τ·(1 − 1/e) ≈ 205 px, the finger's way.
  CHECK(first.dy < 0);
  CHECK(-first.dy == Approx(1000 * 0.325 * (1 - std::exp(-1.0))).margin(20));
  const TouchScroll::Step rest = run(g, 1.1 + 0.325 + kFrame, 6.0);
  CHECK_FALSE(g.gliding());  // stopped
  // In all: v·τ = 325 px, less the tail below the stop speed.
  CHECK(-(first.dy + rest.dy) == Approx(325).margin(12));
  // A stalled frame (a hidden tab) moves at most a tenth of a second's glide, not to the end.
  TouchScroll h;
  TouchScroll::Step unused;
  drag(h, 100, 600, 0, -100, 10, 1.0, 0.1, &unused);
  h.end(1.1);
  CHECK(-h.step(30.0).dy <= 1000 * 0.1);
}

TEST_CASE("touch: no glide after a finger rested before lifting; a finger on a glide stops it", "[web][touch]") {
  TouchScroll g;
  TouchScroll::Step moved;
  drag(g, 100, 600, 0, -100, 10, 1.0, 0.1, &moved);
  g.end(1.35);  // lifted 250 ms after the last move
  CHECK_FALSE(g.gliding());
  TouchScroll f;
  drag(f, 100, 600, 0, -100, 10, 1.0, 0.1, &moved);
  f.end(1.1);
  REQUIRE(f.gliding());
  f.start(100, 300, 1.2, kSlop);  // touches the gliding panel
  CHECK_FALSE(f.gliding());
  CHECK(f.step(1.25).dy == 0);
  // A second finger (a pinch) cancels: no drag, no glide.
  TouchScroll c;
  drag(c, 100, 600, 0, -100, 10, 1.0, 0.1, &moved);
  c.cancel();
  c.end(1.1);
  CHECK_FALSE(c.gliding());
  CHECK_FALSE(c.dragging());
}

TEST_CASE("touch: a finger held still for half a second is a long press, reported once", "[web][touch]") {
  TouchScroll g;
  g.start(200, 300, 5.0, kSlop);
  CHECK_FALSE(g.step(5.0 + TouchScroll::kLongPressSeconds - 0.01).long_press);
  CHECK_FALSE(g.long_pressed());
  g.move(203, 302, 5.45);  // a resting finger trembles a little
  CHECK(g.step(5.0 + TouchScroll::kLongPressSeconds).long_press);
  CHECK(g.long_pressed());
  CHECK_FALSE(g.step(5.6).long_press);  // once
  // Moving after the long press does not turn it into a drag: nothing scrolls.
  g.move(200, 380, 5.7);
  CHECK_FALSE(g.dragging());
  CHECK(g.step(5.7).dy == 0);
  g.end(5.8);
  CHECK_FALSE(g.gliding());
  CHECK(g.long_pressed());  // the gesture stays a long press after the finger lifts
  CHECK(g.anchor_x() == 200);
  CHECK(g.anchor_y() == 300);
  // The next finger starts a new gesture.
  g.start(10, 10, 7.0, kSlop);
  CHECK_FALSE(g.long_pressed());
}

TEST_CASE("touch: a long press lifted before a frame saw it is still reported; a quick tap is not one", "[web][touch]") {
  TouchScroll g;
  g.start(200, 300, 5.0, kSlop);
  g.end(5.0 + TouchScroll::kLongPressSeconds + 0.05);
  CHECK(g.long_pressed());
  CHECK(g.step(5.6).long_press);
  TouchScroll tap;
  tap.start(200, 300, 5.0, kSlop);
  tap.end(5.12);
  int long_presses = 0;
  run(tap, 5.12, 7.0, &long_presses);
  CHECK(long_presses == 0);
  CHECK_FALSE(tap.long_pressed());
}

TEST_CASE("touch: a long press seen by a frame is withdrawn when a late event shows the finger moved in time", "[web][touch]") {
  TouchScroll g;
  g.start(200, 300, 5.0, kSlop);
  CHECK(g.step(5.6).long_press);  // the frame clock passed half a second, no move seen yet
  g.move(200, 260, 5.1);          // but the finger had moved 40 px at 0.1 s (delivered late)
  CHECK_FALSE(g.long_pressed());
  CHECK(g.dragging());
  const TouchScroll::Step s = g.step(5.65);
  CHECK(s.long_press_withdrawn);
  CHECK(s.dy == -40);  // and the content follows the whole drag
  CHECK_FALSE(g.step(5.7).long_press_withdrawn);  // once
  // Lifted at 0.2 s by its own time, delivered after a frame saw half a second: a tap after all.
  TouchScroll tap;
  tap.start(200, 300, 5.0, kSlop);
  CHECK(tap.step(5.6).long_press);
  tap.end(5.2);
  CHECK_FALSE(tap.long_pressed());
  CHECK(tap.step(5.65).long_press_withdrawn);
  // A move after the half second does not withdraw it.
  TouchScroll h;
  h.start(200, 300, 5.0, kSlop);
  CHECK(h.step(5.6).long_press);
  h.move(200, 260, 5.7);
  CHECK(h.long_pressed());
  CHECK_FALSE(h.step(5.75).long_press_withdrawn);
}

TEST_CASE("touch: a drag never becomes a long press, however long the finger then rests", "[web][touch]") {
  TouchScroll g;
  g.start(200, 300, 5.0, kSlop);
  g.move(200, 260, 5.1);  // past the slop within 0.1 s
  int long_presses = 0;
  run(g, 5.1, 7.0, &long_presses);  // then held still for 1.9 s
  g.end(7.0);
  run(g, 7.0, 7.5, &long_presses);
  CHECK(long_presses == 0);
  CHECK_FALSE(g.long_pressed());
}
