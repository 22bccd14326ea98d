// A probe for the browser tests: window.sizerWrapLines(text, cssWidth) returns the lines ImGui's
// word wrap makes of `text` in the body font at `cssWidth` CSS pixels, with the live atlas at the
// page's pixel ratio: what a wrapped caption of that width shows (ImFont::CalcWordWrapPositionA,
// the function ImGui's wrapped text is drawn with). tests/browser/labels.test.mjs uses it to check
// that no wrap splits a number ("1.28M" is never "1." and "28M"; scripts/fetch-imgui.sh).
//
//   wrap_probe_install();   // once, after the fonts are loaded
#pragma once

namespace sizer_web {

void wrap_probe_install();

}  // namespace sizer_web
