// Layout and search-range fields of the Serving planner (see serve_fields.h).
#include "serve_fields.h"

#include <string>
#include <utility>

#include "input_fields.h"
#include "scenario_edit.h"

namespace sizer_web {

using nlohmann::json;

// The replica layout {tp, pp, dp, ep}: shown resolved (the default layout when none is given);
// an edit writes the whole layout, so the other degrees keep what was shown.
void layout_fields(Ui& ui) {
  const auto& l = ui.est().serving.layout;
  const std::pair<const char*, const char*> keys[] = {
      {"tp", "Tensor parallel (TP)"}, {"pp", "Pipeline stages (PP)"}, {"dp", "Attention DP"}, {"ep", "Expert parallel (EP)"}};
  const double shown[] = {l.tp, l.pp, l.dp, l.ep};
  for (int i = 0; i < 4; ++i) {
    const std::string path = std::string("serving.layout.") + keys[i].first;
    double v = shown[i];
    if (value_field(ui, {path.c_str(), keys[i].second, 1, "", true}, &v, FieldPlace::planner_table)) {
      json layout = {{"tp", l.tp}, {"pp", l.pp}, {"dp", l.dp}, {"ep", l.ep}};
      layout[keys[i].first] = v;
      set_input(ui.state, "serving.layout", layout);
    }
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
    const std::string path = "serving.search.devices[" + std::to_string(i) + "]";
    double v = i == 0 ? lo : hi;
    if (value_field(ui, {path.c_str(), labels[i], 1, "", true}, &v, FieldPlace::planner_table)) {
      json range = json::array({lo, hi});
      range[i] = v;
      set_input(ui.state, "serving.search.devices", range);
    }
  }
}

}  // namespace sizer_web
