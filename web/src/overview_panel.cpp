// The overview panel (see overview_panel.h).
#include "overview_panel.h"

#include <algorithm>
#include <cmath>

#include "working_tooltip.h"

namespace sizer_web {
namespace {

namespace fmt = sizer::fmt;

struct Card {
  const char* title;
  std::string value;
  std::string path;  // working shown for the value
  std::string detail;
  ImU32 accent = 0;
  std::string interval = std::string();  // "p10–p90: X – Y" (intervals of sizer/ops/uncertainty.h), or empty
  bool error = false;                    // the value is an error (in red), not a result
};

// "p10–p90: 32,676 – 43,509" for a headline's sampled interval; empty when it is a point.
std::string interval_line(const sizer::Quantiles& q, std::string (*f)(double)) {
  auto shown = [&](double v) { return std::isfinite(v) ? f(v) : std::string("out of reach"); };
  const std::string lo = shown(q.p10), hi = shown(q.p90);
  if (lo == hi) return std::string();
  return "p10–p90: " + range_text(lo, hi);
}

std::string devices_up(double n) { return fmt::count(std::ceil(n)); }

double vmin(const std::vector<double>& v) { return v.empty() ? 0 : *std::min_element(v.begin(), v.end()); }
double vmax(const std::vector<double>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }

// "Out of reach at 38% MFU: …" when the schedule is not met at some MFU points (the cards' values
// then range over the others); "" when every point is met.
std::string out_of_reach_note(const sizer::Scenario& s, const sizer::TrainingCompute& c) {
  const std::string at = sizer::mfu_out_of_reach(c);
  if (at.empty()) return "";
  return "Out of reach at " + at + " MFU: no cluster meets " + plain(s.training.days) +
         " days at the predicted goodput; ";
}

std::string mfu_span(const std::vector<double>& mfu) {
  return range_text(pct(vmin(mfu)), pct(vmax(mfu))) + " MFU";
}

void draw_card(Ui& ui, const Card& c, float height) {
  ImGui::PushID(c.title);
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, ImVec2(p0.x + w, p0.y + height), ui.pal.card, ui.px(8));
  dl->AddRect(p0, ImVec2(p0.x + w, p0.y + height), ui.pal.card_border, ui.px(8));
  dl->AddRectFilled(ImVec2(p0.x, p0.y + ui.px(10)), ImVec2(p0.x + ui.px(3), p0.y + height - ui.px(10)),
                    c.accent ? c.accent : ui.pal.accent, ui.px(2));
  const float pad = ui.px(14);
  ImGui::SetCursorScreenPos(ImVec2(p0.x + pad, p0.y + ui.px(10)));
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(p0.x + w - pad - ImGui::GetWindowPos().x);
  ImGui::PushFont(ui.fonts.small);
  ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.muted);
  ImGui::TextUnformatted(c.title);
  ImGui::PopStyleColor();
  ImGui::PopFont();
  // The headline number in the big font, with its working on hover.
  ImGui::PushFont(ui.fonts.big);
  if (c.error) ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.bad);
  ImGui::TextUnformatted(c.value.c_str());
  note_text(ui, std::string(c.error ? "card-error:" : "card:") + c.title, c.value);
  if (c.error) ImGui::PopStyleColor();
  ImGui::PopFont();
  const sizer::Working* wk = find_working(ui.est(), c.path);
  if (wk && ImGui::IsItemHovered()) {
    ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    working_tooltip(ui, *wk);
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ui.state.view.pinned_working = wk->path;
  }
  ImGui::PushFont(ui.fonts.small);
  if (!c.interval.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.accent);
    ImGui::TextUnformatted(c.interval.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::PushStyleColor(ImGuiCol_Text, c.error ? ui.pal.bad : ui.pal.muted);
  ImGui::TextUnformatted(c.detail.c_str());
  note_text(ui, std::string("card-detail:") + c.title, c.detail);
  ImGui::PopStyleColor();
  ImGui::PopFont();
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  ImGui::SetCursorScreenPos(p0);
  ImGui::Dummy(ImVec2(w, height));
  note_rect(ui, std::string("card-box:") + c.title);
  ImGui::PopID();
}

// Height a card needs at width `w`: its four parts wrapped as draw_card wraps them (a headline
// range can take two lines on a phone), with the same padding above and below.
float card_height(Ui& ui, const Card& c, float w) {
  const float wrap = w - 2 * ui.px(14);
  const float gap = ImGui::GetStyle().ItemSpacing.y;
  auto height = [&](ImFont* font, const char* text) {
    ImGui::PushFont(font);
    const float h = ImGui::CalcTextSize(text, nullptr, false, wrap).y;
    ImGui::PopFont();
    return h;
  };
  float h = height(ui.fonts.small, c.title) + gap + height(ui.fonts.big, c.value.c_str()) + gap;
  if (!c.interval.empty()) h += height(ui.fonts.small, c.interval.c_str()) + gap;
  return h + height(ui.fonts.small, c.detail.c_str()) + 2 * ui.px(10);
}

