// Editing the scenario through the core (see scenario_edit.h).
#include "scenario_edit.h"

#include <chrono>

namespace sizer_web {

using nlohmann::json;

namespace {

std::vector<std::string> split(const std::string& path) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : path) {
    if (c == '.') {
      parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts.push_back(cur);
  return parts;
}

const json* find_path(const json& doc, const std::string& path) {
  const json* node = &doc;
  for (const std::string& key : split(path)) {
    if (!node->is_object()) return nullptr;
    auto it = node->find(key);
    if (it == node->end()) return nullptr;
    node = &*it;
  }
  return node;
}

// The draft's model as an object that keeps the chosen preset: {"preset": id, ...overrides}.
void model_as_object(AppState& s) {
  json& m = s.editor.draft["model"];
  if (m.is_object()) return;
  const std::string id = m.is_string() ? m.get<std::string>() : s.computed.scenario.model.id;
  if (s.share.catalog.find_model(id)) {
    m = json{{"preset", id}};
  } else {  // a custom model: carry its resolved shape
    m = s.computed.resolved["model"];
    m.erase("id");
  }
}

}  // namespace

const json* input_value(const AppState& s, const std::string& path) {
  if (const json* v = find_path(s.editor.draft, path)) return v;
  return find_path(s.computed.resolved, path);
}

double input_number(const AppState& s, const std::string& path, double fallback) {
  const json* v = input_value(s, path);
  return v && v->is_number() ? v->get<double>() : fallback;
}

std::string input_string(const AppState& s, const std::string& path) {
  const json* v = input_value(s, path);
  return v && v->is_string() ? v->get<std::string>() : std::string();
}

bool is_set(const AppState& s, const std::string& path) { return find_path(s.editor.draft, path) != nullptr; }

void set_input(AppState& s, const std::string& path, json value) {
  const std::vector<std::string> parts = split(path);
  if (parts.size() > 1 && parts[0] == "model") model_as_object(s);
  json* node = &s.editor.draft;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    json& child = (*node)[parts[i]];
    if (!child.is_object()) child = json::object();
    node = &child;
  }
  (*node)[parts.back()] = std::move(value);
  s.editor.changed = true;
}

void clear_input(AppState& s, const std::string& path) {
  const std::vector<std::string> parts = split(path);
  json* node = &s.editor.draft;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    if (!node->is_object() || !node->contains(parts[i])) return;
    node = &(*node)[parts[i]];
  }
  if (node->is_object() && node->erase(parts.back()) > 0) s.editor.changed = true;
}

void choose_model(AppState& s, const std::string& model_id) {
  json& d = s.editor.draft;
  d["model"] = model_id;
  // Inputs whose defaults depend on the model (tokens, MFU range, layout) go back to defaults.
  if (d.contains("training")) {
    for (const char* k : {"tokens", "mfu", "step_mfu", "layout"}) d["training"].erase(k);
  }
  s.view.mfu_editing = false;
  s.editor.changed = true;
}

void choose_device(AppState& s, const std::string& device_id) {
  const sizer::Catalog& cat = s.share.catalog;
  json& d = s.editor.draft;
  d["device"] = device_id;
  const sizer::Device* dev = cat.find_device(device_id);
  if (dev && !dev->default_system.empty() && cat.find_system(dev->default_system)) {
    d["system"] = dev->default_system;
  } else {
    d.erase("system");
  }
  // Price and system power follow the device unless chosen again.
  if (d.contains("training")) d["training"].erase("price"), d["training"].erase("usd_per_device_hour");
  if (d.contains("serving")) d["serving"].erase("price"), d["serving"].erase("usd_per_device_hour");
  if (d.contains("power")) d["power"].erase("system_w_per_device");
  s.editor.changed = true;
}

void choose_system(AppState& s, const std::string& system_id) {
  if (system_id.empty()) {
    s.editor.draft.erase("system");
  } else {
    s.editor.draft["system"] = system_id;
  }
  if (s.editor.draft.contains("power")) s.editor.draft["power"].erase("system_w_per_device");
  s.editor.changed = true;
}

void choose_price(AppState& s, const std::string& price_id) {
  json& d = s.editor.draft;
  d["training"]["price"] = price_id.empty() ? json(nullptr) : json(price_id);
  d["training"].erase("usd_per_device_hour");
  if (d.contains("serving")) d["serving"].erase("price"), d["serving"].erase("usd_per_device_hour");
  s.editor.changed = true;
}

void set_moe(AppState& s, bool moe) {
  if (moe) {
    const double layers = input_number(s, "model.layers", 1);
    set_input(s, "model.moe", json{{"experts", 64}, {"experts_per_token", 8}, {"shared_experts", 1},
                                   {"moe_layers", layers}});
  } else {
    set_input(s, "model.moe", nullptr);
    set_input(s, "model.active_params", input_number(s, "model.params"));
  }
}

void reset_scenario(AppState& s) {
  s.editor.draft = json{{"schema", sizer::kScenarioSchema}, {"model", "dense-1t"}, {"device", "gb200"},
                        {"system", "gb200-nvl72"}};
  s.view.mfu_editing = false;
  s.editor.local.clear();
  s.editor.changed = true;
}

void ensure_working(AppState& s) {
  if (s.computed.working_ready) return;
  const auto t0 = std::chrono::steady_clock::now();
  s.computed.resolved = sizer::scenario_to_json(s.computed.scenario);
  s.computed.estimate.working = sizer::evaluate(s.computed.scenario, true, false).working;  // intervals: already there
  s.computed.working_ready = true;
  s.computed.working_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

bool reparse(AppState& s) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  s.editor.changed = false;
  std::string text = s.editor.draft.dump();
  sizer::ParsedScenario p = sizer::parse_scenario(text, s.share.catalog);
  s.editor.issues = std::move(p.issues);
  s.editor.warnings = std::move(p.warnings);
  if (!s.editor.issues.empty()) return false;
  if (s.computed.revision > 0 && text == s.computed.draft_text) return false;  // same scenario
  s.computed.scenario = std::move(p.scenario);
  s.computed.draft_text = std::move(text);
  s.computed.estimate = sizer::evaluate(s.computed.scenario, false);  // numbers now, working next frame
  s.computed.working_ready = false;
  s.computed.revision++;
  s.computed.recompute_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  return true;
}

std::vector<const sizer::Issue*> issues_at(const std::vector<sizer::Issue>& list, const std::string& path) {
  std::vector<const sizer::Issue*> out;
  for (const sizer::Issue& i : list) {
    const bool below = i.path.size() > path.size() && i.path.compare(0, path.size(), path) == 0 &&
                       (i.path[path.size()] == '.' || i.path[path.size()] == '[');
    if (i.path == path || below) out.push_back(&i);
  }
  return out;
}

}  // namespace sizer_web
