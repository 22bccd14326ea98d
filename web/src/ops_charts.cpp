// Charts of the Reliability & cost view (see ops_charts.h).
//
// [SECTION] Words and units of the interval and sensitivity names
// [SECTION] A small frame: axes (linear or log), ticks, grid, hover guide
// [SECTION] Goodput against checkpoint interval and against cluster size
// [SECTION] Break-even: owning against renting
// [SECTION] Tornado
#include "ops_charts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "plot_axis.h"
#include "sizer/ops/ownership.h"

namespace sizer_web {

namespace fmt = sizer::fmt;

// [SECTION] Words and units
std::string sensitivity_input_label(const std::string& input) {
  if (input == "mfu") return "MFU";
  if (input == "usd_per_device_hour") return "Price per device-hour";
  if (input == "goodput") return "Goodput";
  if (input == "failure_rate_scale") return "Failure rate";
  if (input == "tokens") return "Training tokens";
  if (input == "serving_usd_per_device_hour") return "Serving price";
  if (input == "realised_fraction") return "Realised share";
  if (input == "utilisation") return "Utilisation";
  return humanise(input);
}

std::string sensitivity_input_value(const std::string& input, double v) {
  if (input == "mfu" || input == "goodput" || input == "realised_fraction" || input == "utilisation") return pct(v);
  if (input == "usd_per_device_hour" || input == "serving_usd_per_device_hour") return "$" + plain(v) + "/h";
  if (input == "failure_rate_scale") return "×" + plain(v);
  if (input == "tokens") return fmt::count(v);
  return plain(v);
}

std::string interval_output_value(const std::string& output, double v) {
  if (!std::isfinite(v)) return "out of reach";
  if (output == "cluster_cost_usd" || output == "cost_per_million_tokens_usd") return fmt::usd(v);
  if (output == "facility_power_w") return fmt::watts(v);
  if (output == "wall_days") return fmt::number(v) + " days";
  return fmt::count(std::ceil(v));
}

std::string interval_output_label(const std::string& output) {
  if (output == "cluster_cost_usd") return "cluster rental cost";
  if (output == "cluster_devices") return "devices for the schedule";
  return humanise(output);
}

namespace {

// [SECTION] Frame (the axis itself: plot_axis.h)
struct Frame {
  ImVec2 p0, p1;
  Axis x, y;
  ImDrawList* dl = nullptr;
  bool hovered = false;
  ImVec2 at(double xv, double yv) const {
    return ImVec2(p0.x + static_cast<float>(x.t(xv)) * (p1.x - p0.x), p1.y - static_cast<float>(y.t(yv)) * (p1.y - p0.y));
  }
};

// Candidate ticks inside [lo, hi], thinned to at most `most`.
std::vector<double> pick(const std::vector<double>& candidates, double lo, double hi, size_t most) {
  std::vector<double> in;
  for (double v : candidates) {
    if (v >= lo * 0.999 && v <= hi * 1.001) in.push_back(v);
  }
  if (in.size() <= most) return in;
  std::vector<double> out;
  const size_t step = (in.size() + most - 1) / most;
  for (size_t i = 0; i < in.size(); i += step) out.push_back(in[i]);
  return out;
}

std::string time_label(double s) {
  char b[32];
  if (s < 60) std::snprintf(b, sizeof b, "%g s", s);
  else if (s < 3600) std::snprintf(b, sizeof b, "%g min", s / 60);
  else if (s < 86400) std::snprintf(b, sizeof b, "%g h", s / 3600);
  else std::snprintf(b, sizeof b, "%g d", s / 86400);
  return b;
}

std::string short_count(double n) {
  if (n >= 1e6) return plain(n / 1e6) + "M";
  if (n >= 1e3) return plain(n / 1e3) + "k";
  return plain(n);
}

std::string pct_label(double f) { return plain(std::round(f * 1000) / 10) + "%"; }
std::string usd_label(double v) { return fmt::usd(v); }
std::string util_label(double f) { return plain(std::round(f * 100)) + "%"; }

// Reserves the chart (an invisible button `width` × `height`, rect `rect`), draws grid and tick
// labels and `x_label` under the axis.
Frame begin_frame(Ui& ui, const char* rect, float height, const Axis& x, const Axis& y, const char* x_label) {
  Frame f;
  f.x = x;
  f.y = y;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  ImGui::InvisibleButton(rect, ImVec2(w, height));
  note_rect(ui, rect);
  f.hovered = ImGui::IsItemHovered();
  f.dl = ImGui::GetWindowDrawList();
  ImGui::PushFont(ui.fonts.small);
  const float fh = ImGui::GetFontSize();
  float label_w = 0;
  for (double v : axis_ticks(y)) label_w = std::max(label_w, ImGui::CalcTextSize(y.format(v).c_str()).x);
  f.p0 = ImVec2(origin.x + label_w + ui.px(10), origin.y + ui.px(8));
  f.p1 = ImVec2(origin.x + w - ui.px(14), origin.y + height - 2 * fh - ui.px(12));
  for (double v : axis_ticks(y)) {
    const ImVec2 a = f.at(x.lo, v);
    f.dl->AddLine(ImVec2(f.p0.x, a.y), ImVec2(f.p1.x, a.y), ui.pal.grid, ui.px(1));
    const std::string s = y.format(v);
    f.dl->AddText(ImVec2(f.p0.x - ImGui::CalcTextSize(s.c_str()).x - ui.px(6), a.y - fh / 2), ui.pal.muted, s.c_str());
  }
  float last_right = -1e30f;
  for (double v : axis_ticks(x)) {
    const ImVec2 a = f.at(v, y.lo);
    const std::string s = x.format(v);
    const float tw = ImGui::CalcTextSize(s.c_str()).x;
    f.dl->AddLine(ImVec2(a.x, f.p1.y), ImVec2(a.x, f.p1.y + ui.px(4)), ui.pal.muted, ui.px(1));
    const float left = std::clamp(a.x - tw / 2, origin.x, origin.x + w - tw);
    if (left < last_right + ui.px(6)) continue;  // no overlapping labels on a narrow chart
    f.dl->AddText(ImVec2(left, f.p1.y + ui.px(5)), ui.pal.muted, s.c_str());
    last_right = left + tw;
  }
  f.dl->AddLine(ImVec2(f.p0.x, f.p1.y), ImVec2(f.p1.x, f.p1.y), ui.pal.muted, ui.px(1));
  const float xw = ImGui::CalcTextSize(x_label).x;
  f.dl->AddText(ImVec2(std::max(f.p0.x, f.p1.x - xw), f.p1.y + fh + ui.px(8)), ui.pal.muted, x_label);
  ImGui::PopFont();
  return f;
}

// A tooltip of lines, mirrored as window.sizerHover.
void hover_tip(Ui& ui, const std::string& title, const std::vector<std::string>& lines) {
  std::string text = title;
  for (const std::string& l : lines) text += "\n" + l;
  ui.state.view.hover_text = text;
  ImGui::BeginTooltip();
  ImGui::PushFont(ui.fonts.strong);
  ImGui::TextUnformatted(title.c_str());
  ImGui::PopFont();
  ImGui::PushFont(ui.fonts.numbers);
  for (const std::string& l : lines) ImGui::TextUnformatted(l.c_str());
  ImGui::PopFont();
  ImGui::EndTooltip();
}

// y on the curve at x (linear in log x between points).
double curve_at(const std::vector<sizer::CurvePoint>& pts, double x) {
  if (pts.empty()) return 0;
  if (x <= pts.front().x) return pts.front().y;
  for (size_t i = 1; i < pts.size(); ++i) {
    if (x <= pts[i].x) {
      const double t = std::log(x / pts[i - 1].x) / std::log(pts[i].x / pts[i - 1].x);
      return pts[i - 1].y + t * (pts[i].y - pts[i - 1].y);
    }
  }
  return pts.back().y;
}

// A marker: ring with a dot, and a label beside it that stays inside the plot.
void marker(Ui& ui, const Frame& f, ImVec2 c, ImU32 col, const std::string& label, bool above, bool left = false) {
  f.dl->AddCircleFilled(c, ui.px(3), col);
  f.dl->AddCircle(c, ui.px(7), col, 0, ui.px(2));
  ImGui::PushFont(ui.fonts.small);
  const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
  float x = left ? c.x - ui.px(10) - ts.x : c.x + ui.px(10);
  if (x + ts.x > f.p1.x) x = c.x - ui.px(10) - ts.x;
  if (x < f.p0.x) x = c.x + ui.px(10);
  const float y = std::clamp(above ? c.y - ts.y - ui.px(8) : c.y + ui.px(8), f.p0.y, f.p1.y - ts.y);
  f.dl->AddText(ImVec2(x, y), col, label.c_str());
  ImGui::PopFont();
}

// [SECTION] Goodput curves
// A goodput curve on a log x axis, hover guide and value; returns the frame for markers.
Frame goodput_curve(Ui& ui, const char* rect, const std::vector<sizer::CurvePoint>& pts, Axis x, const char* x_label,
                    float height, std::string (*x_text)(double)) {
  double y_lo = 1;
  for (const auto& p : pts) y_lo = std::min(y_lo, p.y);
  Axis y;
  y.lo = std::max(0.0, std::floor((y_lo - 0.005) * 50) / 50);
  y.hi = 1;
  y.format = pct_label;
  y.ticks = linear_ticks(y.lo, y.hi, 4);
  const Frame f = begin_frame(ui, rect, height, x, y, x_label);
  std::vector<ImVec2> line;
  for (const auto& p : pts) line.push_back(f.at(p.x, p.y));
  if (line.size() >= 2) f.dl->AddPolyline(line.data(), static_cast<int>(line.size()), ui.pal.series[0], 0, ui.px(2.5f));
  const ImVec2 m = ImGui::GetIO().MousePos;
  if (f.hovered && !pts.empty() && m.x >= f.p0.x && m.x <= f.p1.x) {
    size_t best = 0;
    for (size_t i = 1; i < line.size(); ++i) {
      if (std::fabs(line[i].x - m.x) < std::fabs(line[best].x - m.x)) best = i;
    }
    f.dl->AddLine(ImVec2(line[best].x, f.p0.y), ImVec2(line[best].x, f.p1.y), ui.pal.faint, ui.px(1));
    f.dl->AddCircleFilled(line[best], ui.px(4), ui.pal.text);
    hover_tip(ui, x_text(pts[best].x), {"predicted goodput " + fmt::percent(pts[best].y)});
  }
  return f;
}

std::string interval_text(double s) { return "Checkpoint every " + fmt::seconds(s); }
std::string devices_text(double n) { return fmt::count(n) + " devices"; }

}  // namespace

void goodput_interval_chart(Ui& ui, const std::vector<sizer::CurvePoint>& pts, double optimum_s, double current_s,
                            float height) {
  if (pts.size() < 2) return;
  Axis x;
  x.log = true;
  x.lo = pts.front().x, x.hi = pts.back().x;
  x.format = time_label;
  x.ticks = pick({1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 432000},
                 x.lo, x.hi, 7);
  const Frame f = goodput_curve(ui, "chart:ops-interval", pts, x, "checkpoint interval (log)", height, interval_text);
  const bool custom = current_s > 0 && std::fabs(current_s - optimum_s) > optimum_s * 0.01;
  if (custom && current_s >= x.lo && current_s <= x.hi) {
    marker(ui, f, f.at(current_s, curve_at(pts, current_s)), ui.pal.warn, "yours " + fmt::seconds(current_s), false);
  }
  marker(ui, f, f.at(optimum_s, curve_at(pts, optimum_s)), ui.pal.accent, "optimum " + fmt::seconds(optimum_s), true);
}

void goodput_devices_chart(Ui& ui, const std::vector<sizer::CurvePoint>& pts, double layout_devices, float height) {
  if (pts.size() < 2) return;
  Axis x;
  x.log = true;
  x.lo = pts.front().x, x.hi = pts.back().x;
  x.format = short_count;
  std::vector<double> candidates;
  for (double e = 0; e <= 8; ++e) {
    for (double k : {1.0, 3.0}) candidates.push_back(k * std::pow(10.0, e));
  }
  x.ticks = pick(candidates, x.lo, x.hi, 8);
  const Frame f = goodput_curve(ui, "chart:ops-devices", pts, x, "devices in the job (log)", height, devices_text);
  if (layout_devices >= x.lo && layout_devices <= x.hi) {
    marker(ui, f, f.at(layout_devices, curve_at(pts, layout_devices)), ui.pal.accent,
           "layout " + fmt::count(layout_devices), false, true);
  }
}

// [SECTION] Break-even
void breakeven_chart(Ui& ui, const sizer::OwnershipResult& o, float height) {
  if (!o.known || o.offers.empty()) return;
  const double owned = sizer::ownership::owned_usd_per_year(o.usd_per_device_hour_owned);  // used or not
  double top = owned * 1.25;
  for (const auto& r : o.offers) top = std::max(top, std::min(sizer::ownership::rented_usd_per_year(r.usd_per_device_hour, 1), owned * 4));
  Axis x;
  x.lo = 0, x.hi = 1;
  x.format = util_label;
  x.ticks = linear_ticks(0, 1, 5);
  Axis y;
  y.lo = 0, y.hi = top * 1.05;
  y.format = usd_label;
  y.ticks = linear_ticks(0, y.hi, 4);
  const Frame f = begin_frame(ui, "chart:ops-breakeven", height, x, y, "utilisation of the rented devices");
  f.dl->PushClipRect(f.p0, f.p1, true);
  for (size_t i = 0; i < o.offers.size(); ++i) {
    const double year = sizer::ownership::rented_usd_per_year(o.offers[i].usd_per_device_hour, 1);
    f.dl->AddLine(f.at(0, 0), f.at(1, year), ui.pal.series[(i + 1) % 8], ui.px(1.8f));
  }
  f.dl->AddLine(f.at(0, owned), f.at(1, owned), ui.pal.text, ui.px(3));
  for (size_t i = 0; i < o.offers.size(); ++i) {
    const double u = o.offers[i].breakeven_utilisation;
    if (u > 0 && u <= 1) {
      const ImVec2 c = f.at(u, owned);
      f.dl->AddCircleFilled(c, ui.px(4.5f), ui.pal.series[(i + 1) % 8]);
      f.dl->AddCircle(c, ui.px(4.5f), ui.pal.text, 0, ui.px(1));
    }
  }
  f.dl->PopClipRect();
  ImGui::PushFont(ui.fonts.small);
  const std::string own = "owned " + fmt::usd(owned) + " a year";
  const ImVec2 ts = ImGui::CalcTextSize(own.c_str());
  const ImVec2 a = f.at(1, owned);
  f.dl->AddText(ImVec2(a.x - ts.x, a.y - ts.y - ui.px(4)), ui.pal.text, own.c_str());
  ImGui::PopFont();
  const ImVec2 m = ImGui::GetIO().MousePos;
  if (f.hovered && m.x >= f.p0.x && m.x <= f.p1.x) {
    const double u = std::clamp((m.x - f.p0.x) / (f.p1.x - f.p0.x), 0.0f, 1.0f);
    const double shown = std::round(u * 100) / 100;
    const float gx = f.at(shown, 0).x;
    f.dl->AddLine(ImVec2(gx, f.p0.y), ImVec2(gx, f.p1.y), ui.pal.faint, ui.px(1));
    std::vector<std::string> lines = {"owned: " + fmt::usd(owned) + " per device-year"};
    for (const auto& r : o.offers) {
      lines.push_back(r.provider + " " + humanise(r.offer_kind) + ": " + fmt::usd(sizer::ownership::rented_usd_per_year(r.usd_per_device_hour, shown)) +
                      (shown >= r.breakeven_utilisation ? "  (owning is cheaper)" : ""));
    }
    hover_tip(ui, "At " + pct(shown) + " utilisation", lines);
  }
  // Legend under the chart, wrapping.
  ImGui::PushFont(ui.fonts.small);
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  for (size_t i = 0; i <= o.offers.size(); ++i) {
    const bool own_line = i == o.offers.size();
    const std::string text = own_line ? std::string("owned") : o.offers[i].provider + " " + humanise(o.offers[i].offer_kind) +
                                                                   " $" + plain(o.offers[i].usd_per_device_hour) + "/h";
    const float sw = ui.px(14), w = sw + ui.px(4) + ImGui::CalcTextSize(text.c_str()).x;
    if (i > 0) {
      ImGui::SameLine(0, ui.px(14));
      if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float y = p.y + ImGui::GetTextLineHeight() * 0.5f;
    ImGui::GetWindowDrawList()->AddLine(ImVec2(p.x, y), ImVec2(p.x + sw, y), own_line ? ui.pal.text : ui.pal.series[(i + 1) % 8],
                                        ui.px(own_line ? 3.0f : 2.0f));
    ImGui::Dummy(ImVec2(sw, ImGui::GetTextLineHeight()));
    ImGui::SameLine(0, ui.px(4));
    ImGui::TextUnformatted(text.c_str());
  }
  ImGui::PopFont();
}

// [SECTION] Tornado
void tornado_chart(Ui& ui, const sizer::IntervalResult& r) {
  if (r.sensitivity.empty()) return;
  const std::string& out = r.sensitivity_output;
  ImGui::PushFont(ui.fonts.small);
  const float fh = ImGui::GetFontSize();
  std::vector<std::string> labels;
  float label_w = 0;
  double lo = r.sensitivity_base, hi = r.sensitivity_base;
  for (const auto& s : r.sensitivity) {
    labels.push_back(sensitivity_input_label(s.input) + "  " +
                     range_text(sensitivity_input_value(s.input, s.input_low), sensitivity_input_value(s.input, s.input_high)));
    label_w = std::max(label_w, ImGui::CalcTextSize(labels.back().c_str()).x);
    for (double v : {s.output_low, s.output_high}) {
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    }
  }
  const float w = ImGui::GetContentRegionAvail().x;
  const bool stacked = label_w > w * 0.42f;  // a phone: the label above its bar
  const float row_h = fh * (stacked ? 2.6f : 1.5f) + ui.px(8);
  const float height = row_h * static_cast<float>(r.sensitivity.size()) + fh + ui.px(12);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("chart:ops-tornado", ImVec2(w, height));
  note_rect(ui, "chart:ops-tornado");
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float value_w = ImGui::CalcTextSize("out of reach").x + ui.px(6);
  const float x0 = origin.x + (stacked ? value_w : label_w + ui.px(12) + value_w), x1 = origin.x + w - value_w;
  const double pad = (hi - lo) * 0.04 + 1e-9;
  lo -= pad, hi += pad;
  auto xs = [&](double v) {
    return std::isfinite(v) ? x0 + static_cast<float>((v - lo) / (hi - lo)) * (x1 - x0) : (v > 0 ? x1 : x0);
  };
  const float base_x = xs(r.sensitivity_base);
  const std::string base = "base " + interval_output_value(out, r.sensitivity_base);
  dl->AddText(ImVec2(base_x - ImGui::CalcTextSize(base.c_str()).x / 2, origin.y), ui.pal.muted, base.c_str());
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (size_t i = 0; i < r.sensitivity.size(); ++i) {
    const auto& s = r.sensitivity[i];
    const float top = origin.y + fh + ui.px(6) + row_h * static_cast<float>(i);
    const float bar_top = top + (stacked ? fh + ui.px(3) : ui.px(2)), bar_h = fh * 1.2f;
    dl->AddText(ImVec2(origin.x, stacked ? top : bar_top + (bar_h - fh) / 2), ui.pal.text, labels[i].c_str());
    const struct {
      double v;
      ImU32 col;
    } ends[] = {{s.output_low, ui.pal.series[0]}, {s.output_high, ui.pal.series[1]}};
    for (const auto& end : ends) {
      const float ex = xs(end.v);
      dl->AddRectFilled(ImVec2(std::min(ex, base_x), bar_top), ImVec2(std::max(ex, base_x), bar_top + bar_h), end.col, ui.px(2));
      const std::string t = interval_output_value(out, end.v);
      const float tw = ImGui::CalcTextSize(t.c_str()).x;
      const bool left = ex < base_x || (ex == base_x && &end == &ends[0]);
      dl->AddText(ImVec2(left ? ex - tw - ui.px(4) : ex + ui.px(4), bar_top + (bar_h - fh) / 2),
                  std::isfinite(end.v) ? ui.pal.muted : ui.pal.bad, t.c_str());
    }
    if (hovered && mouse.y >= top && mouse.y < top + row_h) {
      dl->AddRect(ImVec2(x0 - ui.px(2), bar_top - ui.px(2)), ImVec2(x1 + ui.px(2), bar_top + bar_h + ui.px(2)), ui.pal.faint,
                  ui.px(3), 0, ui.px(1));
      hover_tip(ui, sensitivity_input_label(s.input) + " alone at its low and high end",
                {sensitivity_input_value(s.input, s.input_low) + " → " + interval_output_value(out, s.output_low),
                 sensitivity_input_value(s.input, s.input_high) + " → " + interval_output_value(out, s.output_high),
                 "base " + interval_output_value(out, r.sensitivity_base) + " (" + interval_output_label(out) + ")"});
    }
  }
  dl->AddLine(ImVec2(base_x, origin.y + fh + ui.px(2)), ImVec2(base_x, origin.y + height), ui.pal.text, ui.px(1.5f));
  ImGui::PopFont();
  // Legend: which colour is which end of the input.
  ImGui::PushFont(ui.fonts.small);
  const float sw = ImGui::GetFontSize() * 0.8f;
  const std::pair<const char*, ImU32> keys[] = {{"input at its low end", ui.pal.series[0]}, {"at its high end", ui.pal.series[1]}};
  for (int k = 0; k < 2; ++k) {
    if (k) ImGui::SameLine(0, ui.px(14));
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float y = p.y + (ImGui::GetTextLineHeight() - sw) * 0.5f;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + sw, y + sw), keys[k].second, ui.px(2));
    ImGui::Dummy(ImVec2(sw, ImGui::GetTextLineHeight()));
    ImGui::SameLine(0, ui.px(4));
    ImGui::TextUnformatted(keys[k].first);
  }
  ImGui::PopFont();
}

}  // namespace sizer_web
