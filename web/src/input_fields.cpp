// The field kit (see input_fields.h): labels and issues, the number input every number field
// draws, and switches and choices, for the inputs column, the planners' tables and the custom
// hardware dialog.
//
// [SECTION] Layout and issues
// [SECTION] Number fields
// [SECTION] Switches and choices
#include "input_fields.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "scenario_edit.h"

namespace sizer_web {

using nlohmann::json;

// [SECTION] Layout and issues

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

bool begin_fields(Ui& ui, const char* id) {
  if (!ImGui::BeginTable(id, 4, ImGuiTableFlags_SizingStretchProp)) return false;
  ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthStretch, 0.29f);
  ImGui::TableSetupColumn("input", ImGuiTableColumnFlags_WidthStretch, 0.21f);
  ImGui::TableSetupColumn("label2", ImGuiTableColumnFlags_WidthStretch, 0.29f);
  ImGui::TableSetupColumn("input2", ImGuiTableColumnFlags_WidthStretch, 0.21f);
  (void)ui;
  return true;
}

// Fields sit in label | input cell pairs of a 4-column table (two fields per row).
void row_label(const char* label) {
  ImGui::TableNextColumn();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::TableNextColumn();
}

// The dialog's inputs start at one column, whatever the label's length.
void dialog_label(Ui& ui, const char* label) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  ImGui::SameLine(ui.px(190));
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

// Issues at `path` and below it; with `exact`, only those naming `path` itself (a block's own).
void issues_under(Ui& ui, const std::string& path, bool exact) {
  auto lines = [&](std::vector<const sizer::Issue*> list, ImU32 color) {
    if (exact) list.erase(std::remove_if(list.begin(), list.end(), [&](const sizer::Issue* i) { return i->path != path; }), list.end());
    issue_lines(ui, list, color);
  };
  lines(issues_at(ui.state.editor.issues, path), ui.pal.bad);
  lines(issues_at(ui.state.editor.warnings, path), ui.pal.warn);
}

bool block_header(Ui& ui, const char* title) {
  ImGui::Spacing();
  ImGui::PushFont(ui.fonts.strong);
  const bool open = ImGui::CollapsingHeader(title, ImGuiTreeNodeFlags_DefaultOpen);
  ImGui::PopFont();
  return open;
}

// [SECTION] Number fields

namespace {

const char* rect_prefix(FieldPlace place) {
  switch (place) {
    case FieldPlace::inputs_column: return "input:";
    case FieldPlace::planner_table: return "planner:";
    case FieldPlace::custom_dialog: return "custom:";
  }
  return "";
}

const char* shown_format(const NumberSpec& f) { return f.format ? f.format : f.integer ? "%.0f" : "%.6g"; }

// A number field as `place` lays it out: its label, the input (number_input), the unit and hint
// after it, and the caption under it while an edit is pending. True once when a typed value is
// committed, with it in *shown.
bool draw_number(Ui& ui, const NumberSpec& f, FieldPlace place, double* shown) {
  switch (place) {
    case FieldPlace::inputs_column: {
      const float lw = label_width(ui);
      field_label(ui, f.label, f.help);
      ImGui::SameLine(lw);
      ImGui::SetNextItemWidth(input_width(ui));
      break;
    }
    case FieldPlace::planner_table:
      row_label(f.label);
      ImGui::SetNextItemWidth(-1.0f);
      break;
    case FieldPlace::custom_dialog:
      dialog_label(ui, f.label);
      ImGui::SetNextItemWidth(ui.px(160));
      break;
  }
  const bool bad = place != FieldPlace::custom_dialog && has_error(ui, f.path);
  const bool committed = number_input(ui, place, f.path, f.label, shown, shown_format(f), bad);
  if (place == FieldPlace::inputs_column) {
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.muted);
    ImGui::TextUnformatted(f.unit);
    if (*f.unit) note_text(ui, std::string("unit:") + f.path, f.unit);
    if (f.hint) {
      ImGui::SameLine();
      ImGui::TextUnformatted(f.hint);
      note_text(ui, std::string("hint:") + f.path, f.hint);
    }
    ImGui::PopStyleColor();
  } else if (place == FieldPlace::custom_dialog) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", f.unit);
  }
  pending_caption(ui, f.path);
  return committed;
}

}  // namespace

