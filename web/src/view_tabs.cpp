// The result views' tabs, as a tab bar or wrapping rows (see view_tabs.h).
#include "view_tabs.h"

#include <string>

namespace sizer_web {
namespace {

float tab_width(const char* label) {
  const ImGuiStyle& st = ImGui::GetStyle();
  return ImGui::CalcTextSize(label).x + st.FramePadding.x * 2;
}

// Buttons in the tab colours, wrapping where the row is full, over a line like the tab bar's.
void wrapped_tabs(Ui& ui, const ViewTab* tabs, int count) {
  const ImGuiStyle& st = ImGui::GetStyle();
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ui.px(4), ui.px(4)));
  ImGui::PushStyleVar(ImGuiStyleVar_FrameRounding, st.TabRounding);
  for (int i = 0; i < count; ++i) {
    const ViewTab& t = tabs[i];
    const bool on = ui.state.view.tab == t.tab;
    ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetColorU32(on ? ImGuiCol_TabActive : ImGuiCol_Tab));
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImGui::GetColorU32(ImGuiCol_TabHovered));
    ImGui::PushStyleColor(ImGuiCol_ButtonActive, ImGui::GetColorU32(ImGuiCol_TabActive));
    if (i > 0) same_line_or_wrap(tab_width(t.label));
    if (ImGui::Button(t.label)) ui.state.view.tab = t.tab;
    note_rect(ui, std::string("tab:") + t.label);
    ImGui::PopStyleColor(3);
  }
  ImGui::PopStyleVar(2);
  const ImVec2 a = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddLine(ImVec2(a.x, a.y - ui.px(2)), ImVec2(a.x + ImGui::GetContentRegionAvail().x, a.y - ui.px(2)),
                                      ImGui::GetColorU32(ImGuiCol_TabActive), ui.px(1));
}

}  // namespace

void view_tabs(Ui& ui, const ViewTab* tabs, int count) {
  const ImGuiStyle& st = ImGui::GetStyle();
  float natural = 0;
  for (int i = 0; i < count; ++i) natural += tab_width(tabs[i].label) + st.ItemInnerSpacing.x;
  const bool wrap = natural > ImGui::GetContentRegionAvail().x;
  // ImGui keeps the tab bar's own selection; coming back from the wrapped rows it is told the
  // view picked meanwhile, and for that one frame the bar's stale pick is not taken as a choice.
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID key = ImGui::GetID("##views-wrapped");
  const bool was_wrapped = storage->GetBool(key, false);
  storage->SetBool(key, wrap);
  if (wrap) {
    wrapped_tabs(ui, tabs, count);
    return;
  }
  if (!ImGui::BeginTabBar("views")) return;
  for (int i = 0; i < count; ++i) {
    const ViewTab& t = tabs[i];
    const ImGuiTabItemFlags flags = was_wrapped && t.tab == ui.state.view.tab ? ImGuiTabItemFlags_SetSelected : 0;
    const bool open = ImGui::BeginTabItem(t.label, nullptr, flags);
    note_rect(ui, std::string("tab:") + t.label);
    if (open) {
      if (!was_wrapped) ui.state.view.tab = t.tab;
      ImGui::EndTabItem();
    }
  }
  ImGui::EndTabBar();
}

}  // namespace sizer_web
