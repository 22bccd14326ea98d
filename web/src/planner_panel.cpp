// The planner view (see planner_panel.h).
//
// [SECTION] Headline numbers and explanations
// [SECTION] Search settings and results
// [SECTION] The view
#include "planner_panel.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "input_fields.h"
#include "planner_charts.h"
#include "sizer/layout/layout_accuracy.h"
#include "planner_fields.h"
#include "planner_state.h"
#include "scenario_edit.h"
#include "working_tooltip.h"

namespace sizer_web {
namespace {

namespace fmt = sizer::fmt;
using nlohmann::json;

// [SECTION] Headline numbers and explanations
// One headline number: label, value (hover for the working, click to pin it) and a detail line.
void stat(Ui& ui, const char* label, const std::string& value, const char* path, const std::string& detail, ImU32 color = 0) {
  ImGui::TableNextColumn();
  ImGui::PushID(path);
  ImGui::PushFont(ui.fonts.small);
  ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.muted);
  ImGui::TextUnformatted(label);
  ImGui::PopStyleColor();
  ImGui::PopFont();
  ImGui::PushFont(ui.fonts.heading);
  ImGui::PushStyleColor(ImGuiCol_Text, color ? color : ui.pal.text);
  ImGui::TextUnformatted(value.c_str());
  ImGui::PopStyleColor();
  ImGui::PopFont();
  const sizer::Working* w = find_working(ui.est(), path);
  if (w) {
    note_rect(ui, std::string("value:") + path);
    if (ImGui::IsItemHovered()) {
      const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
      ImGui::GetWindowDrawList()->AddLine(ImVec2(a.x, b.y), b, ui.pal.accent, ui.px(1));
      ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
      working_tooltip(ui, *w);
      if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        ui.state.view.pinned_working = ui.state.view.pinned_working == w->path ? std::string() : w->path;
      }
    }
  }
  if (!detail.empty()) {
    ImGui::PushFont(ui.fonts.small);
    ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.muted);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(detail.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::PopFont();
  }
  ImGui::PopID();
}

void headline(Ui& ui) {
  const PlannerState& p = ui.state.view.planner;
  const sizer::LayoutResult& r = p.result;
  const sizer::Scenario& s = ui.sc();
  const int columns = ImGui::GetContentRegionAvail().x < ui.px(520) ? 2 : 4;  // 2 on a phone
  if (!ImGui::BeginTable("planner_stats", columns, ImGuiTableFlags_SizingStretchSame)) return;
  const bool valid = r.valid();
  auto or_dash = [&](const std::string& v) { return valid ? v : std::string("—"); };
  stat(ui, "Step time", or_dash(fmt::seconds(r.step_s)), kPlanStep,
       valid ? fmt::count(r.microbatches) + " micro-batches of " + fmt::count(p.layout.micro_batch) : "layout not valid");
  stat(ui, "Predicted MFU", or_dash(fmt::percent(r.mfu_predicted)), kPlanMfu,
       valid ? "HFU " + fmt::percent(r.hfu_predicted) : "");
  stat(ui, "Model FLOP/s per device", or_dash(fmt::flops_per_s(r.model_flops_per_s_per_device)), kPlanFlops,
       valid ? "GEMM efficiency " + fmt::percent(r.gemm_efficiency) : "");
  stat(ui, "Tokens per second", or_dash(fmt::count(std::round(r.tokens_per_s))), kPlanTokens,
       fmt::count(r.tokens_per_step) + " tokens per step");
  stat(ui, "Time to train", valid && r.train_days > 0 ? fmt::number(r.train_days) + " days" : "—", kPlanDays,
       plain(s.training.tokens / 1e12) + "T tokens at " + pct(s.training.goodput) + " goodput");
  stat(ui, "Device-hours", or_dash(fmt::hours(r.device_hours)), kPlanHours, fmt::count(p.layout.devices()) + " devices");
  stat(ui, "Training cost", valid && r.cost_usd > 0 ? fmt::usd(r.cost_usd) : "—", kPlanCost,
       r.cost_usd > 0 ? "at $" + plain(s.training.price.usd_per_device_hour) + " per device-hour" : "no price offer");
  stat(ui, "Memory per device", fmt::bytes(r.device_memory_bytes), kPlanMemory,
       "of " + fmt::bytes(r.usable_memory_bytes) + " usable: " + (r.fits ? "fits" : "does not fit"), r.fits ? ui.pal.good : ui.pal.bad);
  ImGui::EndTable();
  // HFU gets its own hoverable number under the table (its working differs from MFU's).
  if (valid) {
    ImGui::PushFont(ui.fonts.small);
    ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.muted);
    ImGui::TextUnformatted("Hardware FLOPs utilisation:");
    ImGui::PopStyleColor();
    ImGui::PopFont();
    ImGui::SameLine();
    value_text(ui, fmt::percent(r.hfu_predicted), kPlanHfu, false);
    // How far such predictions have been from published runs (sizer/layout/layout_accuracy.h).
    const sizer::LayoutAccuracy& a = p.accuracy;
    ImGui::PushFont(ui.fonts.small);
    ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.muted);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(("Step time " + sizer::accuracy_phrase(a) + " (" +
                            fmt::seconds(a.step_low_s(r.step_s)) + " – " + fmt::seconds(a.step_high_s(r.step_s)) + ")")
                               .c_str());
    note_rect(ui, "caption:plan-accuracy");
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    ImGui::PopFont();
  }
}

