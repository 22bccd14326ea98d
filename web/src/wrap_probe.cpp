// The word-wrap probe of the browser tests (see wrap_probe.h).
#include "wrap_probe.h"

#include <emscripten.h>

#include <cstring>
#include <string>

#include "imgui.h"

namespace {
char g_text[4096];  // written by the page (stringToUTF8 stops at the size, with its NUL)
std::string g_lines;
}  // namespace

extern "C" EMSCRIPTEN_KEEPALIVE char* sizer_wrap_text_buffer() { return g_text; }

// The lines of g_text wrapped at `width_px` device pixels, '\n'-separated; blanks at a break are
// dropped, as ImGui's renderer drops them.
extern "C" EMSCRIPTEN_KEEPALIVE const char* sizer_wrap_lines(float width_px) {
  const ImFont* font = ImGui::GetIO().Fonts->Fonts[0];
  const char* end = g_text + std::strlen(g_text);
  g_lines.clear();
  for (const char* s = g_text; s < end;) {
    const char* e = font->CalcWordWrapPositionA(1.0f, s, end, width_px);
    if (e == s) e = end;
    if (s != g_text) g_lines += '\n';
    g_lines.append(s, e);
    s = e;
    while (s < end && (*s == ' ' || *s == '\n')) ++s;
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
