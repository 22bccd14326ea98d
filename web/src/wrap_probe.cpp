// The word-wrap probe of the browser tests (see wrap_probe.h).
#include "wrap_probe.h"

#include <emscripten.h>

#include <string>
#include <string_view>

#include "imgui.h"
#include "widgets.h"

namespace {
char g_text[4096];  // written by the page (stringToUTF8 stops at the size, with its NUL)
std::string g_lines;
}  // namespace

extern "C" EMSCRIPTEN_KEEPALIVE char* sizer_wrap_text_buffer() { return g_text; }

// The lines of g_text wrapped at `width_px` device pixels (widgets.h wrap_lines, which wrapped
// field labels use too), '\n'-separated.
extern "C" EMSCRIPTEN_KEEPALIVE const char* sizer_wrap_lines(float width_px) {
  g_lines.clear();
  for (std::string_view line : sizer_web::wrap_lines(ImGui::GetIO().Fonts->Fonts[0], 1.0f, g_text, width_px)) {
    if (!g_lines.empty()) g_lines += '\n';
    g_lines += line;
  }
  return g_lines.c_str();
}

EM_JS(void, js_wrap_probe_install, (), {
  window.sizerWrapLines = function(text, cssWidth) {
    stringToUTF8(text, _sizer_wrap_text_buffer(), 4096);
    return UTF8ToString(_sizer_wrap_lines(cssWidth * (window.devicePixelRatio || 1))).split("\n");
  };
});

namespace sizer_web {

void wrap_probe_install() { js_wrap_probe_install(); }

}  // namespace sizer_web