void explanations(Ui& ui) {
  const PlannerState& p = ui.state.view.planner;
  if (p.explanations.empty()) return;
  const bool bad = !p.result.valid() || !p.result.fits;
  ImGui::Spacing();
  ImGui::PushStyleColor(ImGuiCol_ChildBg, bad ? ui.pal.accent_soft : ui.pal.card);
  ImGui::PushFont(ui.fonts.strong);
  ImGui::PushStyleColor(ImGuiCol_Text, bad ? ui.pal.bad : ui.pal.warn);
  ImGui::TextUnformatted(!p.result.valid() ? "This layout does not work:" : !p.result.fits ? "This layout does not fit:" : "Notes on this layout:");
  ImGui::PopStyleColor();
  ImGui::PopFont();
  ImGui::PushTextWrapPos(0.0f);
  for (const std::string& e : p.explanations) ImGui::Text("• %s", e.c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

// [SECTION] Search settings and results
void search_settings(Ui& ui) {
  PlannerState& p = ui.state.view.planner;
  const sizer::SearchInputs& q = ui.sc().training.search;
  ImGui::Spacing();
  ImGui::PushFont(ui.fonts.heading);
  ImGui::TextUnformatted("Search");
  ImGui::PopFont();
  caption(ui, ui.sc().model.moe.enabled()
                  ? "Tries every TP × PP × DP × CP × EP split, and EP folded into TP × CP × DP with expert TP 1, "
                    "with each micro-batch, virtual stages, ZeRO stage and recompute mode, at the batch "
                    "and sequence above (training.search)."
                  : "Tries every TP × PP × DP × CP × EP split with each micro-batch, virtual stages, ZeRO "
                    "stage and recompute mode, at the batch and sequence above (training.search).");
  const double layout_devices = p.layout.devices();
  double lo = q.devices_min > 0 ? q.devices_min : layout_devices;
  double hi = q.devices_max > 0 ? q.devices_max : lo;
  if (begin_fields(ui, "search_fields")) {
    const char* path = "training.search.devices";
    // Both ends outlined when the range has a problem; their captions under the second.
    const bool bad = !issues_at(ui.state.editor.issues, path).empty();
    double a = lo, b = hi;
    row_label("Devices from");
    ImGui::PushID("devices");
    ImGui::SetNextItemWidth(-1.0f);
    const bool ea = number_input(ui, FieldPlace::planner_table, "training.search.devices[0]", "Devices from", &a, "%.0f", bad);
    row_label("to");
    ImGui::PushID("max");
    ImGui::SetNextItemWidth(-1.0f);
    const bool eb = number_input(ui, FieldPlace::planner_table, "training.search.devices[1]", "Devices to", &b, "%.0f", bad);
    ImGui::PopID();
    pending_caption(ui, "training.search.devices[0]");
    pending_caption(ui, "training.search.devices[1]");
    if (ea || eb) {
      if (!ea) a = lo;  // the other end as applied, not as drawn this frame
      if (!eb) b = hi;
      a = std::round(a), b = std::round(b);
      if (ea && !eb && a > b) b = a;  // typing a larger count moves the top of the range along
      set_input(ui.state, path, a == b ? json(a) : json::array({a, b}));
    }
    issues_under(ui, path);
    ImGui::PopID();
    count_field(ui, "Keep the top", "training.search.top", &q.top);
    ImGui::EndTable();
  }
  radio_row(ui, "Rank by", "training.search.objective",
            {{"time", "step time"}, {"cost", "cost"}, {"time_to_train", "time to train"}}, q.objective);
  // Kinds of parallelism the search may use.
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Allow");
  // The boxes flow on after "Allow" and wrap, aligned under the first, where the column is narrow.
  const float first_x = ImGui::GetCursorPosX() + ImGui::CalcTextSize("Allow").x + ImGui::GetStyle().ItemSpacing.x;
  auto next_box = [&](const char* label) {
    const float w = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < w) {
      ImGui::NewLine();
      ImGui::SetCursorPosX(first_x);
    }
  };
  const struct {
    const char* label;
    const char* path;
    bool on;
  } kinds[] = {{"TP", "training.search.allow.tp", q.allow_tp}, {"PP", "training.search.allow.pp", q.allow_pp},
               {"DP", "training.search.allow.dp", q.allow_dp}, {"CP", "training.search.allow.cp", q.allow_cp},
               {"EP", "training.search.allow.ep", q.allow_ep}};
  for (const auto& [label, path, allowed] : kinds) {
    next_box(label);
    bool on = allowed;
    if (ImGui::Checkbox(label, &on)) set_input(ui.state, path, on);
    note_rect(ui, std::string("planner:") + path);
  }
  if (ui.sc().model.moe.enabled()) {
    next_box("EP folding");
    bool on = q.allow_ep_folding;
    ImGui::BeginDisabled(!q.allow_ep);
    if (ImGui::Checkbox("EP folding", &on)) set_input(ui.state, "training.search.allow.ep_folding", on);
    ImGui::EndDisabled();
    note_rect(ui, "planner:training.search.allow.ep_folding");
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
      ImGui::SetTooltip("Also try EP folded into the TP × CP × DP ranks with expert TP 1 (TP > 1)\n"
                        "(Megatron-Core MoE parallel folding; Liu et al. 2025, arXiv 2504.14960).");
    }
  }
  issues_under(ui, "training.search", true);
  ImGui::Spacing();
  const bool busy = p.search_requested;
  ImGui::BeginDisabled(busy || !ui.state.editor.issues.empty());
  if (ImGui::Button(busy ? "Searching…" : "Search layouts")) request_search(ui.state);
  ImGui::EndDisabled();
  note_rect(ui, "button:planner-search");
  ImGui::SameLine();
  ImGui::Checkbox("Search when inputs change", &p.auto_search);
  note_rect(ui, "planner:auto-search");
  if (p.have_search) {
    std::string status = fmt::count(p.search.layouts_evaluated) + " layouts evaluated, " + fmt::count(p.search.layouts_valid) +
                         " valid and fitting, in " + fmt::number(p.search_ms) + " ms.";
    if (p.search.truncated) status += " Stopped at the layout cap: narrow the range or the kinds allowed.";
    caption(ui, status);
    if (search_stale(ui.state)) {
      ImGui::PushFont(ui.fonts.small);
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(ui.pal.warn), "The inputs changed since this search: search again.");
      ImGui::PopFont();
    }
  }
}

