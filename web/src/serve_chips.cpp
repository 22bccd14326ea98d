// Every chip on one chart (see serve_chips.h). Rectangles: "button:serve-chips" for the button,
// "chart:serve-chips" for the chart, "table:serve-chips" for the table.
#include "serve_chips.h"

#include "front_axes.h"
#include "serve_planner.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace sizer_web {
namespace {

namespace fmt = sizer::fmt;
using sizer::serve::ChipSearch;

// The layout with its devices (serve_planner.h); a disaggregated point's is its decode instance.
std::string layout_short(const sizer::serve::ServePoint& p) {
  return (p.disaggregated ? "disagg. decode " : "") + layout_text(p.layout);
}

std::string cost_text(const ChipSearch& c) {
  if (!c.result.have_best) return "—";
  if (c.price_id.empty()) return "no public price";
  return fmt::usd(c.result.best.cost_per_million_tokens_usd);
}

// One polyline per chip with a front; hovering a point names its chip.
void chips_chart(Ui& ui, const std::vector<ChipSearch>& chips, double tpot_target) {
  double x1 = 0, y1 = 0;
  for (const ChipSearch& c : chips) {
    for (const auto& p : c.result.pareto) {
      x1 = std::max(x1, finite_or(p.perf.tokens_per_s_per_user, 0));
      y1 = std::max(y1, p.perf.output_tokens_per_s_per_device);
    }
  }
  if (x1 <= 0 || y1 <= 0) return;
  const FrontAxes f = front_axes(ui, "serve_chips_chart", "chart:serve-chips", ui.px(280), x1, y1, tpot_target, 0);
  ImDrawList* dl = f.dl;
  const bool hovered = f.hovered;
  auto at = [&](double x, double y) { return f.at(x, y); };
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  float best_d = ui.px(12);
  const ChipSearch* near_chip = nullptr;
  const sizer::serve::ServePoint* near_point = nullptr;
  ImVec2 near_at;
  for (std::size_t k = 0; k < chips.size(); ++k) {
    const auto& pts = chips[k].result.pareto;
    if (pts.empty()) continue;
    const ImU32 col = ui.pal.series[k % 8];
    std::vector<ImVec2> line;
    for (const auto& p : pts) line.push_back(at(finite_or(p.perf.tokens_per_s_per_user, 0), p.perf.output_tokens_per_s_per_device));
    if (line.size() >= 2) dl->AddPolyline(line.data(), static_cast<int>(line.size()), col, 0, ui.px(k < 8 ? 2.0f : 1.2f));
    for (std::size_t i = 0; i < line.size(); ++i) {
      dl->AddCircleFilled(line[i], ui.px(2.5f), col);
      const float d = std::hypot(mouse.x - line[i].x, mouse.y - line[i].y);
      if (hovered && d < best_d) best_d = d, near_chip = &chips[k], near_point = &pts[i], near_at = line[i];
    }
  }
  ImGui::PopFont();
  if (near_point) {
    const auto& p = *near_point;
    const std::string tip = near_chip->device_name + "\n" + layout_short(p) + ", " + fmt::count(p.concurrency) + " requests in flight\n" +
                            fmt::count(std::round(p.perf.output_tokens_per_s_per_device)) + " output tokens/s per device, " +
                            fmt::count(std::round(p.perf.tokens_per_s_per_user)) + " tokens/s per user" +
                            (p.perf.meets_slo ? "; meets the SLO" : "; misses the SLO");
    dl->AddCircle(near_at, ui.px(7), ui.pal.text, 0, ui.px(1.5f));
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(std::min(ui.px(360), ImGui::GetIO().DisplaySize.x - ui.px(40)));
    ImGui::TextUnformatted(tip.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
    ui.state.view.hover_text = "Chip front\n" + tip;
  }
}

void chips_table(Ui& ui, const std::vector<ChipSearch>& chips) {
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("serve_chips", 5, flags)) return;
  ImGui::TableSetupColumn("Chip", ImGuiTableColumnFlags_WidthStretch, 1.3f);
  ImGui::TableSetupColumn("Best meeting the SLO", ImGuiTableColumnFlags_WidthStretch, 1.6f);
  ImGui::TableSetupColumn("Tok/s per device", ImGuiTableColumnFlags_WidthStretch, 0.9f);
  ImGui::TableSetupColumn("$/M tokens", ImGuiTableColumnFlags_WidthStretch, 0.9f);
  ImGui::TableSetupColumn("Fleet devices", ImGuiTableColumnFlags_WidthStretch, 0.9f);
  ImGui::TableHeadersRow();
  for (std::size_t k = 0; k < chips.size(); ++k) {
    const ChipSearch& c = chips[k];
    const auto& r = c.result;
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    if (!r.pareto.empty()) {
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ui.pal.series[k % 8]), "%s", c.device_name.c_str());
    } else {
      ImGui::TextWrapped("%s", c.device_name.c_str());
    }
    ImGui::TableSetColumnIndex(1);
    ImGui::TextWrapped("%s", r.have_best ? layout_short(r.best).c_str() : "none meets the SLO");
    ImGui::TableSetColumnIndex(2);
    ImGui::TextUnformatted(r.have_best ? fmt::count(std::round(r.best.perf.output_tokens_per_s_per_device)).c_str() : "—");
    ImGui::TableSetColumnIndex(3);
    ImGui::TextWrapped("%s", cost_text(c).c_str());
    ImGui::TableSetColumnIndex(4);
    ImGui::TextUnformatted(r.have_best ? fmt::count(r.fleet.devices).c_str() : "—");
  }
  ImGui::EndTable();
  note_rect(ui, "table:serve-chips");
}

}  // namespace

