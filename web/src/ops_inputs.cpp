// The inputs panel's "Reliability & cost" block (see ops_inputs.h).
//
// [SECTION] Two-choice switches and [low, high] ranges
// [SECTION] The block
#include "ops_inputs.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "input_fields.h"
#include "scenario_edit.h"

namespace sizer_web {
namespace {

using nlohmann::json;

// [SECTION] Two-choice switches and ranges
// Radio buttons for a string stored at `path` (rects "radio:<path>=<value>"); the first choice is
// the default: picking it clears the input when `clear_first`.
void radio_choice(Ui& ui, const char* label, const char* path, const std::vector<Choice>& choices, const char* help,
                  bool clear_first = false) {
  ImGui::PushID(path);
  field_label(ui, label, help);
  ImGui::SameLine(label_width(ui));
  const std::string current = input_string(ui.state, path);
  size_t picked = 0;  // the first choice unless another matches (a number in training.goodput: "assumed")
  for (size_t i = 1; i < choices.size(); ++i) picked = choices[i].value == current ? i : picked;
  if (!choices.empty()) note_input(ui, path, label, choices[picked].label);
  for (size_t i = 0; i < choices.size(); ++i) {
    const Choice& c = choices[i];
    if (i > 0) same_line_or_wrap(ImGui::CalcTextSize(c.label.c_str()).x + ImGui::GetFrameHeight() * 1.5f);
    const bool on = i == picked;
    if (ImGui::RadioButton(c.label.c_str(), on) && !on) {
      if (i == 0 && clear_first) clear_input(ui.state, path);
      else set_input(ui.state, path, c.value);
    }
    note_rect(ui, std::string("radio:") + path + "=" + c.value);
    focus_ring(ui, std::string(path) + "=" + c.value);
  }
  field_issues(ui, path);
  ImGui::PopID();
}

// A [low, high] range stored at `path` as a two-number array, shown ÷ `scale`; `lo`, `hi`: what is
// shown when the scenario gives none (the core's default). Each end commits like number_field and
// writes the whole range, the other end as shown (rects "input:<path>[0]" and "[1]").
void range_field(Ui& ui, const char* label, const char* path, double scale, const char* unit, double lo, double hi,
                 const char* help) {
  ImGui::PushID(path);
  const json* v = input_value(ui.state, path);
  if (v && v->is_array() && v->size() == 2 && (*v)[0].is_number() && (*v)[1].is_number()) {
    lo = (*v)[0].get<double>(), hi = (*v)[1].get<double>();
  }
  field_label(ui, label, help);
  ImGui::SameLine(label_width(ui));
  const float unit_w = ImGui::CalcTextSize(unit).x + ImGui::GetStyle().ItemSpacing.x;
  const float dash_w = ImGui::CalcTextSize("–").x + ImGui::GetStyle().ItemSpacing.x * 2;
  const float w = std::max(ui.px(48), (ImGui::GetContentRegionAvail().x - unit_w - dash_w) / 2);
  const bool bad = has_error(ui, path);
  double ends[2] = {lo, hi};
  char applied[64];
  std::snprintf(applied, sizeof applied, "%.6g – %.6g", lo / scale, hi / scale);
  note_input(ui, path, label, applied, unit);
  for (int i = 0; i < 2; ++i) {
    ImGui::PushID(i);
    if (i == 1) {
      ImGui::SameLine();
      ImGui::TextUnformatted("–");
      ImGui::SameLine();
    }
    const std::string end_path = std::string(path) + "[" + std::to_string(i) + "]";
    double shown = ends[i] / scale;
    ImGui::SetNextItemWidth(w);
    if (number_input(ui, FieldPlace::inputs_column, end_path, label, &shown, "%.6g", bad)) {
      json range = json::array({ends[0], ends[1]});
      range[i] = shown * scale;
      set_input(ui.state, path, range);
    }
    ImGui::PopID();
  }
  ImGui::SameLine();
  ImGui::TextDisabled("%s", unit);
  pending_caption(ui, std::string(path) + "[0]");
  pending_caption(ui, std::string(path) + "[1]");
  const FieldUnit field{label, scale, unit};
  field_issues(ui, path, &field);
  ImGui::PopID();
}

void subheading(Ui& ui, const char* text) {
  ImGui::Spacing();
  ImGui::PushFont(ui.fonts.small);
  ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.muted);
  ImGui::TextUnformatted(text);
  ImGui::PopStyleColor();
  ImGui::PopFont();
}

}  // namespace

