// The field kit every editor of the page is built from: the inputs column (inputs_panel.cpp,
// ops_inputs.cpp), the planners' tables (planner_fields.cpp, planner_panel.cpp, serve_planner.cpp,
// serve_fields.cpp) and the custom hardware dialog (custom_hardware.cpp). One number input draws,
// commits (Enter, Tab or leaving the field: widgets.h edit_committed) and names its rect for all
// of them; where a field sits sets its layout, its rect's name and the issues shown under it.
//
//   number_field(ui, {"training.days", "Schedule", 1, "days"});                 // inputs column
//   number_field(ui, {"serving.slo.tpot_s", "TPOT target (ms)", 1e-3, "", false, nullptr, nullptr, 0, "%.4g"},
//                FieldPlace::planner_table);
//   value_field(ui, {"memory", "HBM capacity", 1, "GB"}, &form.memory_gb, FieldPlace::custom_dialog);
//   const int i = combo_field(ui, "Region", "carbon.region", choices, current);
//
// [SECTION] Layout and issues
// [SECTION] Number fields
// [SECTION] Switches and choices
#pragma once
#include <string>
#include <vector>

#include "widgets.h"

namespace sizer_web {

// [SECTION] Layout and issues

// Column where a field's input starts in the inputs column, and an input's width there.
float label_width(Ui& ui);
float input_width(Ui& ui);
// A label in the inputs column, wrapped inside it, with a "(?)" showing `help` (rect "label:<label>").
void field_label(Ui& ui, const char* label, const char* help);
// Planner tables: label | input cell pairs in 4 columns, two fields per row; row_label draws a
// label cell and moves to its input cell.
bool begin_fields(Ui& ui, const char* id);
void row_label(const char* label);
// A label in the custom hardware dialog's label column; the input follows on its line.
void dialog_label(Ui& ui, const char* label);
// Errors (red) and warnings (amber) the core reported for `path`, under the field, in the unit
// the field shows when it has one (`unit`, registered for the text mirror too).
void field_issues(Ui& ui, const std::string& path, const FieldUnit* unit = nullptr);
bool has_error(Ui& ui, const std::string& path);
// Issues at `path` and below it; with `exact`, only those naming `path` itself (a block's own).
void issues_under(Ui& ui, const std::string& path, bool exact = false);
// A collapsible block header, open at first.
bool block_header(Ui& ui, const char* title);

// [SECTION] Number fields

// Where a field sits, which sets its layout, its rect's name and the issues under it:
//   inputs_column  label | input | unit (and hint) rows of the inputs column, rect "input:<path>";
//                  the core's issues at the path under it, in the field's unit; listed with its
//                  applied value in the text mirror;
//   planner_table  a label cell and an input cell of a planner table (begin_fields), rect
//                  "planner:<path>"; the issues at the path and below it under it;
//   custom_dialog  label | input | unit rows of the custom hardware dialog, rect "custom:<id>".
enum class FieldPlace { inputs_column, planner_table, custom_dialog };

// A number field. The members after `label` may be left out.
struct NumberSpec {
  const char* path;               // scenario JSON path (value_field: the field's id)
  const char* label;
  double scale = 1;               // stored value = shown value × scale (1e12 for "T tokens", 0.01 for "%")
  const char* unit = "";          // shown after the field (inputs column, dialog)
  bool integer = false;           // whole numbers: shown without decimals, rounded when applied
  const char* help = nullptr;     // the label's tooltip (inputs column)
  const char* hint = nullptr;     // shown after the unit (inputs column)
  double fallback = 0;            // shown when neither the draft nor the resolved scenario holds the value
  const char* format = nullptr;   // how the shown value is printed; unset: "%.0f" when integer, else "%.6g"
  const double* value = nullptr;  // shown instead of the scenario's value (stored units): a default from elsewhere
};

// The input of every number field, after the caller set its width: the error outline when `bad`,
// the rect named for `place` and `key`, the focus ring (rect "focus:<key>") and the commit. True
// once, when a typed value is committed, with it in *shown; while typing, the edit is pending
// under `key` and `label` (widgets.h pending_caption).
bool number_input(Ui& ui, FieldPlace place, const std::string& key, const char* label, double* shown,
                  const char* format, bool bad);
// A number stored at the scenario path `f.path`, shown as the stored value ÷ scale; a committed
// value is applied to the scenario.
void number_field(Ui& ui, const NumberSpec& f, FieldPlace place = FieldPlace::inputs_column);
// A number that is not stored at a scenario path of its own: a dialog's form value, or a value
// inside a larger object (serving.layout, a [min, max] range) that the caller writes whole.
// `*value` (stored units) is shown ÷ scale and receives the committed value: true on that frame.
// No issues are drawn under it: the caller shows those of the object it belongs to.
bool value_field(Ui& ui, const NumberSpec& f, double* value, FieldPlace place);
// A whole number at `path` in a planner table; `value` overrides what is shown.
void count_field(Ui& ui, const char* label, const char* path, const double* value = nullptr);

// [SECTION] Switches and choices

// A choice of a combo in the inputs column (from a catalog: devices, regions).
struct Choice {
  std::string value;
  std::string label;
  bool enabled = true;
  bool user = false;  // user-supplied: marked with text and colour
};
// A choice of a planner field (a fixed list).
struct Option {
  const char* value;
  const char* label;
};

// A switch for the boolean at `path` in the inputs column (rect "switch:<path>").
void checkbox_field(Ui& ui, const char* path, const char* label, const char* help);
// A switch for the boolean at `path` in a planner table (rect "planner:<path>").
void switch_field(Ui& ui, const char* label, const char* path);
// A combo over `choices` in the inputs column; returns the index picked this frame, or -1 (rect
// "combo:<path>", its entries "option:<path>=<value>").
int combo_field(Ui& ui, const char* label, const std::string& path, const std::vector<Choice>& choices,
                const std::string& current, const char* help = nullptr, float width = 0);
// A choice among `options` in a planner table, stored as a string (or as an integer when
// `integer`; rect "planner:<path>", its entries "planner:<path>=<value>").
void choice_field(Ui& ui, const char* label, const char* path, const std::vector<Option>& options, bool integer = false);
// A row of radio buttons for a choice stored as a string at `path` (rects "planner:<path>=<value>").
void radio_row(Ui& ui, const char* label, const char* path, const std::vector<Option>& options, const std::string& current);

}  // namespace sizer_web
