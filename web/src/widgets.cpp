// Shared building blocks of the panels (see widgets.h).
#include "widgets.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "imgui_internal.h"  // ScrollToBringRectIntoView, the current window's visible rectangle

#include "sizer/formulas/working.h"
#include "working_tooltip.h"

namespace sizer_web {

bool fits_after_last_item(float item_w) {
  const float x = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + ImGui::GetStyle().ItemSpacing.x;
  return x + item_w <= ImGui::GetWindowContentRegionMax().x;
}

void same_line_or_wrap(float item_w) {
  const bool fits = fits_after_last_item(item_w);
  ImGui::SameLine();
  if (!fits) ImGui::NewLine();
}

std::vector<std::string_view> wrap_lines(const ImFont* font, float scale, std::string_view text, float width_px) {
  std::vector<std::string_view> lines;
  const char* end = text.data() + text.size();
  for (const char* s = text.data(); s < end;) {
    const char* e = font->CalcWordWrapPositionA(scale, s, end, width_px);
    if (e == s) e = end;  // nothing fits: never loop
    lines.emplace_back(s, static_cast<size_t>(e - s));
    s = e;
    while (s < end && (*s == ' ' || *s == '\n')) ++s;
  }
  return lines;
}

namespace {

// Whether the display got shorter since the last frame: a phone's on-screen keyboard opening
// shrinks the window (Android), and the field being typed into must not end up under it.
bool display_shrank() {
  static int frame = -1;
  static float previous = 0, current = 0;
  if (ImGui::GetFrameCount() != frame) {
    frame = ImGui::GetFrameCount();
    previous = current;
    current = ImGui::GetIO().DisplaySize.y;
  }
  return previous > 0 && current < previous - 0.5f;
}

}  // namespace

void keep_edited_field_in_view(const Ui& ui) {
  if (!ui.state.view.touch_pointer || !ImGui::IsItemActive() || !display_shrank()) return;
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const ImRect item(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  if (!window->InnerClipRect.Contains(item)) ImGui::ScrollToBringRectIntoView(window, item);
}

void note_rect(Ui& ui, const std::string& name) {
  const ImVec2 a = ImGui::GetItemRectMin();
  const ImVec2 b = ImGui::GetItemRectMax();
  ui.state.view.rects.push_back({name, a.x, a.y, b.x - a.x, b.y - a.y});
  keep_edited_field_in_view(ui);
}

void note_text(Ui& ui, const std::string& name, const std::string& text) {
  note_rect(ui, name);
  ui.state.view.rects.back().text = text;
}

void focus_ring(Ui& ui, const std::string& name) {
  if (!ImGui::IsItemActive() && !ImGui::IsItemFocused()) return;
  const float pad = ui.px(2);
  const ImVec2 a = ImGui::GetItemRectMin();
  const ImVec2 b = ImGui::GetItemRectMax();
  ImGui::GetWindowDrawList()->AddRect(ImVec2(a.x - pad, a.y - pad), ImVec2(b.x + pad, b.y + pad), ui.pal.accent,
                                      ImGui::GetStyle().FrameRounding + pad, 0, ui.px(2));
  ui.state.view.rects.push_back({"focus:" + name, a.x, a.y, b.x - a.x, b.y - a.y});
  if (ImGui::IsItemActive()) ui.state.view.rects.push_back({"editing:" + name, a.x, a.y, b.x - a.x, b.y - a.y});
}

bool edit_committed(Ui& ui, const std::string& path, const char* label, bool typed, double* value) {
  PendingEdit& p = ui.state.view.pending;
  // While active, ImGui parses the field's whole text into *value every frame (or leaves the
  // applied value when the text equals it): once typed into, that is the pending value.
  if (ImGui::IsItemActive() && (typed || p.path == path)) p = {path, label, *value};
  if (ImGui::IsItemDeactivated() && (typed || p.path == path)) {
    // Text typed in the frame that ends the edit (a slow frame: the last key and Enter arrive
    // together) is already parsed into *value; else the pending value holds what was typed.
    const bool apply = (ImGui::IsItemDeactivatedAfterEdit() || typed) && !ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape));
    if (!typed) *value = p.value;
    p = PendingEdit{};
    return apply;
  }
  return false;
}

std::string in_field_units(const std::string& message, const FieldUnit& field) {
  if (field.scale == 1 && field.unit != "%") return message;
  double lo = 0, hi = 0, got = 0;
  const bool whole = message.rfind("must be a whole number in [", 0) == 0;
  const char* form = whole ? "must be a whole number in [%lf, %lf]; got %lf" : "must be a number in [%lf, %lf]; got %lf";
  if (std::sscanf(message.c_str(), form, &lo, &hi, &got) != 3) return message;
  const std::string space = field.unit == "%" ? "" : " ";
  auto shown = [&](double v) { return plain(v / field.scale) + space + field.unit; };
  return std::string(whole ? "must be a whole number from " : "must be from ") + shown(lo) + " to " + shown(hi) +
         "; got " + shown(got);
}

