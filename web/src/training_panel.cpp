// The training view (see training_panel.h).
#include "training_panel.h"

#include <string>

#include "sizer/layout/layout_accuracy.h"

namespace sizer_web {
namespace {

namespace fmt = sizer::fmt;

std::string idx(const char* base, size_t i) { return std::string(base) + "[" + std::to_string(i) + "]"; }

void right(Ui& ui, const std::string& text, const std::string& path) { value_text(ui, text, path, true); }

void memory_section(Ui& ui) {
  const auto& m = ui.est().memory;
  const auto& s = ui.sc();
  const auto& l = s.training.layout;
  section_title(ui, "Memory", "Training state (weights, gradients, optimizer) and activations, Part 1 of the method.");
  if (!begin_results(ui, "memory")) return;
  result_row(ui, "Bytes per parameter", plain(m.bytes_per_param) + " B", "training.memory.state_bytes",
             sizer::to_string(s.training.optimizer));
  result_row(ui, "Training state", fmt::bytes(m.state_bytes), "training.memory.state_bytes");
  result_row(ui, "Minimum devices (100% HBM)", fmt::count(m.min_devices_full), "training.memory.min_devices_full");
  result_row(ui, "Minimum devices (usable HBM)", fmt::count(m.min_devices_usable), "training.memory.min_devices_usable",
             pct(s.training.hbm_usable) + " of " + fmt::bytes(s.device.memory_bytes) + " per device");
  result_row(ui, "HBM of one scale-up domain", fmt::bytes(m.scale_up_domain_bytes), "",
             m.fits_one_domain ? "the state fits in one domain" : "the state does not fit in one domain",
             m.fits_one_domain ? ui.pal.good : ui.pal.warn);
  result_row(ui, "Activations per layer (no parallelism)", fmt::bytes(m.activation_bytes_no_recompute_per_layer), "",
             "s·" "b·h·(34 + 5as/h), no recompute");
  result_row(ui, "Activations per layer (layout)", fmt::bytes(m.activation_bytes_per_layer),
             "training.memory.activation_bytes_per_layer",
             "TP " + plain(l.tp) + ", " + sizer::to_string(l.recompute) + " recompute");
  result_row(ui, "Activations, first pipeline stage", fmt::bytes(m.activation_bytes_first_stage),
             "training.memory.activation_bytes_first_stage");
  result_row(ui, "State per device", fmt::bytes(m.state_bytes_per_device), "training.memory.state_bytes_per_device",
             "TP×PP = " + fmt::count(l.tp * l.pp) + ", ZeRO " + std::to_string(s.training.zero_stage));
  result_row(ui, "Per device in total", fmt::bytes(m.device_total_bytes), "",
             m.fits_device ? "fits in " + fmt::bytes(s.device.memory_bytes * s.training.hbm_usable) + " usable"
                           : "does NOT fit in " + fmt::bytes(s.device.memory_bytes * s.training.hbm_usable) + " usable",
             m.fits_device ? ui.pal.good : ui.pal.bad);
  end_results();
}

void compute_head(Ui& ui) {
  const auto& c = ui.est().compute;
  const auto& s = ui.sc();
  section_title(ui, "Compute", "C = 6·N·" "D at the training precision's dense peak.");
  if (begin_results(ui, "compute_head")) {
    result_row(ui, "Training compute", fmt::flops(c.flops), "training.compute.flops");
    result_row(ui, "Tokens", fmt::count(c.tokens), "", plain(c.tokens_per_param) + " per parameter, " +
                                                          plain(c.tokens_per_active_param) + " per active parameter");
    result_row(ui, "Dense peak per device", fmt::flops_per_s(c.dense_peak_flops), "",
               std::string(sizer::to_string(s.training.precision)) + " dense (no 2:4 sparsity)");
    // With a written layout the layout model's prediction is the headline and the assumed-MFU
    // figure the seed's method (one answer per question, both labelled).
    const auto& lp = ui.est().layout;
    if (lp.has) {
      const sizer::LayoutAccuracy& a = lp.accuracy;
      result_row(ui, "Step time, predicted for the layout", fmt::seconds(lp.step_s), "training.layout_prediction.step_s",
                 fmt::count(lp.devices) + " devices, predicted MFU " + pct(lp.mfu) + "; " + sizer::accuracy_phrase(a) +
                     (lp.fits ? "" : "; does not fit: " + fmt::bytes(lp.device_memory_bytes) + " per device"));
      // The planner's notes on the same layout (assumed efficiencies, regimes where published runs
      // were far slower than predicted), so the headline is not read without them.
      if (!lp.notes.empty()) {
        std::string all;
        for (const std::string& n : lp.notes) all += (all.empty() ? "• " : "\n• ") + n;
        result_row(ui, "Notes on the layout", fmt::count(static_cast<double>(lp.notes.size())), "", all);
      }
    }
    result_row(ui, lp.has ? "Step time at the assumed MFU (the seed's method)" : "Step time at the assumed MFU",
               fmt::seconds(ui.est().comms.step_s), "training.comms.step_s",
               fmt::count(s.training.layout.devices()) + " devices at " + pct(ui.est().comms.step_mfu) + " MFU");
    result_row(ui, "Checkpoint write", fmt::seconds(ui.est().comms.checkpoint_s), "training.comms.checkpoint_s");
    end_results();
  }
}

void compute_section(Ui& ui) {
  const auto& c = ui.est().compute;
  const auto& p = ui.est().power;
  const auto& s = ui.sc();
  section_title(ui, "Cluster, cost and power per MFU point",
                ("Device-hours, cost and the cluster for a " + plain(s.training.days) + "-day schedule at " +
                 pct(s.training.goodput) + " goodput. Hover a number for its working.").c_str());
  const bool priced = !c.cost_usd.empty();
  const bool powered = s.power.system_w_per_device > 0 && !p.facility_power_w.empty();
  const int cols = 5 + (priced ? 2 : 0) + (powered ? 4 : 0);
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp |
                                ImGuiTableFlags_PadOuterX;
  if (!ImGui::BeginTable("per_mfu", cols, flags)) return;
  ImGui::TableSetupColumn("MFU");
  ImGui::TableSetupColumn("Device-hours");
  if (priced) {
    ImGui::TableSetupColumn("Cost (useful h)");
    ImGui::TableSetupColumn("Cluster cost");
  }
  ImGui::TableSetupColumn("Cluster devices");
  ImGui::TableSetupColumn("Scale-up domains");
  ImGui::TableSetupColumn("Days on layout");
  if (powered) {
    ImGui::TableSetupColumn("IT power");
    ImGui::TableSetupColumn("Facility power");
    ImGui::TableSetupColumn("Energy (useful h)");
    ImGui::TableSetupColumn("Cluster energy");
  }
  ImGui::PushFont(ui.fonts.strong);
  ImGui::TableHeadersRow();
  ImGui::PopFont();
  for (size_t i = 0; i < c.mfu.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    right(ui, pct(c.mfu[i]), "");
    ImGui::TableNextColumn();
    right(ui, fmt::hours(c.device_hours[i]), idx("training.compute.device_hours", i));
    if (priced) {
      ImGui::TableNextColumn();
      right(ui, fmt::usd(c.cost_usd[i]), idx("training.compute.cost_usd", i));
      ImGui::TableNextColumn();
      right(ui, reach_text(c.cluster_cost_usd[i], fmt::usd), idx("training.compute.cluster_cost_usd", i));
    }
    ImGui::TableNextColumn();
    right(ui, reach_text(c.cluster_devices[i], fmt::count), idx("training.compute.cluster_devices", i));
    ImGui::TableNextColumn();
    right(ui, reach_text(c.scale_up_domains[i], fmt::count), idx("training.compute.scale_up_domains", i));
    ImGui::TableNextColumn();
    right(ui, plain(c.wall_days_on_layout[i]), "");
    if (powered) {
      ImGui::TableNextColumn();
      right(ui, fmt::watts(p.it_power_w[i]), idx("training.power.it_power_w", i));
      ImGui::TableNextColumn();
      right(ui, fmt::watts(p.facility_power_w[i]), idx("training.power.facility_power_w", i));
      ImGui::TableNextColumn();
      right(ui, fmt::energy_wh(p.energy_wh[i]), idx("training.power.energy_wh", i));
      ImGui::TableNextColumn();
      right(ui, fmt::energy_wh(p.cluster_energy_wh[i]), idx("training.power.cluster_energy_wh", i));
    }
    ImGui::PopID();
  }
  ImGui::EndTable();
  const auto& pr = s.training.price;
  if (priced) {
    caption(ui, "Price: " + pr.provider + ", " + pr.offer + " (" + pr.offer_kind + (pr.region.empty() ? "" : ", " + pr.region) +
                    "), $" + plain(pr.usd_per_device_hour) + " per device-hour, checked " + pr.date_checked +
                    ". Cost (useful h) counts the device-hours of useful work, as the seed does; cluster cost rents the "
                    "recommended cluster for all " + plain(s.training.days) + " days, the time lost to restarts included. "
                    "Estimates from public prices, not quotes.");
  } else {
    caption(ui, s.device.price_note.empty() ? "No price offer for " + s.device.id + ": pick one or enter a rate in Inputs."
                                            : "No public price for " + s.device.id + ": " + s.device.price_note);
  }
  caption(ui, "Days on layout: the run on the layout's " + fmt::count(s.training.layout.devices()) +
                  " devices at the same goodput. Power: " +
                  (powered ? fmt::watts(s.power.system_w_per_device) + " per device (system level) × PUE " + plain(s.power.pue)
                           : std::string("no system power known for this device")) + ".");
}

}  // namespace

void training_panel(Ui& ui) {
  if (begin_grid(ui, "training_grid")) {
    memory_section(ui);
    next_cell();
    compute_head(ui);
    end_grid();
  }
  ImGui::Spacing();
  ImGui::Spacing();
  compute_section(ui);
}

}  // namespace sizer_web
