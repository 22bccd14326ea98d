// Touch events of the canvas, filtered and queued (see touch_page.h).
#include "touch_page.h"

#include <emscripten.h>

namespace {

// clang-format off
// Emscripten's GLFW takes touchstart/touchend as button presses at the pointer's LAST position
// (it reads no position from touch events), so a tap pressed wherever the previous one was. The
// touch events are stopped before they reach the canvas; the browser's mouse events for a tap
// (same place, right after) are what GLFW and ImGui see. One finger's touches are queued for
// apply_touch as [kind, x, y, t] (kind 0 down, 1 move, 2 up, 3 cancel; canvas pixels, seconds).
// A finger that moved more than the slop, or that stopped a glide, is no tap, and neither is a
// long press (held long_ms without moving, by the events' own times, as TouchScroll decides):
// its touchend is cancelled and the mouse events the browser sends for it are swallowed.
EM_JS(void, js_touch_install, (double slop_css, double long_ms), {
  var q = Module["sizerTouchQueue"] = [];
  var finger = null;
  var swallowUntil = 0;
  var base = null;  // [timeStamp, performance.now()] when the finger went down
  function push(kind, t, e) {
    var c = e.target;
    var r = c.getBoundingClientRect();
    var sx = r.width > 0 ? c.width / r.width : 1, sy = r.height > 0 ? c.height / r.height : 1;
    // The finger's own times (e.timeStamp: a busy page runs handlers late), on performance.now's
    // clock from where the finger went down (a timeStamp's origin may differ: CDP's events).
    var at = e.timeStamp || performance.now();
    if (kind === 0 || !base) base = [at, performance.now()];
    q.push(kind, t ? (t.clientX - r.left) * sx : 0, t ? (t.clientY - r.top) * sy : 0, (base[1] + at - base[0]) / 1000);
  }
  function find(list, id) {
    for (var i = 0; i < list.length; i++) if (list[i].identifier === id) return list[i];
    return null;
  }
  window.addEventListener("touchstart", function(e) {
    if (!e.target || e.target.id !== "canvas") return;
    e.stopPropagation();
    swallowUntil = 0;
    if (e.touches.length === 1) {
      var t = e.changedTouches[0];
      finger = { id: t.identifier, x: t.clientX, y: t.clientY, moved: !!Module["sizerGliding"],
                 t0: e.timeStamp || performance.now() };
      Module["sizerLongPress"] = 0;
      push(0, t, e);
    } else if (finger) {  // a second finger: a pinch, not a drag
      finger = null;
      push(3, null, e);
    }
  }, { capture: true, passive: false });
  window.addEventListener("touchmove", function(e) {
    if (!e.target || e.target.id !== "canvas") return;
    e.stopPropagation();
    var t = finger && find(e.changedTouches, finger.id);
    if (!t) return;
    if (Math.hypot(t.clientX - finger.x, t.clientY - finger.y) > slop_css) finger.moved = true;
    push(1, t, e);
    if (finger.moved && e.cancelable) e.preventDefault();  // a wobbling tap keeps its click
  }, { capture: true, passive: false });
  ["touchend", "touchcancel"].forEach(function(type) {
    window.addEventListener(type, function(e) {
      if (!e.target || e.target.id !== "canvas") return;
      e.stopPropagation();
      var t = finger && find(e.changedTouches, finger.id);
      if (!t) return;
      push(type === "touchend" ? 2 : 3, t, e);
      var held = !finger.moved && (e.timeStamp || performance.now()) - finger.t0 >= long_ms;  // TouchScroll's rule
      if (finger.moved || held) {
        if (e.cancelable) e.preventDefault();
        swallowUntil = performance.now() + 800;
      }
      finger = null;
    }, { capture: true, passive: false });
  });
  ["mousedown", "mouseup", "click"].forEach(function(type) {
    window.addEventListener(type, function(e) {
      // While a finger is down only a long press sends mouse events (contextmenu's mousedown).
      if ((finger || performance.now() < swallowUntil) && e.target && e.target.id === "canvas") {
        e.stopPropagation();
        e.preventDefault();
      }
    }, true);
  });
});
// clang-format on

}  // namespace

namespace sizer_web {

void touch_page_install(double slop_css, double long_ms) { js_touch_install(slop_css, long_ms); }

}  // namespace sizer_web