void results_table(Ui& ui) {
  PlannerState& p = ui.state.view.planner;
  const std::vector<sizer::RankedLayout>& top = p.search.top;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp |
                                ImGuiTableFlags_PadOuterX;
  if (!ImGui::BeginTable("search_results", 9, flags)) return;
  ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthStretch, 0.25f);
  ImGui::TableSetupColumn("Layout", ImGuiTableColumnFlags_WidthStretch, 2.6f);
  ImGui::TableSetupColumn("b · v · ZeRO · recompute", ImGuiTableColumnFlags_WidthStretch, 1.5f);
  ImGui::TableSetupColumn("Devices", ImGuiTableColumnFlags_WidthStretch, 0.7f);
  ImGui::TableSetupColumn("Step", ImGuiTableColumnFlags_WidthStretch, 0.7f);
  ImGui::TableSetupColumn("MFU", ImGuiTableColumnFlags_WidthStretch, 0.55f);
  ImGui::TableSetupColumn("Memory", ImGuiTableColumnFlags_WidthStretch, 0.7f);
  ImGui::TableSetupColumn("Days", ImGuiTableColumnFlags_WidthStretch, 0.55f);
  ImGui::TableSetupColumn("Cost", ImGuiTableColumnFlags_WidthStretch, 0.65f);
  ImGui::TableHeadersRow();
  for (size_t i = 0; i < top.size(); ++i) {
    const sizer::Layout& l = top[i].layout;
    const sizer::LayoutResult& r = top[i].result;
    ImGui::PushID(static_cast<int>(i));
    ImGui::TableNextRow(0, ImGui::GetTextLineHeight() + ui.px(6));
    ImGui::TableNextColumn();
    const std::string n = std::to_string(i + 1);
    if (ImGui::Selectable(n.c_str(), p.selected_row == static_cast<int>(i), ImGuiSelectableFlags_SpanAllColumns)) {
      load_layout(ui.state, l);
      p.selected_row = static_cast<int>(i);
    }
    note_rect(ui, "planner:row:" + n);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\nClick to load this layout into the editor.", layout_label(l).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(layout_label(l).c_str());
    ImGui::TableNextColumn();
    ImGui::Text("%s · %s · %d · %s", plain(l.micro_batch).c_str(), plain(l.virtual_stages).c_str(), l.zero_stage,
                sizer::to_string(l.recompute));
    ImGui::PushFont(ui.fonts.numbers);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt::count(l.devices()).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt::seconds(r.step_s).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt::percent(r.mfu_predicted).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(fmt::bytes(r.device_memory_bytes).c_str());
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.train_days > 0 ? fmt::number(r.train_days).c_str() : "—");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.cost_usd > 0 ? fmt::usd(r.cost_usd).c_str() : "—");
    ImGui::PopFont();
    ImGui::PopID();
  }
  ImGui::EndTable();
}

