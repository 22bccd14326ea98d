// The result views' tabs (Overview, Training, ...). Where every label fits the results column at
// its full width, ImGui's tab bar; on a narrow column (a phone, a desktop at 150% zoom) tab-like
// buttons that wrap onto a second row, so no label is cut to "Trai…". Each tab publishes its
// rectangle as "tab:<label>" either way (browser tests tap or click them).
//
//   const ViewTab tabs[] = {{Tab::overview, "Overview"}, ...};
//   view_tabs(ui, tabs, 8);   // sets ui.state.view.tab when one is picked
#pragma once

#include "widgets.h"

namespace sizer_web {

struct ViewTab {
  Tab tab;
  const char* label;
};

void view_tabs(Ui& ui, const ViewTab* tabs, int count);

}  // namespace sizer_web
