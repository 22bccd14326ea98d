// Layout and search-range fields of the Serving planner (see serve_fields.h).
#include "serve_fields.h"

#include <cmath>
#include <string>
#include <utility>

#include "planner_fields.h"
#include "scenario_edit.h"

namespace sizer_web {

using nlohmann::json;

namespace {

// A number cell whose commit calls `apply` (for values stored as part of a larger object).
template <class Apply>
void custom_count(Ui& ui, const char* label, const std::string& id, double shown, Apply apply) {
  row_label(label);
  ImGui::PushID(id.c_str());
  double v = shown;
  const bool bad = !issues_at(ui.state.editor.issues, id).empty();
  if (bad) ImGui::PushStyleColor(ImGuiCol_Border, ui.pal.bad), ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, ui.px(1.5f));
  ImGui::SetNextItemWidth(-1.0f);
  const bool typed = ImGui::InputDouble("##v", &v, 0.0, 0.0, "%.0f");
  if (bad) ImGui::PopStyleVar(), ImGui::PopStyleColor();
  note_rect(ui, "planner:" + id);
  focus_ring(ui, id);
  if (edit_committed(ui, id, label, typed, &v)) apply(std::round(v));
  pending_caption(ui, id);
  ImGui::PopID();
}

// The replica layout {tp, pp, dp, ep}: shown resolved (the default layout when none is given);
// an edit writes the whole layout, so the other degrees keep what was shown.
}  // namespace

void layout_fields(Ui& ui) {
  const auto& l = ui.est().serving.layout;
  const std::pair<const char*, const char*> keys[] = {
      {"tp", "Tensor parallel (TP)"}, {"pp", "Pipeline stages (PP)"}, {"dp", "Attention DP"}, {"ep", "Expert parallel (EP)"}};
  const double shown[] = {l.tp, l.pp, l.dp, l.ep};
  for (int i = 0; i < 4; ++i) {
    const std::string key = keys[i].first;
    custom_count(ui, keys[i].second, "serving.layout." + key, shown[i], [&, i](double v) {
      json layout = {{"tp", l.tp}, {"pp", l.pp}, {"dp", l.dp}, {"ep", l.ep}};
      layout[keys[i].first] = v;
      set_input(ui.state, "serving.layout", layout);
    });
  }
}

// The search's replica sizes [min, max] (serving.search.devices), shown resolved.
void search_range_fields(Ui& ui, const sizer::serve::ServeSearchResult* last) {
  const auto& q = ui.sc().serving.search;
  const double dflt = sizer::serve::default_max_devices(ui.sc().device.scale_up_domain);
  double lo = q.devices_min > 0 ? q.devices_min : 1, hi = q.devices_max > 0 ? q.devices_max : dflt;
  if (last && q.devices_min <= 0) lo = last->devices_min, hi = last->devices_max;
  const char* labels[] = {"Search replicas from", "to (devices)"};
  for (int i = 0; i < 2; ++i) {
    custom_count(ui, labels[i], "serving.search.devices[" + std::to_string(i) + "]", i == 0 ? lo : hi, [&, i](double v) {
      json range = json::array({lo, hi});
      range[i] = v;
      set_input(ui.state, "serving.search.devices", range);
    });
  }
}

}  // namespace sizer_web
