// One-finger drag-to-scroll with inertia for touch screens (platform-free; main.cpp feeds it).
//
// A finger that moves more than `slop` from where it went down is a drag, not a tap: from then on
// the content under it follows it, 1:1 in physical pixels (drag_units in wheel.h turns pixels
// into ImGui wheel units), and the pointer ImGui sees stays where the finger went down, so the
// panel under the finger keeps the scroll for the whole gesture. On release the content keeps the
// finger's speed of the last ~100 ms and slows down exponentially (time constant 325 ms) until it
// is slower than a few pixels a second. A finger that comes down during that glide stops it.
// A finger that stays within `slop` for kLongPressSeconds is a long press (the working tooltip on
// touch screens): reported once by step(), it never becomes a drag, and main.cpp keeps it from
// counting as a tap. A frame may see the half second pass before a late event shows the finger
// had moved or lifted in time (a busy page delivers them late): the long press is then withdrawn,
// a drag or a tap after all. The finger's own times decide, as they do in the page's JS.
#pragma once

namespace sizer_web {

class TouchScroll {
 public:
  static constexpr double kLongPressSeconds = 0.5;  // a finger held this long without moving

  struct Step {
    float dx = 0, dy = 0;  // whole physical pixels the content moves this frame (+: right / down)
    bool long_press = false;  // true once, on the step the finger became a long press
    bool long_press_withdrawn = false;  // true once: it was a drag or a tap after all
  };

  // Positions in physical pixels of the canvas, times in seconds; slop_px in physical pixels.
  void start(float x, float y, double t, float slop_px);
  void move(float x, float y, double t);
  void end(double t);
  void cancel();  // a second finger (pinch) or touchcancel: no drag, no glide

  // Once a frame: what the content moves by since the last call (drag or glide).
  Step step(double t);

  bool dragging() const { return down_ && drag_; }
  bool down() const { return down_; }
  // The current (or last) gesture became a long press, at anchor_x/y.
  bool long_pressed() const { return long_; }
  bool gliding() const { return !down_ && (vx_ != 0 || vy_ != 0); }
  // The pointer ImGui should see while the gesture scrolls (where the finger went down).
  bool steering() const { return dragging() || gliding(); }
  float anchor_x() const { return x0_; }
  float anchor_y() const { return y0_; }

 private:
  static constexpr int kSamples = 16;
  struct Sample {
    float x, y;
    double t;
  };
  void add_sample(float x, float y, double t);

  void check_long_press(double t);

  bool down_ = false, drag_ = false;
  bool long_ = false, long_unreported_ = false, withdrawn_unreported_ = false;
  double t0_ = 0;  // when the finger went down
  float x0_ = 0, y0_ = 0, slop_ = 0;
  float last_x_ = 0, last_y_ = 0;       // finger position last moved to
  float applied_x_ = 0, applied_y_ = 0;  // finger position the content has followed to
  float rest_x_ = 0, rest_y_ = 0;        // glide fractions not yet applied
  float vx_ = 0, vy_ = 0;                // glide speed, px/s
  double glide_t_ = 0;
  Sample samples_[kSamples] = {};
  int n_samples_ = 0, next_sample_ = 0;
};

}  // namespace sizer_web
