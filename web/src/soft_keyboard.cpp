// The on-screen keyboard's hidden input and its mirror into ImGui (see soft_keyboard.h).
#include "soft_keyboard.h"

#include <cstring>
#include <string>

#include <GLFW/glfw3.h>
#include <emscripten.h>

#include "imgui.h"
#include "imgui_internal.h"  // ImGui::GetActiveID, GetInputTextState: which field, and its text

namespace {

// clang-format off
// The hidden input, and the text typed into it queued for C++ as strings: characters, with "\b"
// for a deletion. A character whose keypress GLFW already handed to ImGui (a hardware keyboard,
// page.keyboard in tests) is not queued again; the input is emptied after each event, so an empty
// field's Backspace arrives as a keydown (GLFW's) and a composition (IME) is mirrored as it goes:
// what it takes back as "\b", what it adds as characters.
EM_JS(void, js_kb_install, (), {
  var canvas = Module["canvas"];
  var el = document.createElement("input");
  el.id = "sizer-keyboard";
  el.type = "text";
  el.tabIndex = -1;  // never in the page's Tab order: the canvas has the keyboard there
  ["autocomplete", "off", "autocorrect", "off", "autocapitalize", "off", "spellcheck", "false",
   "enterkeyhint", "done", "aria-label", "The calculator field being edited"].forEach(function (v, i, a) {
    if (i % 2 === 0) el.setAttribute(v, a[i + 1]);
  });
  // Visually hidden but focusable; 16 px so that iOS does not zoom the page in on focus.
  el.style.cssText = "position:fixed;left:0;top:0;width:1px;height:1px;margin:0;padding:0;border:0;" +
                     "opacity:0;font-size:16px;color:transparent;background:transparent;caret-color:transparent;" +
                     "pointer-events:none;";
  document.body.appendChild(el);
  var kb = Module["sizerKeyboard"] = { queue: [], wanted: false, touch: false, input: el };
  var keyed = false, composed = "";
  var put = function (text) { if (text) kb.queue.push(text); };
  var compose = function (next) {
    var k = 0;
    while (k < composed.length && k < next.length && composed[k] === next[k]) k++;
    put(new Array(composed.length - k + 1).join("\b") + next.slice(k));
    composed = next;
  };
  var release = function () {
    if (document.activeElement === el) { el.blur(); canvas.focus({ preventScroll: true }); }
  };
  kb.show = function (numeric) {
    el.setAttribute("inputmode", numeric ? "decimal" : "text");
    if (document.activeElement !== el) { el.value = ""; composed = ""; el.focus({ preventScroll: true }); }
  };
  kb.release = release;
  // Until the first pointer goes down, a screen whose main pointer is a finger (a phone, a tablet)
  // counts as touch, so the page says "long-press" and "tap" from the start; then the last one decides.
  kb.touch = !!(window.matchMedia && window.matchMedia("(hover: none) and (pointer: coarse)").matches);
  window.addEventListener("pointerdown", function (e) { kb.touch = e.pointerType === "touch" || e.pointerType === "pen"; }, true);
  // A tap while editing keeps the focus here (no keyboard flicker); a field the tap lands on is
  // focused in the tap's own click handler, as iOS shows its keyboard only from a user's gesture.
  window.addEventListener("mousedown", function (e) {
    if (kb.touch && document.activeElement === el && e.target === canvas) e.preventDefault();
  }, true);
  window.addEventListener("click", function (e) {
    if (!kb.touch || e.defaultPrevented || e.target !== canvas) return;
    var r = canvas.getBoundingClientRect(), ui = window.sizerUi || {};
    var x = e.clientX - r.left, y = e.clientY - r.top;
    var hit = Object.keys(ui).some(function (n) {
      var b = ui[n];
      return n.indexOf("input:") === 0 && x >= b[0] && x <= b[0] + b[2] && y >= b[1] && y <= b[1] + b[3];
    });
    if (!hit) return;
    kb.show(true);
    var frames = 0;  // the field did not open after all: hide the keyboard again
    var check = function () {
      if (kb.wanted) return;
      if (++frames < 20) requestAnimationFrame(check); else release();
    };
    requestAnimationFrame(check);
  }, true);
  el.addEventListener("keydown", function () { keyed = false; });
  el.addEventListener("keyup", function () { keyed = false; });
  el.addEventListener("keypress", function (e) { keyed = e.charCode >= 32 && !e.ctrlKey && !e.metaKey; });
  el.addEventListener("compositionstart", function () { composed = ""; });
  el.addEventListener("compositionupdate", function (e) { compose(e.data || ""); });
  el.addEventListener("compositionend", function (e) { compose(e.data || ""); composed = ""; el.value = ""; });
  el.addEventListener("input", function (e) {
    if (e.isComposing) return;
    if (e.inputType && e.inputType.indexOf("delete") === 0) put("\b");
    else if (!keyed) put(el.value);
    keyed = false;
    el.value = "";
  });
});

EM_JS(int, js_kb_queue_size, (), {
  var kb = Module["sizerKeyboard"];
  if (!kb || !kb.queue.length) return 0;
  kb.next = kb.queue.join("");
  kb.queue.length = 0;
  return lengthBytesUTF8(kb.next) + 1;
});

EM_JS(void, js_kb_queue_take, (char* buffer, int size), {
  var kb = Module["sizerKeyboard"];
  stringToUTF8(kb.next || "", buffer, size);
  kb.next = "";
});

EM_JS(int, js_kb_touch, (), {
  var kb = Module["sizerKeyboard"];
  return kb && kb.touch ? 1 : 0;
});

EM_JS(void, js_kb_show, (int wanted, int numeric), {
  var kb = Module["sizerKeyboard"];
  if (!kb) return;
  kb.wanted = !!wanted;
  if (wanted && kb.touch) kb.show(!!numeric);
  else if (!wanted) kb.release();
});
// clang-format on

struct Keyboard {
  std::string pending;      // typed, not yet handed to ImGui ("\b": Backspace)
  bool backspace_down = false;  // a Backspace went down last frame: the next waits a frame
  ImGuiID active = 0;       // the field being edited when soft_keyboard_sync last ran
  bool numeric = false;
};
Keyboard g_keyboard;  // one page, one keyboard

}  // namespace