std::vector<Card> training_cards(Ui& ui) {
  const sizer::Estimate& e = ui.est();
  const sizer::Scenario& s = ui.sc();
  const auto& c = e.compute;
  std::vector<Card> cards;
  const std::string out = out_of_reach_note(s, c);
  const std::string goodput =
      s.training.reliability.predict_goodput ? std::string("predicted goodput") : pct(s.training.goodput) + " goodput";
  auto span = [](const std::vector<double>& v, std::string (*f)(double)) { return reach_span(v, f, "none", false); };
  cards.push_back({"Devices to hold the training state", fmt::count(e.memory.min_devices_usable),
                   "training.memory.min_devices_usable",
                   fmt::bytes(e.memory.state_bytes) + " of state at " + pct(s.training.hbm_usable) +
                       " of " + fmt::bytes(s.device.memory_bytes) + "; " + fmt::count(e.memory.min_devices_full) +
                       " at 100%"});
  cards.push_back({"Devices for the schedule", span(c.cluster_devices, fmt::count),
                   "training.compute.cluster_devices",
                   out + plain(s.training.days) + " days at " + mfu_span(c.mfu) + ", " + goodput + "; " +
                       range_text(fmt::hours(vmin(c.device_hours)), fmt::hours(vmax(c.device_hours))) + " device-hours"});
  if (!c.cost_usd.empty()) {
    const sizer::PriceOffer& p = s.training.price;
    cards.push_back({"Training cost (useful hours)", range_text(fmt::usd(vmin(c.cost_usd)), fmt::usd(vmax(c.cost_usd))),
                     "training.compute.cost_usd",
                     p.provider + " " + humanise(p.offer_kind) + " at $" + plain(p.usd_per_device_hour) + "/h, checked " +
                         p.date_checked});
    cards.push_back({"Cluster rented for the schedule",
                     span(c.cluster_cost_usd, fmt::usd),
                     "training.compute.cluster_cost_usd",
                     out + "the recommended " + span(c.cluster_devices, fmt::count) +
                         " devices × " + plain(s.training.days) + " days × 24 h, idle time at " + goodput +
                         " included"});
  } else {
    const std::string why = s.device.price_note.empty() ? "No price offer for this device: pick one or enter a rate."
                                                        : "No public price: " + s.device.price_note;
    cards.push_back({"Training cost", "no price", "", why, ui.pal.faint});
  }
  if (s.power.system_w_per_device > 0 && !e.power.facility_power_w.empty()) {
    cards.push_back({"Facility power", span(e.power.facility_power_w, fmt::watts),
                     "training.power.facility_power_w",
                     out + fmt::watts(s.power.system_w_per_device) + " per device × PUE " + plain(s.power.pue) +
                         "; " + range_text(fmt::energy_wh(vmin(e.power.energy_wh)), fmt::energy_wh(vmax(e.power.energy_wh))) +
                         " in useful hours, " +
                         span(e.power.cluster_energy_wh, fmt::energy_wh) +
                         " for the cluster over the schedule"});
  } else {
    cards.push_back({"Facility power", "unknown", "", "No system power is known for this device.", ui.pal.faint});
  }
  const auto& k = e.carbon;
  if (s.power.system_w_per_device > 0 && c.dense_peak_flops > 0 && !k.training_kg_co2e.empty()) {
    const std::string tonnes = span(k.training_kg_co2e, fmt::tonnes);
    cards.push_back({"Training emissions", tonnes == "out of reach" ? tonnes : tonnes + " t CO₂e",
                     "carbon.training_kg_co2e",
                     out + "the cluster over the schedule on the " + s.carbon.grid.name + " grid, " + plain(k.g_co2e_per_kwh) +
                         " g CO₂e/kWh (operational)",
                     ui.pal.good});
  } else {
    cards.push_back({"Training emissions", "unknown", "", "No system power is known for this device.", ui.pal.faint});
  }
  const auto& q = e.intervals;
  cards[1].interval = interval_line(q.cluster_devices, devices_up);
  if (q.has_cost && cards.size() > 3 && !c.cluster_cost_usd.empty()) cards[3].interval = interval_line(q.cluster_cost_usd, fmt::usd);
  if (q.has_power) cards[cards.size() - 2].interval = interval_line(q.facility_power_w, fmt::watts);
  return cards;
}

