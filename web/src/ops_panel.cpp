// The Reliability & cost view (see ops_panel.h).
//
// [SECTION] Helpers: ranges over MFU points, verdict colours, per-MFU tables
// [SECTION] Reliability and goodput
// [SECTION] Storage check
// [SECTION] Owning against renting
// [SECTION] Carbon
// [SECTION] Uncertainty
#include "ops_panel.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "ops_charts.h"

namespace sizer_web {
namespace {

namespace fmt = sizer::fmt;

// [SECTION] Helpers
std::string span(const std::vector<double>& v, std::string (*f)(double)) { return reach_span(v, f); }

std::string tonnes(double kg) { return fmt::tonnes(kg) + " t CO₂e"; }

ImU32 storage_color(const Ui& ui, const std::string& verdict) {
  return verdict == "ok" ? ui.pal.good : verdict == "short" ? ui.pal.bad : ui.pal.warn;
}

std::string storage_note(const std::string& verdict, const std::string& have, const char* what) {
  if (verdict == "ok") return "enough: the scenario has " + have;
  if (verdict == "short") return "SHORT: the scenario has " + have;
  return std::string("not given: enter the ") + what + " under Reliability & cost in the inputs to check it";
}

// A table of values per MFU point: MFU | column 1 | column 2 (a column is left out when empty).
struct Column {
  const char* header;
  const std::vector<double>* values;
  std::string (*format)(double);
  const char* path;  // working, indexed: "carbon.training_kg_co2e" -> "...[i]"; nullptr for none
};

void per_mfu_table(Ui& ui, const char* id, const std::vector<Column>& columns) {
  const auto& mfu = ui.est().compute.mfu;
  std::vector<const Column*> shown;
  for (const Column& c : columns) {
    if (c.values && c.values->size() == mfu.size()) shown.push_back(&c);
  }
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp |
                                ImGuiTableFlags_PadOuterX;
  if (shown.empty() || !ImGui::BeginTable(id, 1 + static_cast<int>(shown.size()), flags)) return;
  ImGui::TableSetupColumn("MFU", ImGuiTableColumnFlags_WidthStretch, 0.5f);
  for (const Column* c : shown) ImGui::TableSetupColumn(c->header, ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::PushFont(ui.fonts.strong);
  ImGui::TableHeadersRow();
  ImGui::PopFont();
  for (size_t i = 0; i < mfu.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    value_text(ui, pct(mfu[i]), "");
    for (const Column* c : shown) {
      ImGui::TableNextColumn();
      value_text(ui, reach_text((*c->values)[i], c->format), c->path ? std::string(c->path) + "[" + std::to_string(i) + "]" : "");
    }
    ImGui::PopID();
  }
  ImGui::EndTable();
}

std::string usd_text(double v) { return fmt::usd(v); }
std::string tonnes_text(double kg) { return tonnes(kg); }

float chart_height(Ui& ui) { return std::clamp(ImGui::GetContentRegionAvail().x * 0.42f, ui.px(170), ui.px(250)); }

// [SECTION] Reliability and goodput
void reliability_section(Ui& ui) {
  const sizer::Scenario& s = ui.sc();
  const sizer::Estimate& e = ui.est();
  const auto& r = e.reliability;
  const auto& q = s.training.reliability;
  const bool predicted = q.predict_goodput;
  section_title(ui, "Reliability and goodput",
                ("Failures of the layout's " + fmt::count(r.job_devices) + " devices, checkpoints and restarts: "
                 "Young/Daly interval, lost work and restart time per failure.").c_str());
  if (!begin_results(ui, "reliability")) return;
  result_row(ui, "Goodput assumed", pct(s.training.goodput), "", predicted ? "not used: goodput is predicted" : "used",
             predicted ? ui.pal.muted : 0);
  result_row(ui, "Goodput predicted (layout)", pct(r.goodput_predicted), "training.reliability.goodput_predicted",
             predicted ? "used" : "not used: choose Predicted under Reliability & cost", predicted ? ui.pal.good : 0);
  if (predicted && !e.goodput_used.empty()) {
    std::string used;
    for (size_t i = 0; i < e.goodput_used.size(); ++i) used += (i ? " / " : "") + pct(e.goodput_used[i]);
    result_row(ui, "Goodput used per MFU point", used, "", "on each MFU point's cluster for the schedule");
  }
  result_row(ui, "Failures per device-day", fmt::number(r.failures_per_device_day), "",
             q.rates_given ? "given" : "measured on " + q.rates.basis + (q.rates_fallback ? " (no published rate for this chip)" : ""));
  result_row(ui, "Job MTBF", fmt::seconds(r.job_mtbf_s), "training.reliability.job_mtbf_s", "unexpected failures only");
  result_row(ui, "Interruptions over the run", fmt::count(std::round(r.expected_interruptions)),
             "training.reliability.expected_interruptions", "over " + fmt::number(r.wall_days) + " days on the layout");
  result_row(ui, "Checkpoint size", fmt::bytes(r.checkpoint_bytes), "training.reliability.checkpoint_bytes",
             "weights + optimizer state");
  result_row(ui, "Checkpoint write", fmt::seconds(r.checkpoint_write_s), "training.reliability.checkpoint_write_s",
             "at " + fmt::bytes_per_s(s.training.checkpoint_bytes_per_s));
  result_row(ui, "Training paused per checkpoint", fmt::seconds(r.checkpoint_blocking_s), "",
             std::string(sizer::to_string(q.checkpoint)) + " checkpointing");
  const bool at_optimum = q.checkpoint_interval_s <= 0;
  result_row(ui, "Checkpoint interval", fmt::seconds(r.checkpoint_interval_s), "training.reliability.checkpoint_interval_s",
             at_optimum ? "the optimum (Daly)" : "given; the optimum is " + fmt::seconds(r.optimal_interval_s));
  result_row(ui, "Restart", fmt::seconds(r.restart_s), "training.reliability.restart_s", "requeue + reload + warm-up");
  result_row(ui, "Hot spares", fmt::count(r.spare_domains) + " domains", "",
             fmt::count(q.failure_domain_devices) + " devices each" + (q.spare_domains < 0 ? ", auto" : ""));
  result_row(ui, "Extra days from failures", fmt::number(r.extra_days) + " days", "",
             fmt::number(r.wall_days) + " wall against " + fmt::number(r.useful_days) + " useful", r.extra_days > 0 ? ui.pal.warn : 0);
  result_row(ui, "Lost device-hours", fmt::count(std::round(r.lost_device_hours)) + " h", "training.reliability.lost_device_hours");
  if (s.training.price.usd_per_device_hour > 0) {
    result_row(ui, "Extra cost", fmt::usd(r.extra_cost_usd), "", "lost and spare device-hours at the rental price");
  }
  end_results();
}

void reliability_charts(Ui& ui) {
  const OpsCharts& c = ui.state.view.ops;
  const auto& r = ui.est().reliability;
  const float h = chart_height(ui);
  ImGui::PushFont(ui.fonts.strong);
  ImGui::TextUnformatted("Goodput against checkpoint interval");
  ImGui::PopFont();
  caption(ui, "Too often wastes time writing; too rarely loses more work per failure. The optimum is marked.");
  goodput_interval_chart(ui, c.by_interval, r.optimal_interval_s, r.checkpoint_interval_s, h);
  ImGui::Spacing();
  ImGui::PushFont(ui.fonts.strong);
  ImGui::TextUnformatted("Goodput against cluster size");
  ImGui::PopFont();
  caption(ui, "More devices fail more often: at the optimal interval for each size, the layout's size marked.");
  goodput_devices_chart(ui, c.by_devices, r.job_devices, h);
}

// [SECTION] Storage check
void storage_section(Ui& ui) {
  const sizer::Scenario& s = ui.sc();
  const auto& g = ui.est().storage;
  const auto& in = s.training.storage;
  section_title(ui, "Storage check", "Capacity and bandwidth the run needs, against the scenario's storage.");
  if (!begin_results(ui, "storage", "Needed")) return;
  result_row(ui, "Checkpoints kept", fmt::bytes(g.checkpoint_capacity_bytes), "training.storage.checkpoint_capacity_bytes",
             fmt::count(in.retained_checkpoints) + " retained");
  result_row(ui, "Training data", fmt::bytes(g.dataset_bytes), "training.storage.dataset_bytes",
             plain(in.bytes_per_token) + " B per token" + (in.repeat != 1 ? ", " + plain(in.repeat) + " epochs" : ""));
  result_row(ui, "Capacity in total", fmt::bytes(g.total_capacity_bytes), "",
             storage_note(g.capacity_verdict, fmt::bytes(in.capacity_bytes), "storage capacity"),
             storage_color(ui, g.capacity_verdict));
  result_row(ui, "Write bandwidth", fmt::bytes_per_s(g.write_bytes_per_s_needed), "training.storage.write_bytes_per_s_needed",
             storage_note(g.write_verdict, fmt::bytes_per_s(s.training.checkpoint_bytes_per_s), "write bandwidth") +
                 " (checkpoints under " + pct(in.overhead_target) + " of the time)",
             storage_color(ui, g.write_verdict));
  result_row(ui, "Read bandwidth", fmt::bytes_per_s(g.read_bytes_per_s_needed), "training.storage.read_bytes_per_s_needed",
             g.read_verdict == "not_given" ? std::string("not given (training.storage.read_bytes_per_s in a scenario file)")
                                           : storage_note(g.read_verdict, fmt::bytes_per_s(in.read_bytes_per_s), "read bandwidth"),
             storage_color(ui, g.read_verdict));
  end_results();
}

// [SECTION] Owning against renting
void ownership_section(Ui& ui) {
  const sizer::Scenario& s = ui.sc();
  const sizer::Estimate& e = ui.est();
  const auto& o = e.ownership;
  section_title(ui, "Owning against renting", "Buying the devices: capital over the depreciation years, power, "
                                              "facility and operations, every hour of the year.");
  if (!o.known) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.warn);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(("No purchase price is bundled for " + s.device.name +
                            " (no public system price). Enter a purchase price per device under Reliability & cost "
                            "in the inputs (ownership.usd_per_device) to compare owning with renting.").c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
    return;
  }
  const auto& own = s.ownership;
  if (begin_grid(ui, "own_grid")) {
    if (begin_results(ui, "owned")) {
      result_row(ui, "Owned, per device-hour", fmt::usd(o.usd_per_device_hour_owned), "ownership.usd_per_device_hour_owned",
                 fmt::usd(o.capex_usd_per_device) + " per device over " + plain(own.depreciation_years) + " years");
      result_row(ui, "   capital", fmt::usd(o.capital_usd_per_hour), "", own.usd_given ? "your price" : own.capital.id);
      result_row(ui, "   power", fmt::usd(o.power_usd_per_hour), "", "$" + plain(own.usd_per_kwh) + "/kWh, PUE " + plain(s.power.pue));
      result_row(ui, "   facility", fmt::usd(o.facility_usd_per_hour), "", "$" + plain(own.colo_usd_per_kw_month) + "/kW-month");
      result_row(ui, "   operations", fmt::usd(o.ops_usd_per_hour), "", pct(own.ops_fraction_per_year) + " of capex a year");
      if (s.training.price.usd_per_device_hour > 0) {
        result_row(ui, "Break-even utilisation", pct(o.breakeven_utilisation), "ownership.breakeven_utilisation",
                   "against " + s.training.price.provider + " at $" + plain(s.training.price.usd_per_device_hour) + "/h");
      }
      result_row(ui, "Training run, owned", span(o.training_cost_owned_usd, fmt::usd), "ownership.training_cost_owned_usd",
                 e.compute.cluster_cost_usd.empty() ? std::string("no rental price")
                                                    : "rented: " + span(e.compute.cluster_cost_usd, fmt::usd));
      if (o.serving_cost_per_million_tokens_owned_usd > 0) {
        result_row(ui, "Serving per M tokens, owned", fmt::usd(o.serving_cost_per_million_tokens_owned_usd),
                   "ownership.serving_cost_per_million_tokens_owned_usd",
                   e.serving.cost_per_million_tokens_usd > 0 ? "rented: " + fmt::usd(e.serving.cost_per_million_tokens_usd)
                                                             : std::string("no rental price"));
      }
      end_results();
    }
    per_mfu_table(ui, "own_per_mfu", {{"Cluster owned", &o.training_cost_owned_usd, usd_text, "ownership.training_cost_owned_usd"},
                                      {"Cluster rented", &e.compute.cluster_cost_usd, usd_text, "training.compute.cluster_cost_usd"}});
    next_cell();
    ImGui::PushFont(ui.fonts.strong);
    ImGui::TextUnformatted("Break-even: a device-year owned against rented");
    ImGui::PopFont();
    caption(ui, "Owning costs the same at any use; renting grows with the hours used. Where a rental line crosses the "
                "owned line is that offer's break-even utilisation.");
    breakeven_chart(ui, o, chart_height(ui));
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp |
                                  ImGuiTableFlags_PadOuterX;
    if (!o.offers.empty() && ImGui::BeginTable("offers", 3, flags)) {
      ImGui::TableSetupColumn("Offer", ImGuiTableColumnFlags_WidthStretch, 0.5f);
      ImGui::TableSetupColumn("Rent", ImGuiTableColumnFlags_WidthStretch, 0.2f);
      ImGui::TableSetupColumn("Break-even", ImGuiTableColumnFlags_WidthStretch, 0.3f);
      ImGui::PushFont(ui.fonts.strong);
      ImGui::TableHeadersRow();
      ImGui::PopFont();
      for (size_t i = 0; i < o.offers.size(); ++i) {
        const auto& b = o.offers[i];
        ImGui::PushID(static_cast<int>(i));
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted((b.provider + " " + humanise(b.offer_kind)).c_str());
        ImGui::TableNextColumn();
        value_text(ui, "$" + plain(b.usd_per_device_hour) + "/h", "");
        ImGui::TableNextColumn();
        const bool never = b.breakeven_utilisation > 1;
        value_text(ui, never ? "renting is cheaper" : pct(b.breakeven_utilisation), "", true, never ? ui.pal.muted : 0);
        ImGui::PopID();
      }
      ImGui::EndTable();
    }
    end_grid();
  }
}

// [SECTION] Carbon
void carbon_section(Ui& ui) {
  const sizer::Scenario& s = ui.sc();
  const auto& c = ui.est().carbon;
  section_title(ui, "Carbon", "Operational emissions of the cluster over the schedule and of serving, at the grid's intensity.");
  if (begin_results(ui, "carbon")) {
    result_row(ui, "Grid", plain(c.g_co2e_per_kwh) + " g CO₂e/kWh", "",
               s.carbon.grid.name + (s.carbon.grid.year > 0 ? ", " + plain(s.carbon.grid.year) : ""));
    if (c.serving_g_co2e_per_million_tokens > 0) {
      result_row(ui, "Serving, per M tokens", fmt::count(std::round(c.serving_g_co2e_per_million_tokens)) + " g CO₂e",
                 "carbon.serving_g_co2e_per_million_tokens");
    }
    end_results();
  }
  if (!(s.power.system_w_per_device > 0) || !(ui.est().compute.dense_peak_flops > 0)) {
    caption(ui, "No system power is known for this device, so no training emissions.");
    return;
  }
  const bool embodied = s.ownership.capital.embodied_kg_co2e_per_device > 0;  // a published figure
  per_mfu_table(ui, "carbon_per_mfu", {{"Operational", &c.training_kg_co2e, tonnes_text, "carbon.training_kg_co2e"},
                                       {"Embodied", embodied ? &c.training_embodied_kg_co2e : nullptr, tonnes_text, nullptr}});
  caption(ui, !embodied
                  ? std::string("No published embodied (manufacturing) figure for this system; a scenario file can give "
                                "carbon.embodied_kg_co2e_per_device.")
                  : "Embodied: the manufacturing emissions over " + plain(s.carbon.lifetime_years) +
                        " years of service, the schedule's share.");
}

// [SECTION] Uncertainty
void uncertainty_section(Ui& ui) {
  const auto& r = ui.est().intervals;
  section_title(ui, "Uncertainty", (fmt::count(r.samples) + " draws of the inputs known to a range (" +
                                    sizer::to_string(ui.sc().uncertainty.distribution) + "); p10, p50 and p90 of each headline.")
                                       .c_str());
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp |
                                ImGuiTableFlags_PadOuterX;
  struct Row {
    const char* label;
    const sizer::Quantiles* q;
    const char* output;
    bool shown;
  };
  const Row rows[] = {{"Devices for the schedule", &r.cluster_devices, "cluster_devices", true},
                      {"Days on the layout", &r.wall_days, "wall_days", true},
                      {"Cluster rental cost", &r.cluster_cost_usd, "cluster_cost_usd", r.has_cost},
                      {"Facility power", &r.facility_power_w, "facility_power_w", r.has_power},
                      {"Cost per M tokens", &r.cost_per_million_tokens_usd, "cost_per_million_tokens_usd", r.has_serving_cost}};
  if (ImGui::BeginTable("quantiles", 4, flags)) {
    ImGui::TableSetupColumn("Headline", ImGuiTableColumnFlags_WidthStretch, 0.34f);
    for (const char* h : {"p10", "p50", "p90"}) ImGui::TableSetupColumn(h, ImGuiTableColumnFlags_WidthStretch, 0.22f);
    ImGui::PushFont(ui.fonts.strong);
    ImGui::TableHeadersRow();
    ImGui::PopFont();
    for (const Row& row : rows) {
      if (!row.shown) continue;
      ImGui::PushID(row.label);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(row.label);
      for (double v : {row.q->p10, row.q->p50, row.q->p90}) {
        ImGui::TableNextColumn();
        value_text(ui, interval_output_value(row.output, v), "", true, std::isfinite(v) ? 0 : ui.pal.bad);
      }
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  if (r.infeasible_share > 0) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.bad);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted((pct(r.infeasible_share) + " of the draws are out of reach: no cluster meets the schedule "
                            "(failures outpace checkpoints).").c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
  if (r.sensitivity.empty()) {
    caption(ui, "Give a range (MFU, price) under Reliability & cost to see which input moves the answer most.");
    return;
  }
  ImGui::Spacing();
  ImGui::PushFont(ui.fonts.strong);
  ImGui::TextUnformatted(("What moves the " + interval_output_label(r.sensitivity_output) + " most").c_str());
  ImGui::PopFont();
  caption(ui, "Each input alone at its low and high end, the others at their central value; largest swing first.");
  tornado_chart(ui, r);
}

}  // namespace

void ops_panel(Ui& ui) {
  OpsCharts& c = ui.state.view.ops;
  if (c.revision != ui.state.computed.revision) {
    c.by_interval = sizer::goodput_vs_interval(ui.sc(), ui.est(), 64);
    c.by_devices = sizer::goodput_vs_devices(ui.sc(), ui.est(), 48);
    c.revision = ui.state.computed.revision;
  }
  if (begin_grid(ui, "ops_reliability")) {
    reliability_section(ui);
    next_cell();
    reliability_charts(ui);
    end_grid();
  }
  ImGui::Spacing();
  if (begin_grid(ui, "ops_storage_carbon")) {
    storage_section(ui);
    next_cell();
    carbon_section(ui);
    end_grid();
  }
  ImGui::Spacing();
  ownership_section(ui);
  ImGui::Spacing();
  uncertainty_section(ui);
  ImGui::Dummy(ImVec2(0, ui.px(8)));
}

}  // namespace sizer_web
