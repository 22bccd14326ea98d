// Drag-to-scroll with inertia (see touch_scroll.h).
#include "touch_scroll.h"

#include <cmath>

namespace sizer_web {

namespace {
constexpr double kTimeConstant = 0.325;  // s: the glide's speed falls to 1/e in this time
constexpr double kVelocityWindow = 0.1;  // s of finger movement the release speed is measured over
constexpr float kStopSpeed = 10.0f;      // px/s: slower than this the glide ends
constexpr float kMaxSpeed = 8000.0f;     // px/s: a glitchy sample never flings to the end
constexpr double kMaxFrame = 0.1;        // s: a stalled frame (hidden tab) does not jump
}  // namespace

void TouchScroll::start(float x, float y, double t, float slop_px) {
  down_ = true;
  drag_ = false;
  x0_ = last_x_ = applied_x_ = x;
  y0_ = last_y_ = applied_y_ = y;
  slop_ = slop_px;
  t0_ = t;
  long_ = long_unreported_ = withdrawn_unreported_ = false;
  vx_ = vy_ = 0;  // a finger on a gliding panel stops it
  rest_x_ = rest_y_ = 0;
  n_samples_ = next_sample_ = 0;
  add_sample(x, y, t);
}

void TouchScroll::move(float x, float y, double t) {
  if (!down_) return;
  last_x_ = x;
  last_y_ = y;
  add_sample(x, y, t);
  const bool far = std::hypot(x - x0_, y - y0_) > slop_;
  if (long_ && far && t - t0_ < kLongPressSeconds) {  // it moved before the half second was up
    long_ = long_unreported_ = false;
    withdrawn_unreported_ = true;
  }
  check_long_press(t);  // held long enough before this move: a long press, which never drags
  if (!drag_ && !long_ && far) drag_ = true;  // from here on a drag
}

void TouchScroll::check_long_press(double t) {
  if (down_ && !drag_ && !long_ && t - t0_ >= kLongPressSeconds) long_ = long_unreported_ = true;
}

void TouchScroll::end(double t) {
  if (!down_) return;
  if (long_ && t - t0_ < kLongPressSeconds) {  // lifted before the half second was up: a tap
    long_ = long_unreported_ = false;
    withdrawn_unreported_ = true;
  }
  check_long_press(t);  // lifted after the hold, before a frame saw it
  down_ = false;
  vx_ = vy_ = 0;
  if (!drag_) return;
  // Speed over the last samples inside the window before the release; none if the finger rested.
  const Sample* newest = nullptr;
  const Sample* oldest = nullptr;
  for (int i = 0; i < n_samples_; ++i) {
    const Sample& s = samples_[(next_sample_ - 1 - i + kSamples) % kSamples];
    if (t - s.t > kVelocityWindow) break;
    if (!newest) newest = &s;
    oldest = &s;
  }
  if (newest && oldest && newest->t - oldest->t > 0.005) {
    const double dt = newest->t - oldest->t;
    vx_ = static_cast<float>((newest->x - oldest->x) / dt);
    vy_ = static_cast<float>((newest->y - oldest->y) / dt);
    const float speed = std::hypot(vx_, vy_);
    if (speed > kMaxSpeed) {
      vx_ *= kMaxSpeed / speed;
      vy_ *= kMaxSpeed / speed;
    }
    if (speed < kStopSpeed) vx_ = vy_ = 0;
  }
  glide_t_ = t;
}

void TouchScroll::cancel() {
  down_ = drag_ = false;
  long_ = long_unreported_ = false;
  vx_ = vy_ = 0;
  rest_x_ = rest_y_ = 0;
}

TouchScroll::Step TouchScroll::step(double t) {
  check_long_press(t);
  Step s;
  s.long_press = long_unreported_;
  s.long_press_withdrawn = withdrawn_unreported_ && !long_unreported_;
  long_unreported_ = withdrawn_unreported_ = false;
  float fx = 0, fy = 0;  // fractional pixels to move
  if (down_ && drag_) {
    fx = last_x_ - applied_x_;
    fy = last_y_ - applied_y_;
  } else if (gliding()) {
    const double dt = std::fmin(std::fmax(t - glide_t_, 0.0), kMaxFrame);
    glide_t_ = t;
    const double decay = std::exp(-dt / kTimeConstant);
    // The exact distance of an exponentially slowing glide over dt.
    fx = static_cast<float>(vx_ * kTimeConstant * (1.0 - decay)) + rest_x_;
    fy = static_cast<float>(vy_ * kTimeConstant * (1.0 - decay)) + rest_y_;
    vx_ = static_cast<float>(vx_ * decay);
    vy_ = static_cast<float>(vy_ * decay);
    if (std::hypot(vx_, vy_) < kStopSpeed) vx_ = vy_ = 0;
  }
  s.dx = std::trunc(fx);  // ImGui rounds its scroll to whole pixels: keep the fractions for later
  s.dy = std::trunc(fy);
  if (down_ && drag_) {
    applied_x_ += s.dx;
    applied_y_ += s.dy;
  } else {
    rest_x_ = gliding() ? fx - s.dx : 0;
    rest_y_ = gliding() ? fy - s.dy : 0;
  }
  return s;
}

void TouchScroll::add_sample(float x, float y, double t) {
  samples_[next_sample_] = {x, y, t};
  next_sample_ = (next_sample_ + 1) % kSamples;
  if (n_samples_ < kSamples) ++n_samples_;
}

}  // namespace sizer_web
