// The page side of the text mirror (Emscripten only, like main.cpp): turns the results document
// (results_text.h, mirror_doc.h) into DOM under the canvas, in #results-text: h2/h3 headings,
// paragraphs, lists and <table>s with <caption>, column and row header cells. Every text goes in
// with textContent (never innerHTML), so model names and user text cannot become markup. A short
// summary goes to a polite live region (#results-status) so a change is announced once, not the
// whole document.
#pragma once
#include <string>

namespace sizer_web {

// Replaces the mirror's content with `document_json` ({"live", "blocks"}).
void mirror_page_render(const std::string& document_json);

}  // namespace sizer_web