void serve_chips_section(Ui& ui) {
  ServePlannerState& sp = ui.state.view.serve_planner;
  if (sp.chips_requested && sp.chips_frames++ >= 1 && ui.state.editor.issues.empty()) {
    const auto t0 = std::chrono::steady_clock::now();
    sp.chips = sizer::serve::search_serving_chips(ui.sc(), ui.state.share.catalog);
    sp.chips_ms = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() * 1e3;
    sp.chips_have = true;
    sp.chips_requested = false;
    sp.chips_revision = ui.state.computed.revision;
    ++sp.text_revision;
  }
  ImGui::Spacing();
  ImGui::BeginDisabled(sp.chips_requested || !ui.state.editor.issues.empty());
  if (ImGui::Button(sp.chips_requested ? "Searching every chip…" : "Compare every chip")) {
    sp.chips_requested = true;
    sp.chips_frames = 0;
  }
  ImGui::EndDisabled();
  note_rect(ui, "button:serve-chips");
  caption(ui, "The same search on each chip of the catalog, at its default price: one front per chip on one chart.");
  if (!sp.chips_have) return;
  double configs = 0;
  for (const ChipSearch& c : sp.chips) configs += c.result.configs_evaluated;
  caption(ui, fmt::count(static_cast<double>(sp.chips.size())) + " chips, " + fmt::count(configs) +
                  " configurations in " + fmt::number(sp.chips_ms) + " ms.");
  if (sp.chips_revision != ui.state.computed.revision) {
    ImGui::PushFont(ui.fonts.small);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ui.pal.warn), "The inputs changed since this comparison: run it again.");
    ImGui::PopFont();
  }
  chips_chart(ui, sp.chips, ui.sc().serving.slo.tpot_s);
  chips_table(ui, sp.chips);
}

std::string serve_chips_text(const AppState& state) {
  const ServePlannerState& sp = state.view.serve_planner;
  if (!sp.chips_have) return "";
  std::string t = "Chip comparison: " + fmt::count(static_cast<double>(sp.chips.size())) + " chips\n";
  for (const ChipSearch& c : sp.chips) {
    const auto& r = c.result;
    t += "Chip " + c.device + ": ";
    if (r.have_best) {
      t += layout_short(r.best) + ", " +
           fmt::count(std::round(r.best.perf.output_tokens_per_s_per_device)) + " output tokens/s per device, " +
           cost_text(c) + (c.price_id.empty() ? "" : " per million tokens") + ", fleet " + fmt::count(r.fleet.devices) +
           " devices\n";
    } else {
      t += "none meets the SLO\n";
    }
  }
  return t;
}

}  // namespace sizer_web