namespace sizer_web {

void soft_keyboard_install() { js_kb_install(); }

void soft_keyboard_poll(void (*press_key)(int glfw_key)) {
  Keyboard& k = g_keyboard;
  const int size = js_kb_queue_size();
  if (size > 0) {
    std::string text(static_cast<size_t>(size), '\0');
    js_kb_queue_take(text.data(), size);
    text.resize(static_cast<size_t>(size - 1));
    k.pending += text;
  }
  // ImGui 1.86 sees a key once a frame and applies characters before keys: one Backspace a frame,
  // with a frame up between two, and characters before a Backspace in a frame of their own.
  if (k.backspace_down) {
    k.backspace_down = false;
    return;
  }
  if (k.pending.empty()) return;
  if (k.pending[0] == '\b') {
    press_key(GLFW_KEY_BACKSPACE);
    k.pending.erase(0, 1);
    k.backspace_down = true;
    return;
  }
  const size_t end = k.pending.find('\b');
  ImGui::GetIO().AddInputCharactersUTF8(k.pending.substr(0, end).c_str());
  k.pending.erase(0, end);
}

void soft_keyboard_sync() {
  Keyboard& k = g_keyboard;
  const ImGuiID id = ImGui::GetIO().WantTextInput ? ImGui::GetActiveID() : 0;
  // ImGui clears the field's flags after drawing it: a field that opened holding a number is a
  // number field (the MFU list "35%, 45%" is not).
  const ImGuiInputTextState* state = id ? ImGui::GetInputTextState(id) : nullptr;
  bool numeric = state && state->InitialTextA.Size > 1;
  for (int i = 0; numeric && i + 1 < state->InitialTextA.Size; ++i) {
    numeric = std::strchr("0123456789.eE+-", state->InitialTextA[i]) != nullptr;
  }
  if (id == k.active && numeric == k.numeric) return;
  k.active = id;
  k.numeric = numeric;
  if (id == 0) k.pending.clear();  // typed after the field closed: for no field
  js_kb_show(id != 0 ? 1 : 0, numeric ? 1 : 0);
}

bool soft_keyboard_touch_pointer() { return js_kb_touch() != 0; }

}  // namespace sizer_web
