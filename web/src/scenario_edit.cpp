// Editing the scenario through the core (see scenario_edit.h).
#include "scenario_edit.h"

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "share_actions.h"
#include "sizer/serve/serving_model.h"
#include "sizer/planners/serve_scenario.h"

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

// Problems the core reports under `block` for `draft`: errors, and warnings below the block
// (not the block-wide "is ignored" kind). The parsed scenario goes to `out` when given.
std::vector<sizer::Issue> problems_under(const json& draft, const sizer::Catalog& cat, const std::string& block,
                                         sizer::Scenario* out = nullptr) {
  sizer::ParsedScenario p = sizer::parse_scenario(draft.dump(), cat);
  std::vector<sizer::Issue> found;
  for (const sizer::Issue* i : issues_at(p.issues, block)) found.push_back(*i);
  for (const sizer::Issue* i : issues_at(p.warnings, block)) {
    if (i->path != block) found.push_back(*i);
  }
  if (out) *out = std::move(p.scenario);
  return found;
}

// Why a given serving replica layout does not fit the scenario's model, whether or not a
// workload makes the core check it (sizer::serve_layout_issues, as the parser says it).
std::string serve_layout_misfit(const sizer::Scenario& s) {
  if (!s.serving.layout_given) return "";
  const std::vector<sizer::Issue> found = sizer::serve_layout_issues(s, s.serving.layout, "serving.layout");
  return found.empty() ? "" : found.front().path + " " + found.front().message;
}

// "tp 8, pp 64, dp 16" for a layout object as the user set it: the degrees first, in the order
// people write them, then the other keys.
std::string settings_text(const json& o) {
  if (!o.is_object()) return o.dump();
  std::string t;
  auto add = [&](const std::string& k, const json& v) {
    t += (t.empty() ? "" : ", ") + k + " " + (v.is_number() ? sizer::num(v.get<double>()) : v.dump());
  };
  constexpr const char* kDegrees[] = {"tp", "pp", "dp", "ep", "cp"};
  for (const char* k : kDegrees) {
    if (o.contains(k)) add(k, o[k]);
  }
  for (auto it = o.begin(); it != o.end(); ++it) {
    if (std::find(std::begin(kDegrees), std::end(kDegrees), it.key()) == std::end(kDegrees)) add(it.key(), *it);
  }
  return t;
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

std::string input_choice(const AppState& s, const std::string& path) {
  const json* v = input_value(s, path);
  if (v && v->is_object()) {
    const auto id = v->find("id");
    return id != v->end() && id->is_string() ? id->get<std::string>() : std::string();
  }
  return v && v->is_string() ? v->get<std::string>() : std::string();
}

bool input_bool(const AppState& s, const std::string& path) {
  const json* v = input_value(s, path);
  return v && v->is_boolean() && v->get<bool>();
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
  const json before = d;
  d["model"] = model_id;
  // Inputs whose defaults depend on the model (tokens, MFU range) go back to defaults.
  if (d.contains("training")) {
    for (const char* k : {"tokens", "mfu", "step_mfu"}) d["training"].erase(k);
  }
  // A layout the user set stays while it fits the new model; one that no longer does (a 70B
  // model under a 1T model's 64-stage pipeline) goes back to the default, and a notice says so.
  const sizer::Catalog& cat = s.share.catalog;
  std::vector<std::string> reset;
  for (const std::string block : {"training.layout", "serving.layout"}) {
    const json* given = find_path(d, block);
    if (!given) continue;
    const std::vector<sizer::Issue> old_problems = problems_under(before, cat, block);
    sizer::Scenario next;
    std::string why;
    for (const sizer::Issue& i : problems_under(d, cat, block, &next)) {
      const bool known = std::any_of(old_problems.begin(), old_problems.end(),
                                     [&](const sizer::Issue& o) { return o.path == i.path && o.message == i.message; });
      if (!known) {
        why = i.path + " " + i.message;
        break;
      }
    }
    if (why.empty() && block == "serving.layout") why = serve_layout_misfit(next);
    if (why.empty()) continue;
    std::string line = block + " (" + settings_text(*given) + "): " + why + "; back to the default";
    clear_input(s, block);
    // The core's default layout suits the model where any layout on the seed's devices does
    // (default_training_layout); say when even it does not fit, rather than imply that it does.
    const std::vector<sizer::Issue> still = problems_under(d, cat, block);
    if (!still.empty()) line += ", which does not fit either (" + still.front().path + " " + still.front().message +
                                "): set one, or let the Planner search";
    reset.push_back(line);
  }
  if (!reset.empty()) {
    const sizer::Model* m = cat.find_model(model_id);
    set_message(s, "Layout reset: it does not fit " + (m ? m->name : model_id), reset, false);
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

void ensure_working(AppState& s, bool records) {
  if (s.computed.working_ready) return;
  const auto t0 = std::chrono::steady_clock::now();
  if (s.computed.resolved_revision != s.computed.revision) {
    s.computed.resolved = sizer::scenario_to_json(s.computed.scenario);
    s.computed.resolved_revision = s.computed.revision;
  }
  if (!records) return;
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
