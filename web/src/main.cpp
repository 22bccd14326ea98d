// Browser entry point of the ImGui app: GLFW window on the page's <canvas id="canvas"> (WebGL2),
// sized to the canvas' CSS box × devicePixelRatio, with one ImGui frame per animation frame.
// The window, the frame loop and the input plumbing live here; the page glue written in JavaScript
// (EM_JS) lives beside the feature it serves (mirror_page.cpp, page_io.cpp, soft_keyboard.cpp,
// touch_page.cpp, wrap_probe.cpp); App (app.h) is platform-free. Also mirrors
// the app's results as a text document into the page (mirror_page.h) and publishes the screen
// rectangles of named widgets and timing stats (window.sizerUi, window.sizerStats) for tests.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <GLES3/gl3.h>
#include <nlohmann/json.hpp>
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>

#include "app.h"
#include "fonts.h"
#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "mirror_page.h"
#include "page_io.h"
#include "sizer/contract/catalog_load.h"
#include "sizer/planners/catalog.h"
#include "soft_keyboard.h"
#include "touch_page.h"
#include "touch_scroll.h"
#include "wheel.h"
#include "wrap_probe.h"

namespace {

constexpr const char* kCanvas = "#canvas";

struct Platform {
  GLFWwindow* window = nullptr;
  int width_px = 0;   // canvas drawing buffer, physical pixels
  int height_px = 0;
  float dpr = 0.0f;   // devicePixelRatio the fonts were built for
  sizer_web::Fonts fonts;
  sizer_web::App app;
  bool first_frame_done = false;
  int mirrored_revision = -1;  // App::results_revision() last written into the page
  std::string published_rects;
  std::string published_hover;
  // Keys pressed since the last frame, and releases held back until ImGui has seen them down:
  // ImGui 1.86 reads key state once a frame, so a quick tap (down and up between two frames)
  // would otherwise be lost (Enter not applying a field, Tab not moving).
  std::vector<int> pressed_since_frame;
  std::vector<int> held_releases;  // key, scancode, mods
  // Taps (settle_taps): the pointer's last position and the buttons ImGui last saw down.
  ImVec2 last_mouse = ImVec2(-FLT_MAX, -FLT_MAX);
  bool was_down[ImGuiMouseButton_COUNT] = {};
  bool deferred_press[ImGuiMouseButton_COUNT] = {};
  sizer_web::TouchScroll touch;  // one-finger drag-to-scroll and its glide (apply_touch)
  // After a long press the pointer stays where the finger was (its tooltip stays readable) until
  // the next gesture ends, or the mouse moves.
  bool hold_pointer = false;
  ImVec2 hold_at, hold_cursor;  // the finger's place; GLFW's cursor when the hold began
  int published_text_input = -1;  // io.WantTextInput last written into window.sizerStats
  bool published_gliding = false;  // Module.sizerGliding
  std::uint64_t drawn_signature = 0;  // draw_signature of the pixels on the canvas
};

// The start-up timeline (scripts/bench-web.mjs, docs/budgets.md): window.sizerStartup[step] is
// performance.now() when the step ended, in ms since navigation.
void startup_mark(const char* step) {
  EM_ASM({ (window.sizerStartup || (window.sizerStartup = {}))[UTF8ToString($0)] = performance.now(); }, step);
}

Platform* g_platform = nullptr;  // for the GLFW key callback, which has no user pointer here

void on_key(GLFWwindow* window, int key, int scancode, int action, int mods) {
  Platform& p = *g_platform;
  auto& pressed = p.pressed_since_frame;
  if (action == GLFW_RELEASE && std::find(pressed.begin(), pressed.end(), key) != pressed.end()) {
    p.held_releases.insert(p.held_releases.end(), {key, scancode, mods});
    return;
  }
  if (action == GLFW_PRESS) {
    pressed.push_back(key);
    for (size_t i = 0; i + 2 < p.held_releases.size();) {  // pressed again: its held release is void
      if (p.held_releases[i] == key) {
        p.held_releases.erase(p.held_releases.begin() + i, p.held_releases.begin() + i + 3);
      } else {
        i += 3;
      }
    }
  }
  ImGui_ImplGlfw_KeyCallback(window, key, scancode, action, mods);
}

// A key typed on the on-screen keyboard (soft_keyboard.h): down for this frame, up for the next.
void press_key(int key) {
  on_key(g_platform->window, key, key == GLFW_KEY_BACKSPACE ? 8 : 0, GLFW_PRESS, 0);
  on_key(g_platform->window, key, key == GLFW_KEY_BACKSPACE ? 8 : 0, GLFW_RELEASE, 0);
}

// End of a frame: the releases held back during it reach ImGui now.
void release_held_keys(Platform& p) {
  std::vector<int> held;
  held.swap(p.held_releases);
  p.pressed_since_frame.clear();
  for (size_t i = 0; i + 2 < held.size(); i += 3) {
    ImGui_ImplGlfw_KeyCallback(p.window, held[i], held[i + 1], GLFW_RELEASE, held[i + 2]);
  }
}

// Writes the results document into the page when it changed.
void mirror_results(Platform& p) {
  if (p.app.results_revision() == p.mirrored_revision) return;
  p.mirrored_revision = p.app.results_revision();
  const auto& c = p.app.state().computed;
  sizer_web::mirror_page_render(p.app.results_document());
  EM_ASM({
    var stats = window.sizerStats || (window.sizerStats = {});
    stats.revision = $0;
    stats.recomputeMs = $1;
    stats.textRevision = $2;
    stats.workingMs = $3;
    stats.at = performance.now();
  }, c.revision, c.recompute_ms, p.mirrored_revision, c.working_ms);
}

// Publishes named widget rectangles in CSS pixels (window.sizerUi) when they moved: name ->
// [x, y, w, h], or [x, y, w, h, text] with the text drawn there (note_text).
void publish_rects(Platform& p) {
  std::string json = "{";
  char buf[64];
  for (const auto& r : p.app.rects()) {
    if (json.size() > 1) json += ',';
    json += '"' + r.name + "\":[";
    std::snprintf(buf, sizeof buf, "%.1f,%.1f,%.1f,%.1f", r.x / p.dpr, r.y / p.dpr, r.w / p.dpr, r.h / p.dpr);
    json += buf;
    if (!r.text.empty()) json += ',' + nlohmann::json(r.text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    json += ']';
  }
  json += '}';
  if (json == p.published_rects) return;
  p.published_rects = json;
  EM_ASM({ window.sizerUi = JSON.parse(UTF8ToString($0)); }, json.c_str());
}

// Publishes the text of the tooltip on screen (window.sizerHover, "" when none) when it changed:
// what a person reads on hover, for tests and assistive tools.
void publish_hover(Platform& p) {
  const std::string& text = p.app.state().view.hover_text;
  if (text == p.published_hover) return;
  p.published_hover = text;
  EM_ASM({ window.sizerHover = UTF8ToString($0); }, text.c_str());
}

// The drawing buffer size the canvas should have: its CSS size × devicePixelRatio (returned).
float wanted_canvas_size(int* w, int* h) {
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size(kCanvas, &css_w, &css_h);
  const float dpr = static_cast<float>(emscripten_get_device_pixel_ratio());
  *w = static_cast<int>(std::lround(css_w * dpr));
  *h = static_cast<int>(std::lround(css_h * dpr));
  return dpr;
}

// Keeps the drawing buffer at CSS size × devicePixelRatio and rebuilds fonts and style when the
// ratio changes (browser zoom, moving to another screen). The UI works in physical pixels.
void fit_canvas(Platform& p) {
  int w = 0, h = 0;
  const float dpr = wanted_canvas_size(&w, &h);
  if (w != p.width_px || h != p.height_px) {
    int now_w = 0, now_h = 0;  // boot.js sized it before making the context: no reallocation then
    emscripten_get_canvas_element_size(kCanvas, &now_w, &now_h);
    if (now_w != w || now_h != h) emscripten_set_canvas_element_size(kCanvas, w, h);
    p.width_px = w;
    p.height_px = h;
  }
  if (dpr != p.dpr) {
    p.dpr = dpr;
    p.fonts = sizer_web::load_fonts(dpr);
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
}

// A tap on a touch screen reaches the page as mousemove, mousedown and mouseup at once (the touch
// events themselves are kept from GLFW: install_touch_filter). ImGui 1.86 must see the pointer over
// a click-release item (radio, checkbox, button) a frame before the press, as with a mouse: a
// press that comes with a jump of the pointer is held back one frame, then held down for one.
void settle_taps(Platform& p) {
  ImGuiIO& io = ImGui::GetIO();
  const bool moved = io.MousePos.x != p.last_mouse.x || io.MousePos.y != p.last_mouse.y;
  for (int i = 0; i < ImGuiMouseButton_COUNT; ++i) {
    if (p.deferred_press[i]) {
      io.MouseDown[i] = true;
      p.deferred_press[i] = false;
    } else if (io.MouseDown[i] && !p.was_down[i] && moved) {
      io.MouseDown[i] = false;
      p.deferred_press[i] = true;
    }
    p.was_down[i] = io.MouseDown[i];
  }
  p.last_mouse = io.MousePos;
}

// Drains the touch queue (touch_page.h) into the drag-to-scroll gesture and, while it scrolls, points ImGui at
// where the finger went down and feeds it the content's movement as wheel units (after
// settle_taps, so taps see the pointer as before). The glide runs here too, once a frame, and a
// long press points ImGui at the finger (hover: the working tooltip) until the next gesture ends.
void apply_touch(Platform& p, float font_px) {
  const int n = EM_ASM_INT({ return (Module["sizerTouchQueue"] || []).length; });
  if (n > 0) {
    std::vector<double> q(static_cast<size_t>(n));
    EM_ASM({
      var q = Module["sizerTouchQueue"];
      for (var i = 0; i < $1; i++) HEAPF64[($0 >> 3) + i] = q[i];
      q.splice(0, $1);
    }, q.data(), n);
    const float slop = 8.0f * std::max(1.0f, p.dpr);
    for (size_t i = 0; i + 3 < q.size(); i += 4) {
      const float x = static_cast<float>(q[i + 1]), y = static_cast<float>(q[i + 2]);
      switch (static_cast<int>(q[i])) {
        case 0: p.touch.start(x, y, q[i + 3], slop); break;
        case 1: p.touch.move(x, y, q[i + 3]); break;
        case 2:
          p.touch.end(q[i + 3]);
          if (!p.touch.long_pressed()) p.hold_pointer = false;  // a tap or a drag elsewhere
          break;
        default: p.touch.cancel(); p.hold_pointer = false; break;
      }
    }
  }
  const sizer_web::TouchScroll::Step s = p.touch.step(emscripten_get_now() / 1000.0);
  ImGuiIO& io = ImGui::GetIO();
  double cx = 0, cy = 0;
  glfwGetCursorPos(p.window, &cx, &cy);
  const ImVec2 cursor(static_cast<float>(cx), static_cast<float>(cy));
  if (s.long_press) {
    p.hold_pointer = true;
    p.hold_at = ImVec2(p.touch.anchor_x(), p.touch.anchor_y());
    p.hold_cursor = cursor;
    EM_ASM({ Module["sizerLongPress"] = 1; });  // its touchend is no tap (touch_page.h)
  }
  if (s.long_press_withdrawn) EM_ASM({ Module["sizerLongPress"] = 0; });
  if (p.touch.dragging() || cursor.x != p.hold_cursor.x || cursor.y != p.hold_cursor.y) p.hold_pointer = false;
  if (p.hold_pointer) {
    io.MousePos = p.hold_at;
    p.last_mouse = io.MousePos;
  }
  if (p.touch.steering() || s.dx != 0 || s.dy != 0) {
    io.MousePos = ImVec2(p.touch.anchor_x(), p.touch.anchor_y());
    p.last_mouse = io.MousePos;
    const sizer_web::WheelUnits u = sizer_web::drag_units(s.dx, s.dy, font_px);
    io.MouseWheelH += u.x;
    io.MouseWheel += u.y;
  }
  if (p.published_gliding != p.touch.gliding()) {  // a finger that stops a glide is no tap
    p.published_gliding = p.touch.gliding();
    EM_ASM({ Module["sizerGliding"] = $0; }, p.published_gliding ? 1 : 0);
  }
}

// The UI font size in physical pixels (ImGui's scroll steps are multiples of it).
float font_px(const Platform& p) {
  const ImGuiIO& io = ImGui::GetIO();
  const ImFont* font = io.FontDefault ? io.FontDefault : (io.Fonts->Fonts.Size > 0 ? io.Fonts->Fonts[0] : nullptr);
  return font ? font->FontSize : 16.0f * std::max(1.0f, p.dpr);
}

// Publishes whether a text field is being edited (window.sizerStats.textInput) when it changed.
void publish_text_input(Platform& p) {
  const int editing = ImGui::GetIO().WantTextInput ? 1 : 0;
  if (editing == p.published_text_input) return;
  p.published_text_input = editing;
  EM_ASM({ (window.sizerStats || (window.sizerStats = {})).textInput = !!$0; }, editing);
}

// A signature of what a frame would put on the canvas: ImGui's draw lists (vertices, indices,
// commands), the canvas size and the clear colour. A frame whose signature equals the one on
// screen is not drawn again: the canvas keeps its pixels, and the browser (SwiftShader without a
// GPU, else the GPU) has no frame to rasterise or composite. An idle page then costs the UI's
// logic only, not a full-canvas redraw 60 times a second.
std::uint64_t draw_signature(const ImDrawData* dd, int width, int height, const ImVec4& bg) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](const void* data, std::size_t bytes) {
    const unsigned char* b = static_cast<const unsigned char*>(data);
    std::size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
      std::uint64_t w;
      std::memcpy(&w, b + i, 8);
      h = (h ^ w) * 0x100000001b3ull;
      h ^= h >> 29;
    }
    for (; i < bytes; ++i) h = (h ^ b[i]) * 0x100000001b3ull;
  };
  const int size[2] = {width, height};
  mix(size, sizeof size);
  mix(&bg, sizeof bg);
  if (!dd) return h;
  mix(&dd->DisplayPos, sizeof dd->DisplayPos);
  mix(&dd->DisplaySize, sizeof dd->DisplaySize);
  for (int n = 0; n < dd->CmdListsCount; ++n) {
    const ImDrawList* l = dd->CmdLists[n];
    mix(l->VtxBuffer.Data, static_cast<std::size_t>(l->VtxBuffer.Size) * sizeof(ImDrawVert));
    mix(l->IdxBuffer.Data, static_cast<std::size_t>(l->IdxBuffer.Size) * sizeof(ImDrawIdx));
    for (const ImDrawCmd& c : l->CmdBuffer) {
      mix(&c.ClipRect, sizeof c.ClipRect);
      mix(&c.TextureId, sizeof c.TextureId);
      const unsigned int range[3] = {c.VtxOffset, c.IdxOffset, c.ElemCount};
      mix(range, sizeof range);
    }
  }
  return h;
}

