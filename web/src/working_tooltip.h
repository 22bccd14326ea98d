// "Show the working": the tooltip over any result value and the pinned working pane, both from
// the sizer::Working records the core writes while evaluating (formula, substituted values,
// source). Paths are result-JSON paths ("training.compute.device_hours[1]").
#pragma once
#include <string>

#include "widgets.h"

namespace sizer_web {

// The working for `path`, or for its first list element ("x" finds "x[0]"); nullptr if none.
const sizer::Working* find_working(const sizer::Estimate& e, const std::string& path);

void working_tooltip(Ui& ui, const sizer::Working& w);

// Height the working pane needs when nothing is pinned: its hint, wrapped to the window's width.
float working_hint_height(Ui& ui);

// The pinned working (clicked value), drawn as a card; a hint when nothing is pinned.
void working_pane(Ui& ui);

}  // namespace sizer_web
