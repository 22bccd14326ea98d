// The results as a structured text document (mirror_doc.h), mirrored into the page under the
// canvas (mirror_page.h) so screen readers can read it, Ctrl+F can find it and it can be copied:
// the scenario and whether its results are current, the input problems naming each field, the
// inputs as applied (input, value, unit), then one section per view with tables whose header cells
// say what each column is. Same numbers and formatting as the panels.
#pragma once
#include <string>

#include "app_state.h"

namespace sizer_web {

// The document as JSON text ({"live", "blocks"}, mirror_doc.h).
std::string results_document(const AppState& state);

}  // namespace sizer_web
