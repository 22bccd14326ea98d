// The top bar's "Method" menu (see site_links.h).
#include "site_links.h"

namespace sizer_web {

namespace {
constexpr const char* kLabel = "Method";
}  // namespace

float site_links_width(Ui&) { return ImGui::CalcTextSize(kLabel).x + ImGui::GetStyle().FramePadding.x * 2; }

void site_links(Ui& ui) {
  if (ImGui::Button(kLabel)) ImGui::OpenPopup("site-links");
  note_rect(ui, "button:method");
  if (!ImGui::BeginPopup("site-links")) return;
  std::vector<PageAction>& out = ui.state.share.outbox;
  if (ImGui::MenuItem("Method: the ten steps, their formulas and sources")) {
    out.push_back({PageAction::Kind::open_page, "method.html", "", ""});
  }
  note_rect(ui, "menu:method-page");
  if (ui.state.share.hosted) {
    if (ImGui::MenuItem("Sources and assumptions: every default with its source and date")) {
      out.push_back({PageAction::Kind::open_page, "sources.html", "", ""});
    }
    note_rect(ui, "menu:sources-page");
  } else {
    const char* absent = "Sources and assumptions: not in this offline file";
    ImGui::MenuItem(absent, nullptr, false, false);
    note_text(ui, "menu:sources-page", absent);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + ui.px(380));
    caption(ui, "The sources page (sources.html, every default with its source and date) is on the hosted site, "
                "too large to carry here. In this file, hover or tap any result for its working and source.");
    ImGui::PopTextWrapPos();
  }
  ImGui::EndPopup();
}

}  // namespace sizer_web
