// Field helpers of the inputs panel (left column), shared by its blocks (inputs_panel.cpp,
// ops_inputs.cpp): label | input | unit rows bound to a scenario path, combos, and the core's
// issues under the field they belong to, in the unit the field shows.
//
//   number_field(ui, {"training.days", "Schedule", 1, "days", false, nullptr});
//   const int i = combo_field(ui, "Region", "carbon.region", choices, current);
#pragma once
#include <string>
#include <vector>

#include "widgets.h"

namespace sizer_web {

struct NumberSpec {
  const char* path;   // scenario JSON path
  const char* label;
  double scale;       // stored value = shown value × scale (1e12 for "T tokens", 0.01 for "%")
  const char* unit;   // shown after the field
  bool integer;
  const char* help;   // tooltip, or nullptr
};

struct Choice {
  std::string value;
  std::string label;
  bool enabled = true;
  bool user = false;  // user-supplied: marked with text and colour
};

// Column where a field's input starts, and an input's width.
float label_width(Ui& ui);
float input_width(Ui& ui);
void field_label(Ui& ui, const char* label, const char* help);
// Errors (red) and warnings (amber) the core reported for `path`, under the field, in the unit
// the field shows when it has one (`unit`, registered for the text mirror too).
void field_issues(Ui& ui, const std::string& path, const FieldUnit* unit = nullptr);
bool has_error(Ui& ui, const std::string& path);
// A switch for the boolean at `path` (rect "switch:<path>").
void checkbox_field(Ui& ui, const char* path, const char* label, const char* help);
// A number for `path`, shown as the stored value ÷ scale; `hint` after the unit; `fallback` is
// shown when neither the draft nor the resolved scenario holds the value (a default from a table).
// Typed values apply on Enter, Tab or leaving the field (widgets.h edit_committed).
void number_field(Ui& ui, const NumberSpec& f, const char* hint = nullptr, double fallback = 0);
// A combo over `choices`; returns the index picked this frame, or -1 (rect "combo:<path>").
int combo_field(Ui& ui, const char* label, const std::string& path, const std::vector<Choice>& choices,
                const std::string& current, const char* help = nullptr, float width = 0);
// A collapsible block header, open at first.
bool block_header(Ui& ui, const char* title);

}  // namespace sizer_web
