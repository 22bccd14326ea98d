// The input fields every inputs block is built from (see input_fields.h): label | input | unit
// rows, combos, switches, block headers and the issues the core reported under each field.
#include "input_fields.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "scenario_edit.h"

namespace sizer_web {

// A narrow panel (a phone, 150% zoom) gives labels a little more of its width and inputs a little
// less, so "Total parameters (?)" keeps one line and units keep their room.
bool narrow_panel(Ui& ui) { return ImGui::GetContentRegionAvail().x < ui.px(420); }
float label_width(Ui& ui) {
  return std::max(ui.px(120), ImGui::GetContentRegionAvail().x * (narrow_panel(ui) ? 0.48f : 0.42f));
}
float input_width(Ui& ui) {
  return std::max(ui.px(80), ImGui::GetContentRegionAvail().x * (narrow_panel(ui) ? 0.26f : 0.30f));
}

// One line when the label and its (?) fit in the label column; else wrapped inside the column, the
// (?) after the last line, so a label never runs under its input at any zoom (the caller's
// SameLine after the group lines the input up with the first line). Rect "label:<label>".
void field_label(Ui& ui, const char* label, const char* help) {
  const float space = ImGui::GetStyle().ItemSpacing.x;
  const float marker = help ? space + ImGui::CalcTextSize("(?)").x : 0.0f;
  const float room = label_width(ui) - ImGui::GetCursorPosX() - space - marker;
  ImGui::BeginGroup();
  ImGui::AlignTextToFramePadding();
  if (ImGui::CalcTextSize(label).x <= room || room < ui.px(24)) {
    ImGui::TextUnformatted(label);
  } else {
    const ImFont* font = ImGui::GetFont();
    ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(space, 0.0f));
    for (std::string_view line : wrap_lines(font, ImGui::GetFontSize() / font->FontSize, label, room)) {
      ImGui::TextUnformatted(line.data(), line.data() + line.size());
    }
    ImGui::PopStyleVar();
  }
  if (help) help_marker(ui, help);
  ImGui::EndGroup();
  note_rect(ui, std::string("label:") + label);
}

// Errors (red) and warnings (amber) the core reported for `path`, under the field, in the unit
// the field shows when it has one (`unit`, registered for the text mirror too).
void field_issues(Ui& ui, const std::string& path, const FieldUnit* unit) {
  ui.state.view.field_paths.push_back(path);
  if (unit) ui.state.view.field_units[path] = *unit;
  issue_lines(ui, issues_at(ui.state.editor.local, path), ui.pal.bad);
  std::vector<sizer::Issue> shown;
  for (const sizer::Issue* i : issues_at(ui.state.editor.issues, path)) {
    shown.push_back({i->path, unit ? in_field_units(i->message, *unit) : i->message});
  }
  std::vector<const sizer::Issue*> list;
  for (const sizer::Issue& i : shown) list.push_back(&i);
  issue_lines(ui, list, ui.pal.bad);
  issue_lines(ui, issues_at(ui.state.editor.warnings, path), ui.pal.warn);
}

bool has_error(Ui& ui, const std::string& path) {
  return !issues_at(ui.state.editor.issues, path).empty() || !issues_at(ui.state.editor.local, path).empty();
}

// A switch bound to a boolean scenario path, label on the left as the number fields have it; its
// rect is "switch:<path>" ("input:" names the text fields that Tab walks through).
void checkbox_field(Ui& ui, const char* path, const char* label, const char* help) {
  bool on = input_bool(ui.state, path);
  note_input(ui, path, label, on ? "on" : "off");
  field_label(ui, label, help);
  ImGui::SameLine(label_width(ui));
  ImGui::PushID(path);
  if (ImGui::Checkbox("##on", &on)) set_input(ui.state, path, on);
  ImGui::PopID();
  note_rect(ui, std::string("switch:") + path);
}

void number_field(Ui& ui, const NumberSpec& f, const char* hint, double fallback) {
  ImGui::PushID(f.path);
  const float lw = label_width(ui);
  field_label(ui, f.label, f.help);
  ImGui::SameLine(lw);
  ImGui::SetNextItemWidth(input_width(ui));
  double shown = input_number(ui.state, f.path, fallback) / f.scale;
  char applied[64];
  std::snprintf(applied, sizeof applied, f.integer ? "%.0f" : "%.6g", shown);
  note_input(ui, f.path, f.label, applied, f.unit);
  const bool bad = has_error(ui, f.path);
  if (bad) ImGui::PushStyleColor(ImGuiCol_Border, ui.pal.bad), ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, ui.px(1.5f));
  const bool typed = ImGui::InputDouble("##v", &shown, 0.0, 0.0, f.integer ? "%.0f" : "%.6g");
  if (bad) ImGui::PopStyleVar(), ImGui::PopStyleColor();
  note_rect(ui, std::string("input:") + f.path);
  focus_ring(ui, f.path);
  if (edit_committed(ui, f.path, f.label, typed, &shown)) {
    set_input(ui.state, f.path, f.integer ? std::round(shown) * f.scale : shown * f.scale);
  }
  ImGui::SameLine();
  ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.muted);
  ImGui::TextUnformatted(f.unit);
  if (*f.unit) note_text(ui, std::string("unit:") + f.path, f.unit);
  if (hint) {
    ImGui::SameLine();
    ImGui::TextUnformatted(hint);
    note_text(ui, std::string("hint:") + f.path, hint);
  }
  ImGui::PopStyleColor();
  pending_caption(ui, f.path);
  const FieldUnit unit{f.label, f.scale, f.unit};
  field_issues(ui, f.path, &unit);
  ImGui::PopID();
}

int combo_field(Ui& ui, const char* label, const std::string& path, const std::vector<Choice>& choices,
                const std::string& current, const char* help, float width) {
  ImGui::PushID(path.c_str());
  int picked = -1;
  std::string preview = current;
  bool preview_user = false;
  for (const Choice& c : choices) {
    if (c.value == current) preview = c.label, preview_user = c.user;
  }
  note_input(ui, path, label && *label ? label : path, preview);
  if (label && *label) {
    field_label(ui, label, help);
    ImGui::SameLine(label_width(ui));
  }
  ImGui::SetNextItemWidth(width > 0 ? width : -1.0f);
  if (preview_user) ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.warn);
  const bool open = ImGui::BeginCombo("##c", preview.c_str(), ImGuiComboFlags_HeightLarge);
  if (preview_user) ImGui::PopStyleColor();
  if (open) {
    for (size_t i = 0; i < choices.size(); ++i) {
      ImGui::PushID(static_cast<int>(i));
      const bool selected = choices[i].value == current;
      if (choices[i].user) ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.warn);
      if (ImGui::Selectable(choices[i].label.c_str(), selected,
                            choices[i].enabled ? 0 : ImGuiSelectableFlags_Disabled)) {
        picked = static_cast<int>(i);
      }
      note_rect(ui, "option:" + path + "=" + choices[i].value);
      if (choices[i].user) ImGui::PopStyleColor();
      if (selected) ImGui::SetItemDefaultFocus();
      ImGui::PopID();
    }
    ImGui::EndCombo();
  }
  note_rect(ui, "combo:" + path);
  focus_ring(ui, path);
  field_issues(ui, path);
  ImGui::PopID();
  return picked;
}

bool block_header(Ui& ui, const char* title) {
  ImGui::Spacing();
  ImGui::PushFont(ui.fonts.strong);
  const bool open = ImGui::CollapsingHeader(title, ImGuiTreeNodeFlags_DefaultOpen);
  ImGui::PopFont();
  return open;
}

}  // namespace sizer_web
