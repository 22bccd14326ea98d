// Planner editor fields (numbers, choices and switches bound to scenario paths, with the issues
// under them) and the layout editor built from them.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "widgets.h"

namespace sizer_web {

struct Option {
  const char* value;
  const char* label;
};

// A label cell, then moves to the input cell (fields sit in a 4-column table, two per row).
void row_label(const char* label);
// Issues at `path` and below it; with `exact`, only those naming `path` itself (a block's own).
void issues_under(Ui& ui, const std::string& path, bool exact = false);
// A number field showing `shown` in `format` whose committed value goes to `apply` (rect
// "planner:<id>"; issues at `id` outline it). What number_field and values stored inside a larger
// object (serving.layout, serving.search.devices) are edited with.
void number_cell(Ui& ui, const char* label, const std::string& id, double shown, const char* format,
                 const std::function<void(double)>& apply);
// A number field for `path` shown as the stored value ÷ `scale` in `format` (TPOT in ms: scale
// 1e-3, "%.4g"); whole numbers when `whole`; `value` overrides what is shown.
void number_field(Ui& ui, const char* label, const char* path, double scale, const char* format, bool whole,
                  const double* value = nullptr);
// An integer field for `path`; `value` overrides what is shown (e.g. a default from elsewhere).
void count_field(Ui& ui, const char* label, const char* path, const double* value = nullptr);
void switch_field(Ui& ui, const char* label, const char* path);
// A choice among `options`, stored as a string (or as an integer when `integer`).
void choice_field(Ui& ui, const char* label, const char* path, const std::vector<Option>& options, bool integer = false);
// A row of radio buttons for a choice stored as a string at `path` (rects "planner:<path>=<value>").
void radio_row(Ui& ui, const char* label, const char* path, const std::vector<Option>& options, const std::string& current);
bool begin_fields(Ui& ui, const char* id);
// The layout editor: degrees, batch, switches, stack and recompute (training.layout).
void layout_editor(Ui& ui);

}  // namespace sizer_web
