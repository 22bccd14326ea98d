// The calculator UI frame (see app.h).
//
// [SECTION] Start-up and recomputation
// [SECTION] Frame layout: top bar, inputs column, result tabs, working pane
#include "app.h"

#include <algorithm>
#include <chrono>

#include "charts.h"
#include "compare_panel.h"
#include "imgui.h"
#include "inputs_panel.h"
#include "network_panel.h"
#include "ops_panel.h"
#include "overview_panel.h"
#include "planner_panel.h"
#include "results_text.h"
#include "scenario_edit.h"
#include "serving_panel.h"
#include "share_panel.h"
#include "site_links.h"
#include "training_panel.h"
#include "view_tabs.h"
#include "widgets.h"
#include "working_tooltip.h"
#include "sizer/formulas/apart.h"

namespace sizer_web {

// [SECTION] Start-up and recomputation
App::App() {
  reset_scenario(state_);
  reparse(state_);
  update_results();
}

// Re-parses after edits; rebuilds the text mirror when results, the problem list or the inputs as
// shown changed. After an edit it waits one frame: the inputs panel draws the applied values from
// the next frame on, and the mirror's inputs and results must be of the same scenario.
void App::update_results() {
  const auto t0 = std::chrono::steady_clock::now();
  const int before = state_.computed.revision;
  const bool edited = state_.editor.changed;
  if (edited) reparse(state_);
  if (state_.computed.revision != before) {
    state_.computed.recompute_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  const int issues = static_cast<int>(state_.editor.issues.size() + state_.editor.local.size());
  // A finished layout or serving search (both counters only grow, so their sum moves with either).
  const int planner = state_.view.planner.text_revision + state_.view.serve_planner.text_revision;
  // The text mirror is written from the second frame on (the next animation frame): the first
  // frame is what a visitor waits for, and the mirror's builder, kept out of line (sizer/formulas/apart.h), is
  // then compiled after it.
  if (frames_drawn_ < 2) return;
  if (state_.computed.revision != before || issues != text_issue_count_ || text_revision_ < 0 || text_stale_ ||
      planner != text_planner_revision_ || state_.view.pending.path != text_pending_ ||
      state_.view.inputs_shown != text_inputs_) {
    if (edited && text_revision_ >= 0) {
      text_stale_ = true;
      return;
    }
    text_stale_ = false;
    text_pending_ = state_.view.pending.path;
    text_inputs_ = state_.view.inputs_shown;
    results_text_ = sizer::call_apart(sizer_web::results_document, state_);
    text_issue_count_ = issues;
    text_planner_revision_ = planner;
    ++text_revision_;
  }
}

// [SECTION] Frame layout
namespace {

void top_bar(Ui& ui) {
  ImGui::PushFont(ui.fonts.heading);
  ImGui::TextUnformatted("Sizer");
  ImGui::PopFont();
  // Right side: sharing buttons (share_panel.h), then the theme. The tagline only where it fits
  // before them; on a narrow screen the buttons go under the title and wrap.
  const char* theme_label = ui.state.view.dark ? "Light theme" : "Dark theme";
  const float w = ImGui::CalcTextSize(theme_label).x + ImGui::GetStyle().FramePadding.x * 2;
  const float right = ImGui::GetWindowContentRegionMax().x - w - share_buttons_width(ui) - site_links_width(ui) -
                      ImGui::GetStyle().ItemSpacing.x;
  const char* tagline = "accelerators, time, money and power to train and serve large models";
  ImGui::SameLine();
  const float x = ImGui::GetCursorPosX();
  if (x + ImGui::CalcTextSize(tagline).x + ImGui::GetStyle().ItemSpacing.x <= right) {
    ImGui::AlignTextToFramePadding();
    ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.muted);
    ImGui::TextUnformatted(tagline);
    ImGui::PopStyleColor();
    ImGui::SameLine(right);
  } else if (x <= right) {
    ImGui::SameLine(right);
  } else {
    ImGui::NewLine();
  }
  share_buttons(ui);
  same_line_or_wrap(site_links_width(ui));
  site_links(ui);
  same_line_or_wrap(w);
  if (ImGui::Button(theme_label)) ui.state.view.dark = !ui.state.view.dark;
  note_rect(ui, "button:theme");
}

constexpr ViewTab kTabs[] = {{Tab::overview, "Overview"},    {Tab::training, "Training"},
                             {Tab::serving, "Serving"},      {Tab::network, "Communication"},
                             {Tab::operations, "Reliability & cost"},
                             {Tab::compare, "Compare chips"}, {Tab::charts, "Charts"},
                             {Tab::planner, "Planner"}};

void stale_banner(Ui& ui) {
  const size_t n = ui.state.editor.issues.size() + ui.state.editor.local.size();
  if (n == 0) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.bad);
  ImGui::Text("Showing the last valid results: %zu input problem%s to fix (marked in red on the left).", n, n == 1 ? "" : "s");
  ImGui::PopStyleColor();
}

// Continues the line with `text` when it fits there, else starts a new line; wraps at the edge.
void flow_text(const char* text, bool continue_line) {
  if (continue_line) same_line_or_wrap(ImGui::CalcTextSize(text).x);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
}

// Model, device and system over the views; on a narrow column each part wraps rather than being
// cut at the edge (rects "scenario:model", "scenario:device").
void scenario_line(Ui& ui) {
  const sizer::Scenario& s = ui.sc();
  ImGui::PushFont(ui.fonts.strong);
  flow_text(s.model.name.c_str(), false);
  ImGui::PopFont();
  note_rect(ui, "scenario:model");
  ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.muted);
  const std::string on = "on " + s.device.name + (s.system_id.empty() ? "" : " · " + s.system_id);
  flow_text(on.c_str(), true);
  note_rect(ui, "scenario:device");
  ImGui::PopStyleColor();
  if (const std::string what = sizer::user_supplied_what(s); !what.empty()) {  // text and colour (share_panel.h)
    ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.warn);
    flow_text(("· user-supplied " + what).c_str(), true);
    ImGui::PopStyleColor();
  }
}