bool number_input(Ui& ui, FieldPlace place, const std::string& key, const char* label, double* shown,
                  const char* format, bool bad) {
  if (bad) ImGui::PushStyleColor(ImGuiCol_Border, ui.pal.bad), ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, ui.px(1.5f));
  const bool typed = ImGui::InputDouble("##v", shown, 0.0, 0.0, format);
  if (bad) ImGui::PopStyleVar(), ImGui::PopStyleColor();
  note_rect(ui, rect_prefix(place) + key);
  focus_ring(ui, key);
  return edit_committed(ui, key, label, typed, shown);
}

void number_field(Ui& ui, const NumberSpec& f, FieldPlace place) {
  ImGui::PushID(f.path);
  double shown = (f.value ? *f.value : input_number(ui.state, f.path, f.fallback)) / f.scale;
  if (place == FieldPlace::inputs_column) {
    char applied[64];
    std::snprintf(applied, sizeof applied, shown_format(f), shown);
    note_input(ui, f.path, f.label, applied, f.unit);
  }
  if (draw_number(ui, f, place, &shown)) {
    set_input(ui.state, f.path, (f.integer ? std::round(shown) : shown) * f.scale);
  }
  if (place == FieldPlace::inputs_column) {
    const FieldUnit unit{f.label, f.scale, f.unit};
    field_issues(ui, f.path, &unit);
  }
  ImGui::PopID();
  if (place == FieldPlace::planner_table) issues_under(ui, f.path);
}

bool value_field(Ui& ui, const NumberSpec& f, double* value, FieldPlace place) {
  ImGui::PushID(f.path);
  double shown = *value / f.scale;
  const bool committed = draw_number(ui, f, place, &shown);
  if (committed) *value = (f.integer ? std::round(shown) : shown) * f.scale;
  ImGui::PopID();
  return committed;
}

void count_field(Ui& ui, const char* label, const char* path, const double* value) {
  number_field(ui, {path, label, 1, "", true, nullptr, nullptr, 0, nullptr, value}, FieldPlace::planner_table);
}

// [SECTION] Switches and choices

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

void switch_field(Ui& ui, const char* label, const char* path) {
  row_label(label);
  ImGui::PushID(path);
  bool on = input_bool(ui.state, path);
  if (ImGui::Checkbox("##b", &on)) set_input(ui.state, path, on);
  note_rect(ui, std::string("planner:") + path);
  focus_ring(ui, path);
  issues_under(ui, path);
  ImGui::PopID();
}

// A choice among `options`, stored as a string (or as an integer when `integer`); while its list
// is open, the entries' rects are "planner:<path>=<value>".
void choice_field(Ui& ui, const char* label, const char* path, const std::vector<Option>& options, bool integer) {
  row_label(label);
  ImGui::PushID(path);
  // Choosing the option it already has keeps an object's own keys (input_choice).
  const std::string current =
      integer ? std::to_string(static_cast<int>(input_number(ui.state, path))) : input_choice(ui.state, path);
  const char* preview = current.empty() && !options.empty() ? options.front().label : current.c_str();
  for (const Option& o : options) {
    if (current == o.value) preview = o.label;
  }
  ImGui::SetNextItemWidth(-1.0f);
  const std::string shown = preview;
  if (ImGui::BeginCombo("##c", preview)) {
    for (const Option& o : options) {
      if (ImGui::Selectable(o.label, current == o.value) && current != o.value) {
        set_input(ui.state, path, integer ? json(std::stoi(o.value)) : json(o.value));
      }
      note_rect(ui, std::string("planner:") + path + "=" + o.value);
    }
    ImGui::EndCombo();
  }
  note_text(ui, std::string("planner:") + path, shown);
  focus_ring(ui, path);
  issues_under(ui, path);
  ImGui::PopID();
}

// A row of radio buttons for a choice stored as a string at `path` (rects "planner:<path>=<value>").
void radio_row(Ui& ui, const char* label, const char* path, const std::vector<Option>& options, const std::string& current) {
  ImGui::PushID(path);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(label);
  for (const Option& o : options) {
    ImGui::SameLine();
    if (ImGui::RadioButton(o.label, current == o.value) && current != o.value) set_input(ui.state, path, o.value);
    note_rect(ui, std::string("planner:") + path + "=" + o.value);
  }
  issues_under(ui, path);
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

}  // namespace sizer_web
