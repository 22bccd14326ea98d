// "Compare chips" (see compare_panel.h).
#include "compare_panel.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>

namespace sizer_web {
namespace {

namespace fmt = sizer::fmt;

enum Column { kDevice, kPrecision, kMfu, kHours, kCost, kClusterCost, kCluster, kDomains, kPower, kFloor, kServeMin, kReplica, kDecode, kPerMillion, kCount };

double key(const sizer::ComparisonRow& r, int column) {
  switch (column) {
    case kPrecision: return sizer::bytes_per_value(r.precision);
    case kMfu: return r.mfu;
    case kHours: return r.device_hours;
    case kCost: return r.cost_usd > 0 ? r.cost_usd : 1e300;  // unpriced rows last
    case kClusterCost: return r.cluster_cost_usd > 0 ? r.cluster_cost_usd : 1e300;
    case kCluster: return std::isfinite(r.cluster_devices) ? r.cluster_devices : 1e300;  // out of reach: last
    case kDomains: return r.scale_up_domains;
    case kPower: return r.facility_power_w > 0 ? r.facility_power_w : 1e300;
    case kFloor: return r.min_devices_usable;
    case kServeMin: return r.replica_min_devices;
    case kReplica: return r.replica_devices;
    case kDecode: return r.tokens_per_s_per_replica;
    case kPerMillion: return r.cost_per_million_tokens_usd > 0 ? r.cost_per_million_tokens_usd : 1e300;
  }
  return 0;
}

void refresh_rows(Ui& ui) {
  CompareState& c = ui.state.view.compare;
  const int mask = (c.bf16 ? 1 : 0) | (c.fp8 ? 2 : 0) | (c.fp4 ? 4 : 0);
  if (c.rows_revision == ui.state.computed.revision && c.rows_precisions == mask) return;
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<sizer::Precision> precisions;
  if (c.bf16) precisions.push_back(sizer::Precision::bf16);
  if (c.fp8) precisions.push_back(sizer::Precision::fp8);
  if (c.fp4) precisions.push_back(sizer::Precision::fp4);
  c.rows = sizer::compare_devices(ui.sc(), ui.state.share.catalog, precisions);
  c.rows_revision = ui.state.computed.revision;
  c.rows_precisions = mask;
  c.compute_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  c.sorted = false;
}

void sort_rows(CompareState& c, ImGuiTableSortSpecs* specs) {
  if (!specs || specs->SpecsCount == 0) return;
  const ImGuiTableColumnSortSpecs& s = specs->Specs[0];
  const bool asc = s.SortDirection == ImGuiSortDirection_Ascending;
  const int col = s.ColumnUserID;
  std::stable_sort(c.rows.begin(), c.rows.end(), [&](const sizer::ComparisonRow& a, const sizer::ComparisonRow& b) {
    if (col == kDevice) return asc ? a.device < b.device : a.device > b.device;
    const double ka = key(a, col), kb = key(b, col);
    return asc ? ka < kb : ka > kb;
  });
}

void cell(Ui& ui, const std::string& text, ImU32 color = 0) {
  ImGui::TableNextColumn();
  value_text(ui, text, "", true, color);
}

}  // namespace

void compare_panel(Ui& ui) {
  CompareState& c = ui.state.view.compare;
  const sizer::Scenario& s = ui.sc();
  section_title(ui, "Compare chips",
                ("The current model (" + s.model.name + ") on every bundled device at each MFU point; " +
                 plain(s.training.days) + "-day schedule, each device with its default system, price and power. "
                 "Min. devices: the fewest that hold the training state or the serving weights and KV cache; "
                 "Replica: the serving replica each device uses (the automatic size). Click a column header to sort.").c_str());
  ImGui::TextUnformatted("Training precisions:");
  ImGui::SameLine();
  ImGui::Checkbox("BF16", &c.bf16);
  note_rect(ui, "check:bf16");
  ImGui::SameLine();
  ImGui::Checkbox("FP8", &c.fp8);
  note_rect(ui, "check:fp8");
  ImGui::SameLine();
  ImGui::Checkbox("FP4", &c.fp4);
  note_rect(ui, "check:fp4");
  refresh_rows(ui);

  const ImGuiTableFlags flags = ImGuiTableFlags_Sortable | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_PadOuterX |
                                ImGuiTableFlags_ScrollX;
  if (!ImGui::BeginTable("compare", kCount, flags, ImVec2(0, ImGui::GetContentRegionAvail().y))) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  ImGui::TableSetupColumn("Device", ImGuiTableColumnFlags_WidthFixed | ImGuiTableColumnFlags_NoHide, ui.px(120), kDevice);
  ImGui::TableSetupColumn("Precision", 0, 0, kPrecision);
  ImGui::TableSetupColumn("MFU", 0, 0, kMfu);
  ImGui::TableSetupColumn("Device-hours", ImGuiTableColumnFlags_DefaultSort, 0, kHours);
  ImGui::TableSetupColumn("Cost (useful h)", 0, 0, kCost);
  ImGui::TableSetupColumn("Cluster cost", 0, 0, kClusterCost);
  ImGui::TableSetupColumn("Cluster", 0, 0, kCluster);
  ImGui::TableSetupColumn("Domains", 0, 0, kDomains);
  ImGui::TableSetupColumn("Facility power", 0, 0, kPower);
  // Minimum devices to hold the training state and the serving weights + KV cache; the replica
  // actually used (the automatic size per device), whose decode rate the next column gives.
  ImGui::TableSetupColumn("Min. devices (train)", 0, 0, kFloor);
  ImGui::TableSetupColumn("Min. devices (serve)", 0, 0, kServeMin);
  ImGui::TableSetupColumn("Replica", 0, 0, kReplica);
  ImGui::TableSetupColumn("Decode tok/s per replica", 0, 0, kDecode);
  ImGui::TableSetupColumn("$ per M tok", 0, 0, kPerMillion);
  ImGui::PushFont(ui.fonts.strong);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);  // TableHeadersRow, with each label published
  for (int i = 0; i < kCount; ++i) {
    if (!ImGui::TableSetColumnIndex(i)) continue;
    const char* name = ImGui::TableGetColumnName(i);
    ImGui::PushID(i);
    ImGui::TableHeader(name);
    note_text(ui, "header:compare:" + std::to_string(i), name);
    ImGui::PopID();
  }
  ImGui::PopFont();
  if (ImGuiTableSortSpecs* specs = ImGui::TableGetSortSpecs()) {
    if (specs->SpecsDirty || !c.sorted) {
      sort_rows(c, specs);
      specs->SpecsDirty = false;
      c.sorted = true;
    }
  }
  for (size_t i = 0; i < c.rows.size(); ++i) {
    const sizer::ComparisonRow& r = c.rows[i];
    ImGui::PushID(static_cast<int>(i));
    ImGui::TableNextRow();
    const bool mine = r.device == s.device.id && r.precision == s.training.precision;
    if (mine) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg1, ui.pal.accent_soft);
    ImGui::TableNextColumn();
    if (r.user_supplied) {  // text and colour: a user's figures, not the bundled sourced tables
      ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.warn);
      ImGui::Text("%s *", r.device.c_str());
      ImGui::PopStyleColor();
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s (user-supplied)", r.device_name.c_str());
    } else {
      ImGui::TextUnformatted(r.device.c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.device_name.c_str());
    }
    std::string prec = sizer::to_string(r.precision);
    for (char& ch : prec) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(prec.c_str());
    cell(ui, pct(r.mfu));
    cell(ui, fmt::hours(r.device_hours));
    cell(ui, r.cost_usd > 0 ? fmt::usd(r.cost_usd) : r.price_note.empty() ? "—" : "no public price",
         r.cost_usd > 0 ? 0 : ui.pal.faint);
    if (ImGui::IsItemHovered()) {
      if (r.cost_usd > 0) ImGui::SetTooltip("price offer %s (%s); useful device-hours only", r.price_id.c_str(), r.offer_kind.c_str());
      else if (!r.price_note.empty()) ImGui::SetTooltip("%s", r.price_note.c_str());
    }
    const bool reach = std::isfinite(r.cluster_devices);  // out of reach: no cluster meets the schedule
    cell(ui, !reach ? "out of reach" : r.cluster_cost_usd > 0 ? fmt::usd(r.cluster_cost_usd) : "—",
         r.cluster_cost_usd > 0 ? 0 : ui.pal.faint);
    if (r.cluster_cost_usd > 0 && ImGui::IsItemHovered()) {
      ImGui::SetTooltip("the recommended cluster rented for the whole schedule, idle time included");
    }
    cell(ui, reach_text(r.cluster_devices, fmt::count));
    if (mine) note_text(ui, "cell:compare:cluster@" + plain(100 * r.mfu), reach_text(r.cluster_devices, fmt::count));
    cell(ui, fmt::count(r.scale_up_domains));
    cell(ui, !reach ? "out of reach" : r.facility_power_w > 0 ? fmt::watts(r.facility_power_w) : "—",
         r.facility_power_w > 0 ? 0 : ui.pal.faint);
    cell(ui, fmt::count(r.min_devices_usable));
    cell(ui, fmt::count(r.replica_min_devices));
    if (mine) note_text(ui, "cell:compare:serve-min", fmt::count(r.replica_min_devices));
    cell(ui, fmt::count(r.replica_devices));
    if (mine) note_text(ui, "cell:compare:replica", fmt::count(r.replica_devices));
    cell(ui, fmt::count(std::round(r.tokens_per_s_per_replica)));
    cell(ui, r.cost_per_million_tokens_usd > 0 ? fmt::usd(r.cost_per_million_tokens_usd) : "—",
         r.cost_per_million_tokens_usd > 0 ? 0 : ui.pal.faint);
    ImGui::PopID();
  }
  ImGui::EndTable();
}

}  // namespace sizer_web