void frame(void* arg) {
  Platform& p = *static_cast<Platform*>(arg);
  fit_canvas(p);
  if (!p.first_frame_done) startup_mark("fonts");
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  settle_taps(p);
  apply_touch(p, font_px(p));
  sizer_web::soft_keyboard_poll(press_key);  // what the on-screen keyboard typed
  p.app.mutable_state().view.touch_pointer = sizer_web::soft_keyboard_touch_pointer();
  ImGuiIO& io = ImGui::GetIO();  // GLFW's window size is not kept in sync on the web: override
  io.DisplaySize = ImVec2(static_cast<float>(p.width_px), static_cast<float>(p.height_px));
  io.DisplayFramebufferScale = ImVec2(1.0f, 1.0f);
  sizer_web::page_io_poll(p.app.mutable_state());  // links, files, history (before the frame)
  ImGui::NewFrame();
  p.app.draw(p.fonts, io.DisplaySize.x, io.DisplaySize.y, p.dpr);
  ImGui::Render();
  if (!p.first_frame_done) startup_mark("ui");
  const ImVec4 bg = p.app.clear_color();
  const std::uint64_t signature = draw_signature(ImGui::GetDrawData(), p.width_px, p.height_px, bg);
  // Drawn when the pixels change, on the first frame, and whenever the page is about to read the
  // canvas (a PNG export in page_io_flush reads this frame's drawing buffer).
  if (!p.first_frame_done || signature != p.drawn_signature || !p.app.state().share.outbox.empty()) {
    glViewport(0, 0, p.width_px, p.height_px);
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    p.drawn_signature = signature;
  }
  sizer_web::page_io_flush(p.app.mutable_state());  // downloads, clipboard, PNG (canvas still drawn)
  if (!p.first_frame_done) startup_mark("gl");
  mirror_results(p);
  publish_rects(p);
  publish_hover(p);
  publish_text_input(p);
  sizer_web::soft_keyboard_sync();  // the phone's keyboard up while a field is edited after a touch
  release_held_keys(p);  // ImGui saw this frame's quick taps down; they come up for the next
  if (!p.first_frame_done) {
    p.first_frame_done = true;
    EM_ASM(if (Module['sizerFirstFrame']) Module['sizerFirstFrame'](););
  }
}