std::vector<Card> serving_cards(Ui& ui) {
  const sizer::Estimate& e = ui.est();
  const sizer::Scenario& s = ui.sc();
  std::vector<Card> cards;
  const auto& v = e.serving;
  const std::string footprint = fmt::bytes(v.weight_bytes) + " weights + " + fmt::bytes(v.kv_bytes) + " KV cache";
  if (!v.replica_fits) {  // an undersized replica is an error, never a priced result
    const std::string why = "Replica " + replica_too_small_text(v) + ".";
    cards.push_back({"Serving replica", fmt::count(v.replica_devices) + " devices: too small", "serving.replica_min_devices",
                     footprint + "; " + why, ui.pal.bad, std::string(), true});
  } else {
    cards.push_back({"Serving replica", fmt::count(v.replica_devices) + " devices", "serving.replica_min_devices",
                     footprint + "; " + replica_basis_text(s, v), ui.pal.series[1]});
  }
  cards.push_back({"Decode ceiling per replica", fmt::count(std::round(v.tokens_per_s_per_replica)) + " tok/s",
                   "serving.tokens_per_s_per_replica",
                   fmt::seconds(v.decode_step_s) + " per step, " + v.decode_bound + "-bound; " +
                       fmt::count(std::round(v.tokens_per_s_per_user)) + " tok/s per user",
                   ui.pal.series[1]});
  if (!v.replica_fits) {
    cards.push_back({"Cost per million tokens", "not given", "", "The replica cannot hold the model, so it is not priced.",
                     ui.pal.bad, std::string(), true});
  } else if (v.cost_per_million_tokens_usd > 0) {
    cards.push_back({"Cost per million tokens", fmt::usd(v.cost_per_million_tokens_usd), "serving.cost_per_million_tokens_usd",
                     "at " + pct(s.serving.realised_fraction) + " of the ceiling and " +
                         pct(s.serving.utilisation) + " utilisation",
                     ui.pal.series[1], e.intervals.has_serving_cost ? interval_line(e.intervals.cost_per_million_tokens_usd, fmt::usd)
                                                                    : std::string()});
  } else {
    cards.push_back({"Cost per million tokens", "no price", "",
                     s.device.price_note.empty() ? "No price offer for this device." : "No public price: " + s.device.price_note,
                     ui.pal.faint});
  }
  if (!v.replica_fits) {
    cards.push_back({"Serving fleet", "not given", "", "No fleet of replicas that cannot hold the model.", ui.pal.bad,
                     std::string(), true});
    return cards;
  }
  cards.push_back({"Serving fleet", fmt::count(v.devices_for_demand) + " devices", "serving.replicas_for_demand",
                   fmt::count(v.replicas_for_demand) + " replicas of " + fmt::count(v.replica_devices) + " for " +
                       fmt::count(s.serving.demand_tokens_per_day) + " tokens per day at " + pct(v.realised_share) +
                       " of the ceiling",
                   ui.pal.series[1]});
  return cards;
}

// The method's ten steps (seed post Part 7) with this scenario's values.
void ten_steps(Ui& ui) {
  const sizer::Estimate& e = ui.est();
  const sizer::Scenario& s = ui.sc();
  const auto& c = e.compute;
  const auto& v = e.serving;
  section_title(ui, "The ten steps", "The method of the seed post, Part 7, with this scenario's numbers.");
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp |
                                ImGuiTableFlags_PadOuterX;
  if (!ImGui::BeginTable("ten_steps", 4, flags)) return;
  ImGui::TableSetupColumn("#", ImGuiTableColumnFlags_WidthFixed, ui.px(22));
  ImGui::TableSetupColumn("Step", ImGuiTableColumnFlags_WidthStretch, 0.28f);
  ImGui::TableSetupColumn("Result", ImGuiTableColumnFlags_WidthStretch, 0.24f);
  ImGui::TableSetupColumn("Formula", ImGuiTableColumnFlags_WidthStretch, 0.48f);
  ImGui::PushFont(ui.fonts.strong);
  ImGui::TableHeadersRow();
  ImGui::PopFont();
  const std::string power = s.power.system_w_per_device > 0
      ? reach_span(e.power.facility_power_w, fmt::watts) : "unknown";
  struct Step {
    const char* what;
    std::string value;
    const char* path;
    const char* formula;
  };
  const Step steps[] = {
      {"Parameters", fmt::count(s.model.params) + " / " + fmt::count(s.model.active_params) + " active", "model.params_from_shape",
       "N_total and N_active; 12·L·h² as a check"},
      {"Training memory floor", fmt::count(e.memory.min_devices_usable) + " devices", "training.memory.min_devices_usable",
       "bytes per parameter × N_total ÷ usable HBM per device"},
      {"Training compute", fmt::flops(c.flops), "training.compute.flops", "6 × N_active × D"},
      {"Device-hours", range_text(fmt::hours(vmin(c.device_hours)), fmt::hours(vmax(c.device_hours))), "training.compute.device_hours",
       "compute ÷ (dense peak × MFU × 3,600), for each MFU point"},
      {"Cluster size", reach_span(c.cluster_devices, fmt::count) + " devices",
       "training.compute.cluster_devices", "device-hours ÷ (days × 24 × goodput)"},
      {"Power", power, "training.power.facility_power_w", "devices × system W per device × PUE"},
      {"Serving memory", fmt::bytes(v.footprint_bytes), "serving.kv_bytes",
       "weights at serving precision + KV per token × context × batch × fill"},
      {"Decode ceiling", fmt::seconds(v.decode_step_s) + " per step", "serving.decode_step_s",
       "(weights read + KV read) ÷ replica HBM bandwidth, or compute or the all-reduce latency floor if slower"},
      {"Prefill time", fmt::seconds(v.prefill_s), "serving.prefill_s", "2 × N_active × prompt ÷ (peak × MFU)"},
      {"Cost per million tokens", v.cost_per_million_tokens_usd > 0 ? fmt::usd(v.cost_per_million_tokens_usd) : "no price",
       "serving.cost_per_million_tokens_usd", "replica $/h ÷ realised million tokens per hour"},
  };
  int n = 1;
  for (const Step& st : steps) {
    ImGui::PushID(n);
    ImGui::TableNextRow(0, ImGui::GetTextLineHeight() + ui.px(8));
    ImGui::TableNextColumn();
    ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.faint);
    ImGui::Text("%d", n);
    ImGui::PopStyleColor();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(st.what);
    ImGui::TableNextColumn();
    value_text(ui, st.value, st.path, true);
    ImGui::TableNextColumn();
    ImGui::PushFont(ui.fonts.small);
    ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.muted);
    ImGui::TextUnformatted(st.formula);
    ImGui::PopStyleColor();
    ImGui::PopFont();
    ImGui::PopID();
    ++n;
  }
  ImGui::EndTable();
}

}  // namespace

