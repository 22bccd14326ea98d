// "Show the working" (see working_tooltip.h): formula, substituted values and source of a result.
#include "working_tooltip.h"

#include <algorithm>

namespace sizer_web {
namespace {

constexpr const char* kHint =
    "Hover over any number to see its working: the formula, the values put into it and its source. Click a number "
    "to pin its working here.";
constexpr const char* kTouchHint =
    "Long-press any number to see its working: the formula, the values put into it and its source. Tap a number "
    "to pin its working here.";

const char* hint(const Ui& ui) { return ui.state.view.touch_pointer ? kTouchHint : kHint; }

void working_body(Ui& ui, const sizer::Working& w, float wrap_px) {
  ImGui::PushFont(ui.fonts.small);
  ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.muted);
  ImGui::TextUnformatted(w.path.c_str());
  ImGui::PopStyleColor();
  ImGui::PopFont();
  ImGui::PushTextWrapPos(wrap_px);
  ImGui::PushFont(ui.fonts.strong);
  ImGui::TextUnformatted(w.formula.c_str());
  ImGui::PopFont();
  ImGui::PushFont(ui.fonts.numbers);
  ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.accent);
  ImGui::TextUnformatted(w.substituted.c_str());
  ImGui::PopStyleColor();
  ImGui::PopFont();
  ImGui::PushFont(ui.fonts.small);
  ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.muted);
  ImGui::Text("Source: %s", w.source.c_str());
  ImGui::PopStyleColor();
  ImGui::PopFont();
  ImGui::PopTextWrapPos();
}

}  // namespace

const sizer::Working* find_working(const sizer::Estimate& e, const std::string& path) {
  for (const sizer::Working& w : e.working) {
    if (w.path == path) return &w;
  }
  const std::string first = path + "[0]";
  for (const sizer::Working& w : e.working) {
    if (w.path == first) return &w;
  }
  return nullptr;
}

void working_tooltip(Ui& ui, const sizer::Working& w) {
  ui.state.view.hover_text = w.path + "\n" + w.formula + "\n" + w.substituted + "\nSource: " + w.source;
  ImGui::BeginTooltip();
  // 460 px wide, or the screen less a margin on a phone.
  working_body(ui, w, std::min(ui.px(460), ImGui::GetIO().DisplaySize.x - ui.px(32)));
  ImGui::PushFont(ui.fonts.small);
  ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.faint);
  ImGui::TextUnformatted(ui.state.view.touch_pointer ? "Tap the number to pin this working." : "Click to pin this working.");
  ImGui::PopStyleColor();
  ImGui::PopFont();
  ImGui::EndTooltip();
}

float working_hint_height(Ui& ui) {
  ImGui::PushFont(ui.fonts.small);
  const float text_h = ImGui::CalcTextSize(hint(ui), nullptr, false, ImGui::GetContentRegionAvail().x).y;
  ImGui::PopFont();
  return text_h + ImGui::GetStyle().ItemSpacing.y * 2 + ui.px(8);
}

void working_pane(Ui& ui) {
  ImGui::Spacing();
  const sizer::Working* w =
      ui.state.view.pinned_working.empty() ? nullptr : find_working(ui.est(), ui.state.view.pinned_working);
  if (!w) {
    caption(ui, hint(ui));
    note_text(ui, "working-hint", hint(ui));
    return;
  }
  ImGui::PushStyleColor(ImGuiCol_ChildBg, ui.pal.accent_soft);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ui.px(12), ui.px(10)));
  const float h = ImGui::GetContentRegionAvail().y;
  ImGui::BeginChild("pinned_working", ImVec2(0, h), false, ImGuiWindowFlags_AlwaysUseWindowPadding);
  ImGui::PushFont(ui.fonts.strong);
  ImGui::TextUnformatted("Working");
  ImGui::PopFont();
  ImGui::SameLine(ImGui::GetContentRegionAvail().x - ui.px(40));
  if (ImGui::SmallButton("Close")) ui.state.view.pinned_working.clear();
  note_rect(ui, "button:working-close");  // a working is pinned (tests)
  working_body(ui, *w, 0.0f);
  ImGui::EndChild();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor();
}

}  // namespace sizer_web
