// The serving planner section (see serve_planner.h). Rectangles are "planner:<path>" for its
// fields (input_fields.h), "button:serve-*" for its buttons and "chart:serve-pareto" for the chart.
#include "serve_planner.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "input_fields.h"
#include "scenario_edit.h"
#include "serve_chips.h"
#include "front_axes.h"
#include "serve_fields.h"

namespace sizer_web {

std::string layout_text(const sizer::serve::ServeLayout& l) {
  std::string t = "TP " + plain(l.tp);
  if (l.pp > 1) t += " × PP " + plain(l.pp);
  if (l.dp > 1) t += " × DP " + plain(l.dp);
  if (l.ep > 1) t += ", EP " + plain(l.ep);
  return t + " (" + sizer::fmt::count(l.devices()) + " devices)";
}

namespace {

namespace fmt = sizer::fmt;
using nlohmann::json;

std::string point_text(const sizer::serve::ServePoint& p) {
  if (p.disaggregated) {
    return "disaggregated: prefill " + layout_text(p.prefill_layout) + " × " + fmt::number(p.disagg.prefill_per_decode) +
           " per decode " + layout_text(p.layout) + ", " + sizer::to_string(p.weight_precision) + " weights, " +
           sizer::to_string(p.kv_precision) + " KV, " + fmt::count(p.concurrency) + " requests in flight per decode instance";
  }
  return layout_text(p.layout) + ", " + sizer::to_string(p.weight_precision) + " weights, " +
         sizer::to_string(p.kv_precision) + " KV" + (p.spec_decode ? ", speculative decoding" : "") + ", " +
         fmt::count(p.concurrency) + " requests in flight";
}

void prediction(Ui& ui) {
  const auto& v = ui.est().serving;
  const auto& p = v.performance;
  if (begin_results(ui, "serve_prediction")) {
    result_row(ui, "Replica layout", layout_text(v.layout), "", ui.sc().serving.layout_given ? "as entered" : "default for the replica");
    result_row(ui, "Time to first token", fmt::seconds(p.ttft_s), "serving.performance.ttft_s",
               p.ttft_ok ? "" : "above the TTFT target", p.ttft_ok ? 0 : ui.pal.bad);
    result_row(ui, "Time per output token", fmt::seconds(p.tpot_s), "serving.performance.tpot_s",
               p.tpot_ok ? humanise(sizer::serve::to_string(p.decode.bound)) + "-bound" : "above the TPOT target",
               p.tpot_ok ? 0 : ui.pal.bad);
    result_row(ui, "Tokens/s per user", fmt::count(std::round(p.tokens_per_s_per_user)), "");
    result_row(ui, "Output tokens/s per device", fmt::count(std::round(p.output_tokens_per_s_per_device)), "");
    result_row(ui, "Requests/s per replica", fmt::number(p.requests_per_s_per_replica), "serving.performance.requests_per_s_per_replica");
    result_row(ui, "Requests the KV cache holds", fmt::count(std::floor(p.max_concurrency_kv)), "serving.performance.max_concurrency_kv");
    if (v.perf_cost_per_million_tokens_usd > 0) {
      result_row(ui, "Cost per million output tokens", fmt::usd(v.perf_cost_per_million_tokens_usd),
                 "serving.performance.cost_per_million_tokens_usd", "at this operating point");
    }
    result_row(ui, "Meets the SLO", p.meets_slo ? "yes" : "no", "", "", p.meets_slo ? ui.pal.good : ui.pal.bad);
    end_results();
  }
}

// Output tokens/s per device (y) against tokens/s per user (x) for the front, with the TPOT
// target as a vertical line (1 ÷ tpot) and the best point ringed.
void pareto_chart(Ui& ui, const sizer::serve::ServeSearchResult& r, double tpot_target) {
  const auto& pts = r.pareto;
  if (pts.empty()) return;
  double xm = 0, ym = 0;
  for (const auto& p : pts) {
    xm = std::max(xm, finite_or(p.perf.tokens_per_s_per_user, 0));
    ym = std::max(ym, p.perf.output_tokens_per_s_per_device);
  }
  const FrontAxes f = front_axes(ui, "serve_pareto", "chart:serve-pareto", ui.px(240), xm, ym, tpot_target, 1);
  ImDrawList* dl = f.dl;
  const ImVec2 p0 = f.p0, p1 = f.p1;
  const float fh = f.fh;
  const bool hovered = f.hovered;
  auto at = [&](double x, double y) { return f.at(x, y); };
  std::vector<ImVec2> line;
  for (const auto& p : pts) line.push_back(at(finite_or(p.perf.tokens_per_s_per_user, 0), p.perf.output_tokens_per_s_per_device));
  if (line.size() >= 2) dl->AddPolyline(line.data(), static_cast<int>(line.size()), ui.pal.series[0], 0, ui.px(2));
  int near = -1;
  float best_d = ui.px(14);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  bool any_disagg = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const ImU32 kind = pts[i].disaggregated ? ui.pal.series[1] : ui.pal.series[0];
    any_disagg = any_disagg || pts[i].disaggregated;
    if (pts[i].disaggregated) {  // a diamond: disaggregated pools
      const float q = ui.px(4);
      const ImVec2 c = line[i];
      dl->AddQuadFilled(ImVec2(c.x, c.y - q), ImVec2(c.x + q, c.y), ImVec2(c.x, c.y + q), ImVec2(c.x - q, c.y),
                        pts[i].perf.meets_slo ? kind : ui.pal.muted);
    } else {
      dl->AddCircleFilled(line[i], ui.px(3), pts[i].perf.meets_slo ? kind : ui.pal.muted);
    }
    const float d = std::hypot(mouse.x - line[i].x, mouse.y - line[i].y);
    if (hovered && d < best_d) best_d = d, near = static_cast<int>(i);
  }
  if (r.have_best) {
    const ImVec2 b = at(finite_or(r.best.perf.tokens_per_s_per_user, 0), r.best.perf.output_tokens_per_s_per_device);
    dl->AddCircle(b, ui.px(7), ui.pal.good, 0, ui.px(2));
  }
  {  // Legend, top right: a dot for aggregated replicas, a diamond for disaggregated pools.
    const char* agg = "aggregated";
    const char* dis = "disaggregated";
    const float q = ui.px(4), gap = ui.px(12);
    const float wa = ImGui::CalcTextSize(agg).x, wd = ImGui::CalcTextSize(dis).x;
    float x = p1.x - (2 * q + ui.px(4) + wa) - (any_disagg ? gap + 2 * q + ui.px(4) + wd : 0);
    const float cy = p0.y + fh / 2;
    dl->AddCircleFilled(ImVec2(x + q, cy), ui.px(3), ui.pal.series[0]);
    dl->AddText(ImVec2(x + 2 * q + ui.px(4), p0.y), ui.pal.muted, agg);
    if (any_disagg) {
      x += 2 * q + ui.px(4) + wa + gap;
      const ImVec2 c(x + q, cy);
      dl->AddQuadFilled(ImVec2(c.x, c.y - q), ImVec2(c.x + q, c.y), ImVec2(c.x, c.y + q), ImVec2(c.x - q, c.y), ui.pal.series[1]);
      dl->AddText(ImVec2(x + 2 * q + ui.px(4), p0.y), ui.pal.muted, dis);
    }
  }
  ImGui::PopFont();
  if (near >= 0) {
    const auto& p = pts[near];
    const std::string tip = "Pareto point\n" + point_text(p) + "\n" + fmt::count(std::round(p.perf.output_tokens_per_s_per_device)) +
                            " output tokens/s per device, " + fmt::count(std::round(p.perf.tokens_per_s_per_user)) +
                            " tokens/s per user; TTFT " + fmt::seconds(p.perf.ttft_s) +
                            (p.perf.meets_slo ? "; meets the SLO" : "; misses the SLO");
    dl->AddCircle(line[near], ui.px(7), ui.pal.text, 0, ui.px(1.5f));
    ImGui::BeginTooltip();
    ImGui::PushFont(ui.fonts.strong);
    ImGui::TextUnformatted("Pareto point");
    ImGui::PopFont();
    // No wider than the screen (a phone is 390 CSS pixels).
    ImGui::PushTextWrapPos(std::min(ui.px(360), ImGui::GetIO().DisplaySize.x - ui.px(40)));
    ImGui::TextUnformatted(tip.c_str() + tip.find('\n') + 1);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
    ui.state.view.hover_text = tip;
  }
}

// Aggregated against disaggregated serving: the best of each kind that meets the SLO, side by side.
void compare_kinds(Ui& ui, const sizer::serve::ServeSearchResult& r) {
  if (!r.have_best_aggregated && !r.have_best_disaggregated) return;
  ImGui::Spacing();
  ImGui::PushFont(ui.fonts.strong);
  ImGui::TextUnformatted("Aggregated against disaggregated (best of each that meets the SLO)");
  ImGui::PopFont();
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("serve_kinds", 3, flags)) return;
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("Aggregated", ImGuiTableColumnFlags_WidthStretch, 1.4f);
  ImGui::TableSetupColumn("Disaggregated", ImGuiTableColumnFlags_WidthStretch, 1.4f);
  ImGui::TableHeadersRow();
  const sizer::serve::ServePoint* kinds[2] = {r.have_best_aggregated ? &r.best_aggregated : nullptr,
                                              r.have_best_disaggregated ? &r.best_disaggregated : nullptr};
  auto row = [&](const char* label, auto value) {
    ImGui::TableNextRow();
    ImGui::TableSetColumnIndex(0);
    ImGui::TextWrapped("%s", label);
    for (int k = 0; k < 2; ++k) {
      ImGui::TableSetColumnIndex(k + 1);
      const std::string t = kinds[k] ? value(*kinds[k]) : std::string("none meets the SLO");
      ImGui::TextWrapped("%s", t.c_str());
    }
  };
  row("Layout", [](const sizer::serve::ServePoint& p) {
    return p.disaggregated ? "prefill " + layout_text(p.prefill_layout) + " × " + fmt::number(p.disagg.prefill_per_decode) +
                                 " per decode " + layout_text(p.layout)
                           : layout_text(p.layout);
  });
  row("Output tokens/s per device", [](const sizer::serve::ServePoint& p) {
    return fmt::count(std::round(p.perf.output_tokens_per_s_per_device));
  });
  row("Tokens/s per user", [](const sizer::serve::ServePoint& p) { return fmt::count(std::round(p.perf.tokens_per_s_per_user)); });
  row("TTFT / TPOT", [](const sizer::serve::ServePoint& p) {
    return fmt::seconds(p.perf.ttft_s) + " / " + fmt::seconds(p.perf.tpot_s);
  });
  row("Cost per million output tokens", [](const sizer::serve::ServePoint& p) {
    return p.cost_per_million_tokens_usd > 0 ? fmt::usd(p.cost_per_million_tokens_usd) : std::string("no price");
  });
  ImGui::EndTable();
  note_rect(ui, "table:serve-kinds");
}