std::string named_issue(const AppState& s, const std::string& path, const std::string& message) {
  // "training.mfu[1]" is about the field at "training.mfu".
  const auto& units = s.view.field_units;
  auto it = units.find(path);
  if (it == units.end()) it = units.find(path.substr(0, path.find('[')));
  if (it == units.end()) return path + ": " + message;
  return path + ": " + in_field_units(message, it->second) + " (field: " + it->second.label + ")";
}

void note_input(Ui& ui, const std::string& path, const std::string& label, const std::string& value,
                const std::string& unit) {
  ui.state.view.inputs_shown.push_back({path, label, value, unit});
}

void pending_caption(Ui& ui, const std::string& path) {
  if (ui.state.view.pending.path == path) {
    ImGui::PushFont(ui.fonts.small);
    ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.accent);
    ImGui::TextUnformatted("editing — not applied yet: Enter or Tab applies, Esc reverts");
    ImGui::PopStyleColor();
    ImGui::PopFont();
  }
}

void section_title(Ui& ui, const char* title, const char* subtitle) {
  ImGui::PushFont(ui.fonts.heading);
  ImGui::TextUnformatted(title);
  ImGui::PopFont();
  if (subtitle) caption(ui, subtitle);
  ImGui::Dummy(ImVec2(0, ui.px(2)));
}

void caption(Ui& ui, const std::string& text) {
  ImGui::PushFont(ui.fonts.small);
  ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.muted);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  ImGui::PopFont();
}

void help_marker(Ui& ui, const char* text) {
  ImGui::SameLine();
  ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.faint);
  ImGui::TextUnformatted("(?)");
  ImGui::PopStyleColor();
  if (ImGui::IsItemHovered()) {
    ui.state.view.hover_text = text;  // mirrored as window.sizerHover, as the charts' tooltips are
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ui.px(340));
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void value_text(Ui& ui, const std::string& text, const std::string& path, bool align_right, ImU32 color) {
  ImGui::PushFont(ui.fonts.numbers);
  const float avail = ImGui::GetContentRegionAvail().x;
  // A value wider than its column (a long layout on a phone) wraps inside it instead of being cut.
  const bool wrap = avail > 0 && ImGui::CalcTextSize(text.c_str()).x > avail;
  const ImVec2 size = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap ? avail : -1.0f);
  if (align_right && !wrap && avail > size.x) ImGui::SetCursorPosX(ImGui::GetCursorPosX() + avail - size.x);
  const sizer::Working* w = path.empty() ? nullptr : find_working(ui.est(), path);
  const bool pinned = w && ui.state.view.pinned_working == w->path;
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  if (pinned) {
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(pos.x - ui.px(3), pos.y - ui.px(1)),
                                              ImVec2(pos.x + size.x + ui.px(3), pos.y + size.y + ui.px(1)),
                                              ui.pal.accent_soft, ui.px(3));
  }
  ImGui::PushStyleColor(ImGuiCol_Text, color ? color : ui.pal.text);
  if (wrap) ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(text.c_str());
  if (wrap) ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  ImGui::PopFont();
  if (w) note_rect(ui, "value:" + path);
  if (w && ImGui::IsItemHovered()) {
    ImGui::GetWindowDrawList()->AddLine(ImVec2(pos.x, pos.y + size.y), ImVec2(pos.x + size.x, pos.y + size.y),
                                        ui.pal.accent, ui.px(1));
    ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    working_tooltip(ui, *w);
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
      ui.state.view.pinned_working = pinned ? std::string() : w->path;
    }
  }
}

bool begin_results(Ui& ui, const char* id, const char* value_header) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_PadOuterX;
  // On a narrow view (a phone) the value column gets more of the width, so a layout such as
  // "disaggregated: decode TP 32" wraps between its words rather than inside them.
  const bool narrow = ImGui::GetContentRegionAvail().x < ui.px(560);
  if (!ImGui::BeginTable(id, 3, flags)) return false;
  ImGui::TableSetupColumn("Quantity", ImGuiTableColumnFlags_WidthStretch, narrow ? 0.32f : 0.40f);
  ImGui::TableSetupColumn(value_header, ImGuiTableColumnFlags_WidthStretch, narrow ? 0.36f : 0.22f);
  ImGui::TableSetupColumn("How", ImGuiTableColumnFlags_WidthStretch, narrow ? 0.32f : 0.38f);
  return true;
}