// Wheel and trackpad: the DOM event with its deltaMode, normalised (wheel.h). GLFW's own scroll
// callback is replaced by a no-op, so its raw deltas never reach ImGui (it still cancels the
// page's scrolling).
EM_BOOL on_wheel(int, const EmscriptenWheelEvent* e, void* arg) {
  const Platform& p = *static_cast<const Platform*>(arg);
  const sizer_web::WheelUnits u = sizer_web::wheel_units(
      e->deltaX, e->deltaY, static_cast<sizer_web::WheelDeltaMode>(e->deltaMode), font_px(p),
      p.dpr > 0 ? p.dpr : 1.0f, static_cast<float>(p.height_px), e->mouse.shiftKey);
  ImGuiIO& io = ImGui::GetIO();
  io.MouseWheelH += u.x;
  io.MouseWheel += u.y;
  return EM_TRUE;
}

void ignore_glfw_scroll(GLFWwindow*, double, double) {}

}  // namespace

int main() {
  startup_mark("main");
  sizer::bundled_catalog();  // parsed once here, so the timeline shows it apart from App()
  startup_mark("tables");
  if (!glfwInit()) return 1;
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  static Platform platform;  // lives for the page's lifetime; the main loop never returns
  startup_mark("app");
  int w = 0, h = 0;  // the size boot.js gave the canvas, so GLFW does not resize it
  wanted_canvas_size(&w, &h);
  platform.window = glfwCreateWindow(w > 0 ? w : 640, h > 0 ? h : 480, "Sizer", nullptr, nullptr);
  startup_mark("webgl");
  if (!platform.window) {
    EM_ASM(if (Module['sizerNoWebGL2']) Module['sizerNoWebGL2'](););  // boot.js's message
    return 1;
  }
  glfwMakeContextCurrent(platform.window);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no file system: nothing to save layouts to
  ImGui::GetIO().ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;
  platform.app.set_dark(EM_ASM_INT({
    return window.matchMedia && window.matchMedia('(prefers-color-scheme: light)').matches ? 0 : 1;
  }) != 0);
  ImGui_ImplGlfw_InitForOpenGL(platform.window, true);
  glfwSetScrollCallback(platform.window, ignore_glfw_scroll);
  g_platform = &platform;
  glfwSetKeyCallback(platform.window, on_key);  // ImGui's own, with quick taps kept (on_key)
  emscripten_set_wheel_callback(kCanvas, &platform, EM_TRUE, on_wheel);
  ImGui_ImplOpenGL3_Init("#version 300 es");
  sizer_web::page_io_install();
  // CSS px a finger may wander and still tap; ms it is held still for a long press.
  sizer_web::touch_page_install(8.0, sizer_web::TouchScroll::kLongPressSeconds * 1000);
  sizer_web::soft_keyboard_install();
  sizer_web::wrap_probe_install();  // window.sizerWrapLines, for the browser tests
  startup_mark("imgui");

  // The first frame now, not at the next animation frame (about 15–25 ms later, idle meanwhile).
  frame(&platform);
  emscripten_set_main_loop_arg(frame, &platform, 0, true);
  return 0;
}