void search_section(Ui& ui) {
  ServePlannerState& sp = ui.state.view.serve_planner;
  const auto& in = ui.sc().serving;
  const bool busy = sp.requested;
  ImGui::BeginDisabled(busy || !ui.state.editor.issues.empty());
  if (ImGui::Button(busy ? "Searching…" : "Search serving configurations")) {
    sp.requested = true;
    sp.request_frames = 0;
  }
  ImGui::EndDisabled();
  note_rect(ui, "button:serve-search");
  caption(ui, "Every replica of 1 to " + fmt::count(in.search.devices_max > 0 ? in.search.devices_max
                                                                             : sizer::serve::default_max_devices(ui.sc().device.scale_up_domain)) +
                  " devices (TP × PP, and attention DP × EP for MoE), each concurrency up to what the KV cache holds, "
                  "at the precisions above (serving.search lists more).");
  if (!sp.have) return;
  const auto& r = sp.result;
  caption(ui, fmt::count(r.configs_evaluated) + " configurations evaluated in " + fmt::number(sp.ms) + " ms; a front of " +
                  fmt::count(static_cast<double>(r.pareto.size())) + " points.");
  if (sp.revision != ui.state.computed.revision) {
    ImGui::PushFont(ui.fonts.small);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ui.pal.warn), "The inputs changed since this search: search again.");
    ImGui::PopFont();
  }
  pareto_chart(ui, r, in.slo.tpot_s);
  if (begin_results(ui, "serve_best")) {
    if (r.have_best) {
      result_row(ui, "Best configuration",
                 r.best.disaggregated ? "disaggregated: decode " + layout_text(r.best.layout) + ", prefill " +
                                            layout_text(r.best.prefill_layout) + " × " +
                                            fmt::number(r.best.disagg.prefill_per_decode) + " each"
                                      : layout_text(r.best.layout),
                 "",
                 std::string(sizer::to_string(r.best.weight_precision)) + " weights, " + sizer::to_string(r.best.kv_precision) +
                     " KV" + (r.best.spec_decode ? ", speculative decoding" : "") + ", " + fmt::count(r.best.concurrency) +
                     " requests in flight: meets the SLO at the lowest " +
                     (std::string(r.best_by) == "cost_per_million_tokens_usd" ? "cost per million tokens" : "devices per token"));
      result_row(ui, "Its throughput", fmt::count(std::round(r.best.perf.output_tokens_per_s_per_device)) + " tok/s per device, " +
                                           fmt::count(std::round(r.best.perf.tokens_per_s_per_user)) + " per user", "",
                 "TTFT " + fmt::seconds(r.best.perf.ttft_s) + ", TPOT " + fmt::seconds(r.best.perf.tpot_s));
      if (r.best.cost_per_million_tokens_usd > 0) {
        result_row(ui, "Cost per million output tokens", fmt::usd(r.best.cost_per_million_tokens_usd), "");
      }
      result_row(ui, "Fleet for the demand", fmt::count(r.fleet.replicas) + " replicas, " + fmt::count(r.fleet.devices) + " devices",
                 "", fmt::count(std::round(r.fleet.demand_output_tokens_per_s)) + " output tokens/s (" +
                         (std::string(r.fleet.basis) == "requests_per_s" ? "the request rate" : "tokens per day") + ")" +
                         (r.fleet.usd_per_hour > 0 ? ", " + fmt::usd(r.fleet.usd_per_hour) + "/h" : ""));
    } else {
      result_row(ui, "Best configuration", "none meets the SLO", "", r.no_best_reason, ui.pal.bad);
    }
    end_results();
  }
  compare_kinds(ui, r);
}

}  // namespace

