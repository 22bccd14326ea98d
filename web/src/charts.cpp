// The charts view (see charts.h).
//
// [SECTION] A small plotting kit: axes (linear or log), ticks, grid, lines, hover
// [SECTION] The four charts
#include "charts.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "chart_data.h"
#include "plot_axis.h"

namespace sizer_web {
namespace {

namespace fmt = sizer::fmt;

// [SECTION] Plotting kit (the axis itself: plot_axis.h)
struct Plot {
  ImVec2 p0, p1;  // plot area (inside the axes)
  Axis x, y;
  ImDrawList* dl = nullptr;
  ImVec2 at(double xv, double yv) const {
    return ImVec2(p0.x + static_cast<float>(x.t(xv)) * (p1.x - p0.x), p1.y - static_cast<float>(y.t(yv)) * (p1.y - p0.y));
  }
};

// Fits a log axis to data (whole decades) or a linear axis from zero.
Axis fit(const std::vector<double>& values, bool log, Format format) {
  Axis a;
  a.log = log;
  a.format = format;
  double lo = 1e300, hi = -1e300;
  for (double v : values) {
    if (!(v > 0) && log) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (lo > hi) lo = 1, hi = 10;
  if (log) {
    a.lo = std::pow(10.0, std::floor(std::log10(lo)));
    a.hi = std::pow(10.0, std::ceil(std::log10(hi)));
    if (a.hi <= a.lo) a.hi = a.lo * 10;
  } else {
    a.lo = 0;
    a.hi = hi > 0 ? hi * 1.08 : 1;
  }
  return a;
}

// Reserves the chart's box, draws title, axes, grid and tick labels; returns the plot area.
Plot begin_plot(Ui& ui, const char* title, const char* subtitle, const Axis& x, const Axis& y, float height,
                float right_margin = 0) {
  Plot p;
  p.x = x;
  p.y = y;
  p.dl = ImGui::GetWindowDrawList();
  ImGui::PushFont(ui.fonts.strong);
  ImGui::TextUnformatted(title);
  ImGui::PopFont();
  if (subtitle) caption(ui, subtitle);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  ImGui::InvisibleButton(title, ImVec2(w, height));
  ImGui::PushFont(ui.fonts.small);
  const float label_w = ImGui::CalcTextSize("0000 ms").x;
  p.p0 = ImVec2(origin.x + label_w + ui.px(8), origin.y + ui.px(6));
  p.p1 = ImVec2(origin.x + w - ui.px(8) - right_margin, origin.y + height - ImGui::GetFontSize() - ui.px(8));
  for (double v : axis_ticks(y)) {
    const ImVec2 a = p.at(x.lo, v);
    p.dl->AddLine(ImVec2(p.p0.x, a.y), ImVec2(p.p1.x, a.y), ui.pal.grid, ui.px(1));
    const std::string s = y.format(v);
    const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    p.dl->AddText(ImVec2(p.p0.x - ts.x - ui.px(6), a.y - ts.y * 0.5f), ui.pal.muted, s.c_str());
  }
  for (double v : axis_ticks(x)) {
    const ImVec2 a = p.at(v, y.lo);
    p.dl->AddLine(ImVec2(a.x, p.p1.y), ImVec2(a.x, p.p1.y + ui.px(4)), ui.pal.muted, ui.px(1));
    const std::string s = x.format(v);
    const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
    p.dl->AddText(ImVec2(a.x - ts.x * 0.5f, p.p1.y + ui.px(5)), ui.pal.muted, s.c_str());
  }
  p.dl->AddLine(ImVec2(p.p0.x, p.p1.y), ImVec2(p.p1.x, p.p1.y), ui.pal.muted, ui.px(1));
  ImGui::PopFont();
  return p;
}

void line(Ui& ui, const Plot& p, const std::vector<double>& xs, const std::vector<double>& ys, ImU32 color, float width) {
  std::vector<ImVec2> pts;
  for (size_t i = 0; i < xs.size() && i < ys.size(); ++i) {
    if (p.y.log && !(ys[i] > 0)) continue;
    pts.push_back(p.at(xs[i], ys[i]));
  }
  p.dl->PushClipRect(ImVec2(p.p0.x - 2, p.p0.y - 2), ImVec2(p.p1.x + 2, p.p1.y + 2), true);
  if (pts.size() >= 2) p.dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), color, 0, ui.px(width));
  p.dl->PopClipRect();
}

// Index of the sample nearest to the mouse along x, or -1 when the mouse is not over the plot.
int hovered_index(const Plot& p, const std::vector<double>& xs) {
  const ImVec2 m = ImGui::GetIO().MousePos;
  if (m.x < p.p0.x || m.x > p.p1.x || m.y < p.p0.y || m.y > p.p1.y || xs.empty()) return -1;
  int best = 0;
  float bd = 1e30f;
  for (size_t i = 0; i < xs.size(); ++i) {
    const float d = std::fabs(p.at(xs[i], p.y.lo).x - m.x);
    if (d < bd) bd = d, best = static_cast<int>(i);
  }
  return best;
}

std::string pct0(double f) { return fmt::number(f * 100, 2) + "%"; }
std::string gb(double b) { return fmt::number(b / 1e9, 3) + " GB"; }
std::string count_label(double n) { return fmt::count(n); }
std::string hours_label(double h) { return fmt::count(h); }
std::string usd_label(double v) { return fmt::usd(v); }
std::string ms_label(double s) { return fmt::seconds(s); }

// [SECTION] The four charts
void memory_chart(Ui& ui, float h) {
  const ChartData& c = ui.state.view.charts;
  std::vector<double> totals = {c.hbm_bytes};
  for (size_t i = 0; i < c.state_bytes.size(); ++i) totals.push_back(c.state_bytes[i] + c.activation_bytes[i]);
  Axis x;
  x.lo = -0.5;
  x.hi = 3.5;
  x.format = [](double v) { return "ZeRO " + fmt::number(v, 1); };
  const Plot p = begin_plot(ui, "Training memory per device",
                            "State after TP×PP and ZeRO sharding, plus first-stage activations, against HBM.",
                            x, fit(totals, false, gb), h);
  const float bw = (p.p1.x - p.p0.x) / 4 * 0.5f;
  const int current = ui.sc().training.layout.zero_stage;
  for (size_t i = 0; i < c.state_bytes.size(); ++i) {
    const ImVec2 base = p.at(static_cast<double>(i), 0);
    const ImVec2 top_state = p.at(static_cast<double>(i), c.state_bytes[i]);
    const ImVec2 top_all = p.at(static_cast<double>(i), c.state_bytes[i] + c.activation_bytes[i]);
    p.dl->AddRectFilled(ImVec2(base.x - bw / 2, top_state.y), ImVec2(base.x + bw / 2, base.y), ui.pal.series[0], ui.px(2));
    p.dl->AddRectFilled(ImVec2(base.x - bw / 2, top_all.y), ImVec2(base.x + bw / 2, top_state.y), ui.pal.series[1], ui.px(2));
    if (static_cast<int>(i) == current) {
      p.dl->AddRect(ImVec2(base.x - bw / 2 - ui.px(3), top_all.y - ui.px(3)), ImVec2(base.x + bw / 2 + ui.px(3), base.y),
                    ui.pal.text, ui.px(3), 0, ui.px(1.5f));
    }
    ImGui::PushFont(ui.fonts.small);
    const std::string label = fmt::bytes(c.state_bytes[i] + c.activation_bytes[i]);
    const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
    p.dl->AddText(ImVec2(base.x - ts.x / 2, top_all.y - ts.y - ui.px(4)), ui.pal.text, label.c_str());
    ImGui::PopFont();
  }
  const float hbm_y = p.at(0, c.hbm_bytes).y, usable_y = p.at(0, c.hbm_usable_bytes).y;
  p.dl->AddLine(ImVec2(p.p0.x, hbm_y), ImVec2(p.p1.x, hbm_y), ui.pal.bad, ui.px(1.5f));
  p.dl->AddLine(ImVec2(p.p0.x, usable_y), ImVec2(p.p1.x, usable_y), ui.pal.warn, ui.px(1));
  ImGui::PushFont(ui.fonts.small);
  const std::string hbm = "HBM " + fmt::bytes(c.hbm_bytes);
  p.dl->AddText(ImVec2(p.p1.x - ImGui::CalcTextSize(hbm.c_str()).x, hbm_y - ImGui::GetFontSize() - ui.px(2)), ui.pal.bad, hbm.c_str());
  // Legend
  const ImVec2 l0(p.p0.x + ui.px(8), p.p0.y + ui.px(2));
  p.dl->AddRectFilled(l0, ImVec2(l0.x + ui.px(10), l0.y + ui.px(10)), ui.pal.series[0], ui.px(2));
  p.dl->AddText(ImVec2(l0.x + ui.px(14), l0.y - ui.px(2)), ui.pal.text, "state");
  p.dl->AddRectFilled(ImVec2(l0.x + ui.px(60), l0.y), ImVec2(l0.x + ui.px(70), l0.y + ui.px(10)), ui.pal.series[1], ui.px(2));
  p.dl->AddText(ImVec2(l0.x + ui.px(74), l0.y - ui.px(2)), ui.pal.text, "activations");
  ImGui::PopFont();
}

void hours_chart(Ui& ui, float h) {
  ChartData& c = ui.state.view.charts;
  const bool cost = ui.state.view.charts_cost;
  const std::vector<Series>& series = cost ? c.cost : c.hours;
  std::vector<double> all;
  for (const Series& s : series) all.insert(all.end(), s.y.begin(), s.y.end());
  Axis x;
  x.lo = 0.15;
  x.hi = 0.70;
  x.format = pct0;
  const float legend_w = ui.px(92);
  const std::string sub = std::string("Every bundled chip at ") + sizer::to_string(ui.sc().training.precision) +
                          (cost ? ", at its default price offer." : "; the scenario's chip is drawn thick.");
  const Plot p = begin_plot(ui, cost ? "Training cost across MFU" : "Device-hours across MFU", sub.c_str(), x,
                            fit(all, true, cost ? usd_label : hours_label), h, legend_w);
  int n = 0;
  for (const Series& s : series) {  // the scenario's chip last, on top
    if (!s.highlight && !s.y.empty()) line(ui, p, s.x, s.y, ui.pal.series[n % 8], 1.4f);
    if (!s.y.empty()) ++n;
  }
  n = 0;
  for (const Series& s : series) {
    if (s.y.empty()) continue;
    const ImU32 col = s.highlight ? ui.pal.text : ui.pal.series[n % 8];
    if (s.highlight) line(ui, p, s.x, s.y, col, 3.0f);
    ImGui::PushFont(ui.fonts.small);
    const float ly = p.p0.y + n * (ImGui::GetFontSize() + ui.px(1));
    p.dl->AddLine(ImVec2(p.p1.x + ui.px(10), ly + ImGui::GetFontSize() / 2), ImVec2(p.p1.x + ui.px(22), ly + ImGui::GetFontSize() / 2),
                  col, ui.px(s.highlight ? 3.0f : 2.0f));
    p.dl->AddText(ImVec2(p.p1.x + ui.px(26), ly), s.highlight ? ui.pal.text : ui.pal.muted, s.label.c_str());
    ImGui::PopFont();
    ++n;
  }
  const int i = series.empty() ? -1 : hovered_index(p, series.front().x);
  if (i >= 0) {
    const ImVec2 a = p.at(series.front().x[i], p.y.lo);
    p.dl->AddLine(ImVec2(a.x, p.p0.y), ImVec2(a.x, p.p1.y), ui.pal.faint, ui.px(1));
    ImGui::BeginTooltip();
    ImGui::Text("MFU %s", pct0(series.front().x[i]).c_str());
    ImGui::PushFont(ui.fonts.numbers);
    for (const Series& s : series) {
      if (static_cast<int>(s.y.size()) > i) {
        ImGui::Text("%-10s %12s", s.label.c_str(), (cost ? fmt::usd(s.y[i]) : fmt::hours(s.y[i])).c_str());
      }
    }
    ImGui::PopFont();
    ImGui::EndTooltip();
  }
}

void experts_chart(Ui& ui, float h) {
  const ChartData& c = ui.state.view.charts;
  const sizer::Model& m = ui.sc().model;
  Axis x = fit(c.batch, true, count_label);
  x.lo = 1;
  x.hi = c.batch.empty() ? 4096 : c.batch.back();
  Axis y;
  y.lo = 0;
  y.hi = 1;
  y.format = pct0;
  const std::string sub = m.moe.enabled()
      ? "Share of routed experts read per decode step, 1 − (1 − k/E)^B with k = " + fmt::number(m.moe.experts_per_token) +
            ", E = " + fmt::number(m.moe.experts) + "."
      : std::string("Dense model: every weight is read at every step, at any batch.");
  const Plot p = begin_plot(ui, "Experts touched against batch", sub.c_str(), x, y, h);
  line(ui, p, c.batch, c.experts_touched, ui.pal.series[2], 2.5f);
  const double b = ui.sc().serving.batch;
  if (b >= x.lo && b <= x.hi) {
    const ImVec2 a = p.at(b, 0);
    p.dl->AddLine(ImVec2(a.x, p.p0.y), ImVec2(a.x, p.p1.y), ui.pal.accent, ui.px(1));
  }
  const int i = hovered_index(p, c.batch);
  if (i >= 0) ImGui::SetTooltip("batch %s: %s of experts read", fmt::count(c.batch[i]).c_str(), fmt::percent(c.experts_touched[i]).c_str());
}

void decode_chart(Ui& ui, float h) {
  const ChartData& c = ui.state.view.charts;
  Axis x = fit(c.batch, true, count_label);
  x.lo = 1;
  x.hi = c.batch.empty() ? 4096 : c.batch.back();
  const std::string sub = "Replica of " + fmt::count(ui.est().serving.replica_devices) +
                          " devices. Step time (left axis) and tokens/s per replica (right)" +
                          (c.compute_binds_at_batch > 0 ? "; compute binds from batch " + fmt::count(c.compute_binds_at_batch) + "."
                                                        : "; bandwidth-bound over the whole range.");
  const Axis ty = fit(c.tokens_per_s, true, count_label);
  const float right = ui.px(56);
  const Plot p = begin_plot(ui, "Decode step and throughput against batch", sub.c_str(), x, fit(c.step_s, true, ms_label), h, right);
  Plot p2 = p;  // the same box with the throughput axis
  p2.y = ty;
  ImGui::PushFont(ui.fonts.small);
  for (double v : axis_ticks(ty)) {
    const ImVec2 a = p2.at(x.lo, v);
    p.dl->AddText(ImVec2(p.p1.x + ui.px(6), a.y - ImGui::GetFontSize() / 2), ui.pal.series[3], count_label(v).c_str());
  }
  ImGui::PopFont();
  if (c.compute_binds_at_batch > 0) {
    const ImVec2 a = p.at(c.compute_binds_at_batch, 1);
    p.dl->AddRectFilled(ImVec2(a.x, p.p0.y), p.p1, ui.pal.hover);
    p.dl->AddLine(ImVec2(a.x, p.p0.y), ImVec2(a.x, p.p1.y), ui.pal.warn, ui.px(1.5f));
    ImGui::PushFont(ui.fonts.small);
    p.dl->AddText(ImVec2(a.x + ui.px(4), p.p0.y + ui.px(2)), ui.pal.warn, "compute-bound");
    ImGui::PopFont();
  }
  line(ui, p, c.batch, c.step_s, ui.pal.series[0], 2.5f);
  line(ui, p, c.batch, c.compute_step_s, ui.pal.series[0], 1.0f);
  line(ui, p2, c.batch, c.tokens_per_s, ui.pal.series[3], 2.5f);
  ImGui::PushFont(ui.fonts.small);
  const ImVec2 l0(p.p0.x + ui.px(8), p.p0.y + ui.px(2));
  p.dl->AddLine(ImVec2(l0.x, l0.y + ui.px(6)), ImVec2(l0.x + ui.px(14), l0.y + ui.px(6)), ui.pal.series[0], ui.px(2.5f));
  p.dl->AddText(ImVec2(l0.x + ui.px(18), l0.y - ui.px(1)), ui.pal.text, "step time (thin: compute only)");
  p.dl->AddLine(ImVec2(l0.x, l0.y + ui.px(22)), ImVec2(l0.x + ui.px(14), l0.y + ui.px(22)), ui.pal.series[3], ui.px(2.5f));
  p.dl->AddText(ImVec2(l0.x + ui.px(18), l0.y + ui.px(15)), ui.pal.text, "tokens/s per replica");
  ImGui::PopFont();
  const int i = hovered_index(p, c.batch);
  if (i >= 0) {
    ImGui::SetTooltip("batch %s\nstep %s\n%s tok/s per replica", fmt::count(c.batch[i]).c_str(), fmt::seconds(c.step_s[i]).c_str(),
                      fmt::count(std::round(c.tokens_per_s[i])).c_str());
  }
}

}  // namespace

void charts_panel(Ui& ui) {
  refresh_chart_data(ui.state);
  const float avail_h = ImGui::GetContentRegionAvail().y;
  const float h = std::max(ui.px(220), avail_h / 2 - ui.px(92));
  if (!ImGui::BeginTable("charts", 2, ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_PadOuterX)) return;
  ImGui::TableNextColumn();
  memory_chart(ui, h);
  ImGui::TableNextColumn();
  hours_chart(ui, h);
  if (ImGui::RadioButton("Device-hours", !ui.state.view.charts_cost)) ui.state.view.charts_cost = false;
  ImGui::SameLine();
  if (ImGui::RadioButton("Cost", ui.state.view.charts_cost)) ui.state.view.charts_cost = true;
  note_rect(ui, "radio:chart-cost");
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::Spacing();
  experts_chart(ui, h);
  ImGui::TableNextColumn();
  ImGui::Spacing();
  decode_chart(ui, h);
  ImGui::EndTable();
}

}  // namespace sizer_web