// Each view's panel is called through this table, not a switch: a function called from one place
// is otherwise inlined into the frame (by LLVM at link time and again by wasm-opt), and the browser
// compiles a function whole the first time it runs. Kept apart, the first frame compiles the view
// it shows rather than all eight (see docs/budgets.md, lazy compilation).
using PanelFn = void (*)(Ui&);
constexpr PanelFn kPanels[] = {overview_panel, training_panel, serving_panel, network_panel,
                               ops_panel,      compare_panel,  charts_panel,  planner_panel};
static_assert(sizeof kPanels / sizeof kPanels[0] == static_cast<int>(Tab::planner) + 1, "one panel per Tab");

void results_area(Ui& ui) {
  scenario_line(ui);
  stale_banner(ui);
  share_banner(ui);
  view_tabs(ui, kTabs, static_cast<int>(sizeof kTabs / sizeof kTabs[0]));  // wrapping rows on a phone
  const Tab tab = ui.state.view.tab;
  const bool with_working = tab != Tab::compare && tab != Tab::charts;
  const bool pinned = !ui.state.view.pinned_working.empty();
  const float working_h = !with_working ? 0
                          : pinned     ? ImGui::GetTextLineHeightWithSpacing() * 4.6f + ui.px(30)
                                       : std::max(ImGui::GetTextLineHeightWithSpacing() + ui.px(8), working_hint_height(ui));
  ImGui::BeginChild("view", ImVec2(0, -working_h), false,
                    ImGuiWindowFlags_AlwaysUseWindowPadding | ImGuiWindowFlags_NavFlattened);
  ImGui::Spacing();
  const int panel = static_cast<int>(tab);
  if (panel >= 0 && panel < static_cast<int>(sizeof kPanels / sizeof kPanels[0])) kPanels[panel](ui);
  ImGui::EndChild();
  if (with_working) working_pane(ui);
}

}  // namespace

void App::draw(const Fonts& fonts, float width_px, float height_px, float dpr) {
  if (palette_dpr_ != dpr || palette_dark_ != state_.view.dark) {
    palette_ = apply_theme(state_.view.dark, dpr);
    palette_dpr_ = dpr;
    palette_dark_ = state_.view.dark;
  }
  state_.view.rects.clear();
  state_.view.hover_text.clear();
  ensure_working(state_, frames_drawn_++ > 0);  // the first frame shows no working (scenario_edit.h)
  Ui ui{fonts, palette_, dpr, state_};

  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(width_px, height_px));
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  if (!focused_once_) ImGui::SetNextWindowFocus();  // Tab works from page load, before any click
  focused_once_ = true;
  ImGui::Begin("Sizer", nullptr, flags);
  top_bar(ui);
  ImGui::Separator();
  // Inputs beside the results; on a narrow screen (a phone) above them, each scrolling.
  const bool narrow = width_px < ui.px(640);
  const float inputs_w = narrow ? 0.0f : std::clamp(width_px * 0.30f, ui.px(340), ui.px(460));
  const float inputs_h = narrow ? std::max(ui.px(160), ImGui::GetContentRegionAvail().y * 0.36f) : 0.0f;
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ui.px(12), ui.px(8)));
  // NavFlattened: Tab and the arrow keys cross from the page into the panels (ImGui 1.86 tabs
  // through the focused window only), so every field is reachable from page load.
  ImGui::BeginChild("inputs", ImVec2(inputs_w, inputs_h), true,
                    ImGuiWindowFlags_AlwaysUseWindowPadding | ImGuiWindowFlags_NavFlattened);
  ImGui::PopStyleVar();
  {  // the panel's visible area, for the browser tests (rect "panel:inputs")
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    state_.view.rects.push_back({"panel:inputs", pos.x, pos.y, size.x, size.y});
  }
  inputs_panel(ui);
  ImGui::EndChild();
  if (!narrow) ImGui::SameLine();
  ImGui::BeginChild("results", ImVec2(0, 0), false, ImGuiWindowFlags_NavFlattened);
  results_area(ui);
  ImGui::EndChild();
  ImGui::End();
  share_windows(ui);
  // A pending edit whose field was not drawn when it lost the focus (hidden by a click) is gone.
  if (!ImGui::IsAnyItemActive()) state_.view.pending = PendingEdit{};
  update_results();
}

}  // namespace sizer_web