// [SECTION] The block
void ops_block(Ui& ui) {
  if (!block_header(ui, "Reliability & cost")) return;
  const sizer::Scenario& s = ui.sc();
  const sizer::Estimate& e = ui.est();
  caption(ui, "Failures, checkpoints and storage; owning the cluster; carbon; ranges for the p10–p90 intervals. "
              "Results in the Reliability & cost view.");
  radio_choice(ui, "Goodput", "training.goodput", {{"assumed", "Assumed"}, {"predicted", "Predicted"}},
               "Assumed: the Goodput field under Training (90% by default). Predicted: from failure rates per device-day, "
               "checkpoint time and interval (Young/Daly) and restart time.", true);

  subheading(ui, "Checkpoints and restarts");
  radio_choice(ui, "Checkpoint", "training.reliability.checkpoint", {{"async", "Async"}, {"sync", "Sync"}},
               "Async: training pauses only to copy the state to host memory, then writes in the background. "
               "Sync: training waits for the write to storage.");
  number_field(ui, {"training.reliability.requeue_s", "Requeue", 60, "min", false,
                    "Detecting a failure, draining and rescheduling the job."});
  number_field(ui, {"training.reliability.warmup_s", "Warm-up", 60, "min", false,
                    "Re-initialising communicators, compiling and the first steps after a restart."});
  const bool spares_set = is_set(ui.state, "training.reliability.spare_domains");
  number_field(ui, {"training.reliability.spare_domains", "Spare domains", 1, "", true,
                    "Hot spare failure domains (servers or tray slices) kept ready. Auto: enough for 99.9% of "
                    "the failures under repair at once.",
                    spares_set ? nullptr : "auto", e.reliability.spare_domains});
  if (spares_set) {
    ImGui::SameLine();
    if (ImGui::SmallButton("auto")) clear_input(ui.state, "training.reliability.spare_domains");
    note_rect(ui, "button:spares-auto");
  }

  subheading(ui, "Storage");
  const bool capacity_set = s.training.storage.capacity_bytes > 0;
  number_field(ui, {"training.storage.capacity_bytes", "Capacity", 1e15, "PB", false,
                    "The cluster's storage. Checked against the retained checkpoints plus the training data.",
                    capacity_set ? nullptr : "(not given)"});
  number_field(ui, {"training.checkpoint_bytes_per_s", "Write bandwidth", 1e12, "TB/s", false,
                    "Aggregate storage write bandwidth: sets the checkpoint write time."});

  subheading(ui, "Owning the cluster");
  const bool known = s.ownership.capital_known;
  number_field(ui, {"ownership.usd_per_device", "Purchase price", 1, "$ per device", false,
                    "System price divided by its devices (network and storage are added on top as a share).",
                    known ? nullptr : "(none bundled)", s.ownership.capital.usd_per_device});
  number_field(ui, {"ownership.depreciation_years", "Depreciation", 1, "years", false, nullptr});
  number_field(ui, {"ownership.usd_per_kwh", "Electricity", 1, "$/kWh", false, nullptr});
  number_field(ui, {"ownership.colo_usd_per_kw_month", "Colocation", 1, "$/kW-month", false,
                    "Data-centre space, power and cooling capacity, per kW of IT load per month."});

  subheading(ui, "Carbon");
  std::vector<Choice> grids;
  for (const sizer::GridIntensity& g : ui.state.share.catalog.grids) {
    grids.push_back({g.id, g.name + " · " + plain(g.g_co2e_per_kwh) + " g/kWh", true, g.user_supplied});
  }
  const std::string region = input_string(ui.state, "carbon.region");
  const int g = combo_field(ui, "Grid region", "carbon.region", grids, region,
                            "Operational carbon intensity of the grid (location-based, lifecycle g CO2e per kWh).");
  if (g >= 0) {
    set_input(ui.state, "carbon.region", grids[g].value);
    clear_input(ui.state, "carbon.g_co2e_per_kwh");
  }

  subheading(ui, "Uncertainty (p10–p90)");
  const auto& mfu = s.training.mfu;
  const double mfu_lo = mfu.empty() ? 0 : *std::min_element(mfu.begin(), mfu.end());
  const double mfu_hi = mfu.empty() ? 0 : *std::max_element(mfu.begin(), mfu.end());
  range_field(ui, "MFU range", "uncertainty.mfu", 0.01, "%", mfu_lo, mfu_hi,
              "Sampled between low and high; by default the lowest and highest MFU point.");
  if (s.training.price.usd_per_device_hour > 0) {
    const double p = s.training.price.usd_per_device_hour;
    range_field(ui, "Price range", "uncertainty.usd_per_device_hour", 1, "$/h", p, p,
                "The rental price per device-hour, sampled between low and high.");
  }
  radio_choice(ui, "Distribution", "uncertainty.distribution", {{"uniform", "Uniform"}, {"triangular", "Triangular"}},
               "Triangular puts the most weight on the scenario's own value.");
}

}  // namespace sizer_web