void result_row(Ui& ui, const char* label, const std::string& value, const std::string& path,
                const std::string& note, ImU32 color) {
  ImGui::PushID(label);
  ImGui::TableNextRow(0, ImGui::GetTextLineHeight() + ui.px(8));
  ImGui::TableNextColumn();
  ImGui::PushTextWrapPos(0.0f);  // a narrow view (a phone) wraps long labels instead of cutting them
  ImGui::TextUnformatted(label);
  ImGui::PopTextWrapPos();
  ImGui::TableNextColumn();
  value_text(ui, value, path, true, color);
  ImGui::TableNextColumn();
  if (!note.empty()) {
    ImGui::PushFont(ui.fonts.small);
    ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.muted);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(note.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::PopFont();
  }
  ImGui::PopID();
}

void end_results() { ImGui::EndTable(); }

ImU32 verdict_color(const Ui& ui, sizer::comms::Verdict v) {
  switch (v) {
    case sizer::comms::Verdict::fits_scale_out: return ui.pal.good;
    case sizer::comms::Verdict::scale_up_only: return ui.pal.warn;
    case sizer::comms::Verdict::too_slow: return ui.pal.bad;
    case sizer::comms::Verdict::unknown: return ui.pal.muted;
  }
  return ui.pal.text;
}

const char* verdict_label(sizer::comms::Verdict v) {
  switch (v) {
    case sizer::comms::Verdict::fits_scale_out: return "fits the scale-out network";
    case sizer::comms::Verdict::scale_up_only: return "needs the scale-up fabric";
    case sizer::comms::Verdict::too_slow: return "too slow on either fabric";
    case sizer::comms::Verdict::unknown: return "not known: a link or peak is missing from the table";
  }
  return "";
}

std::string reach_text(double v, std::string (*f)(double)) {
  return std::isfinite(v) ? f(v) : std::string("out of reach");
}

bool reach_range(const std::vector<double>& v, double* lo, double* hi) {
  *lo = INFINITY, *hi = -INFINITY;
  for (double x : v) {
    if (std::isfinite(x)) *lo = std::min(*lo, x), *hi = std::max(*hi, x);
  }
  return *lo <= *hi;
}

std::string reach_span(const std::vector<double>& v, std::string (*f)(double), const char* empty, bool say_missing) {
  if (v.empty()) return empty;
  double lo, hi;
  if (!reach_range(v, &lo, &hi)) return "out of reach";
  const bool missing = std::any_of(v.begin(), v.end(), [](double x) { return !std::isfinite(x); });
  return range_text(f(lo), f(hi)) + (missing && say_missing ? " (out of reach at some MFU)" : "");
}

std::string range_text(const std::string& a, const std::string& b) {
  if (a == b) return a;
  const size_t sa = a.rfind(' '), sb = b.rfind(' ');
  if (sa != std::string::npos && sb != std::string::npos && a.substr(sa) == b.substr(sb)) {
    return a.substr(0, sa) + " – " + b;
  }
  return a + " – " + b;
}

void issue_lines(Ui& ui, const std::vector<const sizer::Issue*>& list, ImU32 color) {
  if (list.empty()) return;
  ImGui::PushFont(ui.fonts.small);
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  ImGui::PushTextWrapPos(0.0f);
  for (const sizer::Issue* i : list) ImGui::Text("• %s", i->message.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  ImGui::PopFont();
}

std::string plain(double v) { return sizer::num(v); }

std::string pct(double fraction) { return plain(fraction * 100) + "%"; }

std::string humanise(std::string id) {
  for (char& c : id) c = c == '_' ? ' ' : c;
  return id;
}

std::string replica_basis_text(const sizer::Scenario& s, const sizer::ServingResult& v) {
  const std::string min = sizer::fmt::count(v.replica_min_devices);
  if (s.serving.replica_devices > 0) return "set; minimum " + min;
  if (v.replica_devices < s.device.scale_up_domain) {
    return "automatic: the smallest power of two ≥ the minimum " + min + " inside a scale-up domain";
  }
  return "automatic: whole scale-up domains of " + sizer::fmt::count(s.device.scale_up_domain) + " holding the minimum " + min;
}

std::string replica_too_small_text(const sizer::ServingResult& v) {
  return "too small: the weights and KV cache need at least " + sizer::fmt::count(v.replica_min_devices) +
         " devices, so this replica cannot serve and has no cost or fleet; raise the replica size or set 0 (automatic)";
}

bool begin_grid(Ui& ui, const char* id) {
  const int columns = ImGui::GetContentRegionAvail().x > ui.px(980) ? 2 : 1;
  if (!ImGui::BeginTable(id, columns, ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_NoPadOuterX)) return false;
  ImGui::TableNextColumn();
  return true;
}

void next_cell() {
  ImGui::TableNextColumn();
  if (ImGui::TableGetColumnIndex() == 0) ImGui::Spacing();
}

void end_grid() { ImGui::EndTable(); }

}  // namespace sizer_web
