// Shared building blocks of the panels: the per-frame UI context, result values that show their
// working on hover and pin it on click, result tables with right-aligned numbers, cards, section
// titles and the named rectangles the browser tests use.
//
//   Ui ui{fonts, palette, dpr, state};
//   if (begin_results("memory")) { result_row(ui, "State", fmt::bytes(x), "training.memory.state_bytes"); end_results(); }
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "app_state.h"
#include "fonts.h"
#include "imgui.h"
#include "theme.h"

namespace sizer_web {

struct Ui {
  const Fonts& fonts;
  const Palette& pal;
  float dpr;
  AppState& state;
  float px(float css) const { return css * dpr; }
  const sizer::Estimate& est() const { return state.computed.estimate; }
  const sizer::Scenario& sc() const { return state.computed.scenario; }
};

// Records the last item's rectangle under `name` (window.sizerUi in the page, for tests).
void note_rect(Ui& ui, const std::string& name);
// After a text or number field: while a finger is editing it and the display just got shorter (a
// phone's keyboard opening shrinks the window), scrolls its panel so the field stays visible.
// note_rect calls it for every published field.
void keep_edited_field_in_view(const Ui& ui);
// The same, with the text the last item drew (a unit, a hint, a column header, a card's value):
// published beside the rectangle, so a test reads what the canvas shows.
void note_text(Ui& ui, const std::string& name, const std::string& text);
// Draws a visible focus ring around the last item while it is being edited or keyboard-focused,
// and publishes it as the rect "focus:<name>" (and "editing:<name>" while its text is being
// edited), so browser tests can read which field has the focus.
void focus_ring(Ui& ui, const std::string& name);
// After a text-like item: records what was typed (`typed` true on a frame the text changed) and
// returns true once, when the edit should be applied (Enter, Tab, a click elsewhere), with the
// typed value in `*value`; false when it is still being typed or Escape threw it away.
bool edit_committed(Ui& ui, const std::string& path, const char* label, bool typed, double* value);
// A core message about a field, in the field's unit ("must be a number in [1, 1e+18]; got -5e12"
// becomes "must be from 1e-12 T to 1,000,000 T; got -5 T"); other messages are returned as they are.
std::string in_field_units(const std::string& message, const FieldUnit& field);
// "training.tokens: message in its unit (field: Training tokens)" when a field for `path` is drawn.
std::string named_issue(const AppState& s, const std::string& path, const std::string& message);
// Records a field's applied value as shown, for the text mirror (ViewState::inputs_shown).
void note_input(Ui& ui, const std::string& path, const std::string& label, const std::string& value,
                const std::string& unit = std::string());
// Under a field whose typed text is pending: "editing — not applied yet" (ViewState::pending).
void pending_caption(Ui& ui, const std::string& path);

// Section title in the heading font with an optional muted line under it.
void section_title(Ui& ui, const char* title, const char* subtitle = nullptr);
// Muted, wrapped small text.
void caption(Ui& ui, const std::string& text);

// Whether an item `item_w` wide fits after the last item on its line, inside the window's width.
bool fits_after_last_item(float item_w);
// ImGui::SameLine(), or a new line when an item `item_w` wide would not fit the window's width.
void same_line_or_wrap(float item_w);
// `text` cut into the lines ImGui's word wrap makes at `width_px` in `font` (drawn at `scale` of
// its size), blanks at each break dropped, as wrapped text is drawn.
std::vector<std::string_view> wrap_lines(const ImFont* font, float scale, std::string_view text, float width_px);
// A "(?)" marker whose tooltip is `text`.
void help_marker(Ui& ui, const char* text);

// A number in the numbers font. Hovering shows the working of `path` (when the core recorded
// one); clicking pins it in the working pane. `align_right` right-aligns in the available width.
void value_text(Ui& ui, const std::string& text, const std::string& path, bool align_right = true,
                ImU32 color = 0);

// Tables of results: quantity | value | note.
bool begin_results(Ui& ui, const char* id, const char* value_header = "Value");
void result_row(Ui& ui, const char* label, const std::string& value, const std::string& path,
                const std::string& note = std::string(), ImU32 color = 0);
void end_results();

// Verdict of an interconnect case as a coloured word.
ImU32 verdict_color(const Ui& ui, sizer::comms::Verdict v);
const char* verdict_label(sizer::comms::Verdict v);

// Bulleted, wrapped issue messages in `color` (errors red, warnings amber), under a field.
void issue_lines(Ui& ui, const std::vector<const sizer::Issue*>& list, ImU32 color);

// "a – b" for a range of already formatted values (one value when they are equal; a shared unit
// is written once: "26.8 – 38.7 MW").
std::string range_text(const std::string& a, const std::string& b);
// A value per MFU point that may be out of reach (not a number: no cluster meets the schedule at
// that point, the result's nulls say why): the value, or "out of reach".
std::string reach_text(double v, std::string (*f)(double));
// A chart coordinate for a value that may be not defined (tokens/s per user with one output
// token): the value, else `fallback`.
inline double finite_or(double v, double fallback) { return v == v && v - v == 0 ? v : fallback; }
// The smallest and largest values in reach of such a list; false when none is.
bool reach_range(const std::vector<double>& v, double* lo, double* hi);
// The range of such a list over the points in reach, "(out of reach at some MFU)" after it when
// some are not (unless `say_missing` is false: a card says so in its detail), "out of reach"
// when none is; `empty` for an empty list.
std::string reach_span(const std::vector<double>& v, std::string (*f)(double), const char* empty = "none",
                       bool say_missing = true);
// Inputs echoed back: "90", "0.45", "12.5" (up to 4 significant digits, no trailing zeros).
std::string plain(double v);
std::string pct(double fraction);  // "38%", "12.5%"
std::string humanise(std::string id);  // "capacity_block" -> "capacity block"
// How the serving replica's size was chosen, for the overview card and the text mirror:
// "automatic: the smallest power of two ≥ the minimum 10 inside a scale-up domain", "set; minimum 24".
std::string replica_basis_text(const sizer::Scenario& s, const sizer::ServingResult& v);
// Why an undersized replica (ServingResult::replica_fits false) has no cost or fleet.
std::string replica_too_small_text(const sizer::ServingResult& v);

// Two side-by-side columns on wide views, one column on narrow ones:
//   if (begin_grid(ui, "id")) { ...; next_cell(); ...; end_grid(); }
bool begin_grid(Ui& ui, const char* id);
void next_cell();
void end_grid();

}  // namespace sizer_web