void serve_planner(Ui& ui) {
  ServePlannerState& sp = ui.state.view.serve_planner;
  if (sp.requested && sp.request_frames++ >= 1 && ui.state.editor.issues.empty()) {
    const auto t0 = std::chrono::steady_clock::now();
    sp.result = sizer::serve::search_serving(ui.sc());
    sp.ms = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() * 1e3;
    sp.result.search_s = sp.ms / 1e3;
    sp.have = true;
    sp.requested = false;
    sp.revision = ui.state.computed.revision;
    ++sp.text_revision;
  }
  const auto& in = ui.sc().serving;
  ImGui::Spacing();
  ImGui::Separator();
  section_title(ui, "Serving planner (predicted)",
                "The serving performance model under continuous batching: time to first token, time per output token "
                "and throughput for a workload, against latency targets (docs/serving.md).");
  if (!in.workload_given && ui.state.editor.issues.empty()) {
    caption(ui, "Give a workload (prompt and output lengths, requests in flight per replica) to predict it.");
    if (ImGui::Button("Add a workload")) {
      set_input(ui.state, "serving.workload", json{{"input_tokens", 1024}, {"output_tokens", 1024}, {"concurrency", 64}});
    }
    note_rect(ui, "button:serve-add-workload");
    return;
  }
  if (begin_fields(ui, "serve_fields")) {
    count_field(ui, "Prompt tokens", "serving.workload.input_tokens");
    count_field(ui, "Output tokens", "serving.workload.output_tokens");
    count_field(ui, "Requests in flight", "serving.workload.concurrency");
    number_field(ui, {"serving.slo.ttft_s", "TTFT target (s)", 1.0, "", false, nullptr, nullptr, 0, "%.4g"},
                 FieldPlace::planner_table);
    number_field(ui, {"serving.slo.tpot_s", "TPOT target (ms)", 1e-3, "", false, nullptr, nullptr, 0, "%.4g"},
                 FieldPlace::planner_table);
    if (in.workload_given) layout_fields(ui);
    search_range_fields(ui, ui.state.view.serve_planner.have ? &ui.state.view.serve_planner.result : nullptr);
    ImGui::EndTable();
  }
  issues_under(ui, "serving.workload", true);
  issues_under(ui, "serving.layout");
  issues_under(ui, "serving.search");
  if (in.workload_given) prediction(ui);
  ImGui::Spacing();
  search_section(ui);
  serve_chips_section(ui);
}