void overview_panel(Ui& ui) {
  const sizer::Scenario& s = ui.sc();
  section_title(ui, "Training", nullptr);
  const float avail = ImGui::GetContentRegionAvail().x;
  const float card_h = ui.fonts.big->FontSize + ui.fonts.small->FontSize * 6.0f + ui.px(30);
  const std::vector<Card> groups[2] = {training_cards(ui), serving_cards(ui)};
  for (int half = 0; half < 2; ++half) {
    const std::vector<Card>& cards = groups[half];
    if (half == 1) {
      ImGui::Spacing();
      section_title(ui, "Serving", nullptr);
    }
    // Four across on a wide view (three for five or six cards: two even rows), two on a narrow one.
    const int n = static_cast<int>(cards.size());
    const int columns = avail > ui.px(860) ? (n > 4 && n <= 6 ? 3 : 4) : 2;
    if (ImGui::BeginTable(half ? "cards_serving" : "cards_training", columns, ImGuiTableFlags_SizingStretchSame)) {
      // A row is as tall as its tallest card needs, and never shorter than the usual card.
      float row_h = card_h;
      for (int i = 0; i < n; ++i) {
        ImGui::TableNextColumn();
        if (i % columns == 0) {
          row_h = card_h;
          const float w = ImGui::GetContentRegionAvail().x;  // stretch-same: every column as wide
          for (int j = i; j < std::min(n, i + columns); ++j) row_h = std::max(row_h, card_height(ui, cards[j], w));
        }
        draw_card(ui, cards[i], row_h);
      }
      ImGui::EndTable();
    }
  }
  ImGui::Spacing();
  const auto& e = ui.est();
  if (!e.notes.empty() || !ui.state.editor.warnings.empty()) {
    section_title(ui, "Notes", nullptr);
    ImGui::PushTextWrapPos(0.0f);
    for (const std::string& n : e.notes) {
      ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.warn);
      ImGui::TextUnformatted("•");
      ImGui::PopStyleColor();
      ImGui::SameLine();
      ImGui::TextUnformatted(n.c_str());
    }
    for (const sizer::Issue& w : ui.state.editor.warnings) {
      ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.warn);
      ImGui::TextUnformatted("•");
      ImGui::PopStyleColor();
      ImGui::SameLine();
      ImGui::Text("%s: %s", w.path.c_str(), w.message.c_str());
    }
    ImGui::PopTextWrapPos();
  }
  ImGui::Spacing();
  ten_steps(ui);
  ImGui::Spacing();
  caption(ui, "Model: " + s.model.name + " — " + fmt::count(s.model.params) + " parameters, " +
                  fmt::count(s.model.active_params) + " active, " + fmt::flops(e.compute.flops) + " to train on " +
                  fmt::count(e.compute.tokens) + " tokens.");
}

}  // namespace sizer_web
