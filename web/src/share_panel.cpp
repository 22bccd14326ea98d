// The sharing UI (see share_panel.h).
//
// [SECTION] Top-bar buttons and the Export menu
// [SECTION] Message line
// [SECTION] Link and embed dialogs (the custom hardware dialog is custom_hardware.cpp)
#include "share_panel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "custom_hardware.h"
#include "scenario_edit.h"
#include "share_actions.h"
#include "sizer/formulas/apart.h"

namespace sizer_web {

using nlohmann::json;

namespace {

constexpr const char* kButtons[] = {"Copy link", "Embed", "Export", "Import", "Custom hardware"};
constexpr const char* kButtonIds[] = {"button:copy-link", "button:embed", "button:export", "button:import", "button:custom"};

void menu_item(Ui& ui, const char* label, const char* id, bool enabled, void (*fn)(AppState&)) {
  if (ImGui::MenuItem(label, nullptr, false, enabled)) fn(ui.state);
  note_rect(ui, std::string("menu:") + id);
}

void export_menu(Ui& ui) {
  if (!ImGui::BeginPopup("export")) return;
  ImGui::TextDisabled("Results (same numbers as sizer eval)");
  menu_item(ui, "Results as JSON (v1 contract)", "results-json", true, [](AppState& s) { export_results(s, "json"); });
  menu_item(ui, "Results as CSV", "results-csv", true, [](AppState& s) { export_results(s, "csv"); });
  menu_item(ui, "Results as a Markdown table", "results-markdown", true, [](AppState& s) { export_results(s, "markdown"); });
  ImGui::Separator();
  menu_item(ui, "Scenario as a JSON file", "scenario-json", true, export_scenario);
  menu_item(ui, "Comparison table as CSV", "compare-csv", true, [](AppState& s) { export_comparison(s, "csv"); });
  menu_item(ui, "Comparison table as Markdown", "compare-markdown", true, [](AppState& s) { export_comparison(s, "markdown"); });
  const bool charts = ui.state.view.tab == Tab::charts;
  menu_item(ui, charts ? "Charts as PNG" : "Charts as PNG (open the Charts tab first)", "charts-png", charts, export_charts_png);
  ImGui::Separator();
  menu_item(ui, "Download offline copy (this scenario preloaded)", "offline", true, download_offline_copy);
  ImGui::EndPopup();
}

// Read-only text the user can select and copy by hand (clipboards can be refused).
void copy_box(Ui& ui, const char* id, const std::string& text, float height_lines) {
  std::string buffer = text;
  ImGui::PushFont(ui.fonts.numbers);
  ImGui::InputTextMultiline(id, buffer.data(), buffer.size() + 1,
                            ImVec2(-1, ImGui::GetTextLineHeight() * height_lines + ui.px(10)),
                            ImGuiInputTextFlags_ReadOnly);
  ImGui::PopFont();
}

}  // namespace

// [SECTION] Top-bar buttons
float share_buttons_width(Ui&) {
  const ImGuiStyle& st = ImGui::GetStyle();
  float w = 0;
  for (const char* b : kButtons) w += ImGui::CalcTextSize(b).x + st.FramePadding.x * 2 + st.ItemSpacing.x;
  return w;
}

void share_buttons(Ui& ui) {
  for (int i = 0; i < 5; ++i) {
    if (i > 0) same_line_or_wrap(ImGui::CalcTextSize(kButtons[i]).x + ImGui::GetStyle().FramePadding.x * 2);
    const bool clicked = ImGui::Button(kButtons[i]);
    note_rect(ui, kButtonIds[i]);
    if (!clicked) continue;
    switch (i) {
      case 0: copy_link(ui.state); break;
      case 1: ui.state.share.embed_open = true; break;
      case 2: ImGui::OpenPopup("export"); break;
      case 3: ui.state.share.outbox.push_back({PageAction::Kind::pick_file, "", "", ""}); break;
      case 4: ui.state.share.custom_open = true; break;
    }
  }
  export_menu(ui);
}

// [SECTION] Message line
void share_banner(Ui& ui) {
  ShareMessage& m = ui.state.share.message;
  if (m.title.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, m.error ? ui.pal.bad : ui.pal.good);
  ImGui::PushTextWrapPos(ImGui::GetContentRegionMax().x - ui.px(80));
  ImGui::TextUnformatted(m.title.c_str());
  ImGui::PopStyleColor();
  ImGui::SameLine();
  if (ImGui::SmallButton("Dismiss")) m.title.clear();
  note_rect(ui, "button:dismiss");
  ImGui::PushFont(ui.fonts.small);
  for (const std::string& line : m.lines) {
    ImGui::PushStyleColor(ImGuiCol_Text, m.error ? ui.pal.bad : ui.pal.muted);
    ImGui::Text("• %s", line.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::PopFont();
  ImGui::PopTextWrapPos();
}

// [SECTION] Link and embed dialogs
void centre_next(Ui& ui, float w, float h) {
  const ImVec2 size = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(size.x * 0.5f, size.y * 0.45f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  // Never wider or taller than the screen (a phone): the text wraps inside instead.
  ImGui::SetNextWindowSize(ImVec2(std::min(ui.px(w), size.x - ui.px(16)), std::min(ui.px(h), size.y - ui.px(16))),
                           ImGuiCond_Appearing);
}

namespace {

// In a copy opened from a file (share_state.h: hosted false), links and snippets name that file.
void file_copy_warning(Ui& ui, const char* name, const char* text) {
  if (ui.state.share.hosted) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.warn);
  ImGui::TextWrapped("%s", text);
  note_text(ui, name, text);
  ImGui::PopStyleColor();
}

void link_window(Ui& ui) {
  ShareState& sh = ui.state.share;
  if (!sh.link_open) return;
  centre_next(ui, 640, sh.hosted ? 250 : 310);
  if (ImGui::Begin("Link to this scenario", &sh.link_open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    caption(ui, "The link holds the whole scenario (model, device, every edited field, your custom hardware and "
                "prices) in its #fragment, so it never reaches a server. It was copied to the clipboard; if your "
                "browser refused, select it below.");
    file_copy_warning(ui, "warning:link", "This copy was opened from a file: the link is a file:// address that opens only on "
                          "this machine, where this file is. To share the scenario, send the offline file itself "
                          "(Export, Download offline copy) or open the hosted calculator and copy the link there.");
    copy_box(ui, "##link", sh.page_url + "#" + sh.shown_fragment, 3);
    note_rect(ui, "text:link");
    if (ImGui::Button("Copy again")) copy_link(ui.state);
    ImGui::SameLine();
    if (ImGui::Button("Close")) sh.link_open = false;
    note_rect(ui, "link:close");
  }
  ImGui::End();
}

void embed_window(Ui& ui) {
  ShareState& sh = ui.state.share;
  if (!sh.embed_open) return;
  centre_next(ui, 720, 600);
  if (ImGui::Begin("Embed this scenario", &sh.embed_open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    caption(ui, "A compact card for a blog post: pick the results it shows and the inputs readers may change. "
                "It links back to the full calculator.");
    ImGui::PushFont(ui.fonts.strong);
    ImGui::TextUnformatted("Results to show");
    ImGui::PopFont();
    for (int i = 0; i < 12; ++i) {
      if (i % 3 != 0) ImGui::SameLine(ui.px(16) + (i % 3) * ui.px(230));
      ImGui::Checkbox(kEmbedOutputs[i], &sh.embed.show[i]);
      note_rect(ui, std::string("embed:show:") + kEmbedOutputs[i]);
    }
    ImGui::PushFont(ui.fonts.strong);
    ImGui::TextUnformatted("Inputs readers may change");
    ImGui::PopFont();
    for (int i = 0; i < 6; ++i) {
      if (i % 3 != 0) ImGui::SameLine(ui.px(16) + (i % 3) * ui.px(230));
      ImGui::Checkbox(kEmbedInputs[i], &sh.embed.inputs[i]);
      note_rect(ui, std::string("embed:in:") + kEmbedInputs[i]);
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Title (optional)");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    ImGui::InputText("##title", sh.embed.title, sizeof sh.embed.title);
    note_rect(ui, "embed:title");
    file_copy_warning(ui, "warning:embed", "This copy was opened from a file: the snippets point at it, but blogs need the "
                          "calculator on a web server. Open the hosted calculator to embed.");
    ImGui::PushFont(ui.fonts.strong);
    ImGui::TextUnformatted("iframe");
    ImGui::PopFont();
    const std::string iframe = embed_iframe_snippet(ui.state);
    copy_box(ui, "##iframe", iframe, 4);
    note_rect(ui, "text:iframe");
    if (ImGui::Button("Copy iframe")) sh.outbox.push_back({PageAction::Kind::copy, "iframe", "", iframe});
    note_rect(ui, "button:copy-iframe");
    ImGui::PushFont(ui.fonts.strong);
    ImGui::TextUnformatted("Or a div and embed.js (the script turns it into the iframe)");
    ImGui::PopFont();
    const std::string div = embed_div_snippet(ui.state);
    copy_box(ui, "##div", div, 4);
    if (ImGui::Button("Copy div and script")) sh.outbox.push_back({PageAction::Kind::copy, "div", "", div});
    note_rect(ui, "button:copy-div");
    ImGui::SameLine();
    if (ImGui::Button("Close")) sh.embed_open = false;
    note_rect(ui, "embed:close");
  }
  ImGui::End();
}

}  // namespace

void share_windows(Ui& ui) {
  // Closed dialogs are not called, and each stays out of line (sizer/formulas/apart.h): nothing of them is
  // compiled before one is opened.
  const ShareState& sh = ui.state.share;
  if (sh.link_open) sizer::call_apart(link_window, ui);
  if (sh.embed_open) sizer::call_apart(embed_window, ui);
  if (sh.custom_open) sizer::call_apart(custom_window, ui);
}

}  // namespace sizer_web