void search_results(Ui& ui) {
  PlannerState& p = ui.state.view.planner;
  if (!p.have_search) return;
  ImGui::Spacing();
  ImGui::Separator();
  if (p.scroll_to_results) {
    ImGui::SetScrollHereY(0.0f);
    p.scroll_to_results = false;
  }
  const std::string objective = ui.sc().training.search.objective;
  const std::string title = "Best layouts by " + std::string(objective == "cost" ? "cost of the run" : objective == "time_to_train" ? "time to train" : "step time");
  section_title(ui, title.c_str(), "Click a row (or a point of the chart) to load that layout into the editor.");
  if (p.search.top.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.bad);
    ImGui::TextWrapped("No valid layout fits for these device counts: try more devices, ZeRO, or a smaller batch.");
    ImGui::PopStyleColor();
    return;
  }
  if (begin_grid(ui, "search_grid")) {
    results_table(ui);
    next_cell();
    ImGui::PushFont(ui.fonts.strong);
    ImGui::TextUnformatted("Fastest layout per device count (Pareto front)");
    ImGui::PopFont();
    caption(ui, "Devices against days to train; each point trains faster than every smaller count.");
    const int clicked = pareto_chart(ui, p.search, p.layout, p.result, ui.px(240));
    if (clicked >= 0) load_layout(ui.state, p.search.pareto[clicked].layout);
    end_grid();
  }
}

}  // namespace

// [SECTION] The view
void planner_panel(Ui& ui) {
  PlannerState& p = ui.state.view.planner;
  if (run_pending_search(ui.state)) p.scroll_to_results = true;
  refresh_plan(ui.state);
  const sizer::LayoutResult& r = p.result;
  const float avail_w = ImGui::GetContentRegionAvail().x;
  const float editor_w = std::max(ui.px(360), avail_w * 0.34f);
  // Narrower than editor and results side by side (a phone): the results go under the editor.
  const bool narrow = avail_w < ui.px(720);
  if (ImGui::BeginTable("planner", narrow ? 1 : 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV)) {
    if (narrow) {
      ImGui::TableSetupColumn("editor", ImGuiTableColumnFlags_WidthStretch);
    } else {
      ImGui::TableSetupColumn("editor", ImGuiTableColumnFlags_WidthFixed, editor_w);
      ImGui::TableSetupColumn("result", ImGuiTableColumnFlags_WidthStretch);
    }
    ImGui::TableNextColumn();
    layout_editor(ui);
    search_settings(ui);
    ImGui::TableNextColumn();  // the next row when narrow
    if (narrow) ImGui::Separator();
    ImGui::Indent(ui.px(8));
    headline(ui);
    explanations(ui);
    ImGui::Spacing();
    ImGui::PushFont(ui.fonts.strong);
    ImGui::Text("Step time %s", r.valid() ? fmt::seconds(r.step_s).c_str() : "(layout not valid)");
    ImGui::PopFont();
    if (r.valid()) step_bar(ui, r);
    ImGui::Spacing();
    ImGui::PushFont(ui.fonts.strong);
    ImGui::Text("Memory per device %s", fmt::bytes(r.device_memory_bytes).c_str());
    ImGui::PopFont();
    memory_bar(ui, r);
    ImGui::Spacing();
    ImGui::PushFont(ui.fonts.strong);
    ImGui::TextUnformatted("The layout on the hardware");
    ImGui::PopFont();
    layout_diagram(ui, ui.sc(), p.layout, r);
    ImGui::Unindent(ui.px(8));
    ImGui::EndTable();
  }
  search_results(ui);
}

}  // namespace sizer_web