std::string serve_planner_text(const AppState& state) {
  const auto& s = state.computed.scenario;
  const auto& v = state.computed.estimate.serving;
  std::string t;
  if (s.serving.workload_given && v.has_performance) {
    const auto& p = v.performance;
    t += "Serving model: " + layout_text(v.layout) + ", TTFT " + fmt::seconds(p.ttft_s) + ", TPOT " + fmt::seconds(p.tpot_s) +
         ", " + fmt::count(std::round(p.tokens_per_s_per_user)) + " tokens/s per user, " +
         fmt::count(std::round(p.output_tokens_per_s_per_device)) + " output tokens/s per device, meets the SLO: " +
         (p.meets_slo ? "yes" : "no") + "\n";
  }
  const ServePlannerState& sp = state.view.serve_planner;
  if (sp.have) {
    const auto& r = sp.result;
    t += "Serving search: " + fmt::count(r.configs_evaluated) + " configurations, a Pareto front of " +
         fmt::count(static_cast<double>(r.pareto.size())) + " points; ";
    if (r.have_best) {
      t += "best " + point_text(r.best) + ": " + fmt::count(std::round(r.best.perf.output_tokens_per_s_per_device)) +
           " output tokens/s per device, " + fmt::count(std::round(r.best.perf.tokens_per_s_per_user)) + " tokens/s per user" +
           (r.best.cost_per_million_tokens_usd > 0 ? ", " + fmt::usd(r.best.cost_per_million_tokens_usd) + " per million tokens" : "") +
           "; fleet " + fmt::count(r.fleet.replicas) + " replicas (" + fmt::count(r.fleet.devices) + " devices)\n";
    } else {
      t += "no configuration meets the SLO: " + r.no_best_reason + "\n";
    }
    for (int k = 0; k < 2; ++k) {
      const bool have = k == 0 ? r.have_best_aggregated : r.have_best_disaggregated;
      const auto& p = k == 0 ? r.best_aggregated : r.best_disaggregated;
      t += std::string(k == 0 ? "Best aggregated: " : "Best disaggregated: ");
      t += have ? point_text(p) + ", " + fmt::count(std::round(p.perf.output_tokens_per_s_per_device)) +
                      " output tokens/s per device, " + fmt::count(std::round(p.perf.tokens_per_s_per_user)) +
                      " tokens/s per user" +
                      (p.cost_per_million_tokens_usd > 0 ? ", " + fmt::usd(p.cost_per_million_tokens_usd) + " per million tokens" : "")
                : std::string("none meets the SLO");
      t += "\n";
    }
  }
  t += serve_chips_text(state);
  return t;
}

}  // namespace sizer_web
