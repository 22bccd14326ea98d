// Embind bindings of the JS API (site/sizer.mjs). They only convert and forward to the core: JSON
// text in, JSON text out; web/js/sizer-api.js wraps them into the documented ES-module API
// (createSizer(), evaluate(object|text) -> object, listDevices() ..., version).
// Every formula lives in core/. Exceptions are off: nothing here throws.
#include <emscripten/bind.h>

#include <chrono>
#include <string>

#include "sizer/contract/json_object.h"
#include "sizer/sizer.h"
#include "sizer/contract/user_text.h"

using sizer::json_object;

namespace {

// Invalid UTF-8 is replaced rather than thrown on: exceptions are off, a throw would abort.
std::string dump(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

std::string version() { return sizer::kVersion; }
std::string contract() { return sizer::kContractVersion; }

// Scenario JSON text in, v1 result JSON text out (the same document as `sizer eval`); on invalid
// input {"issues": [{path, message}]}.
std::string evaluate(const std::string& scenario_json) {
  const sizer::ParsedScenario parsed = sizer::parse_scenario(scenario_json, sizer::bundled_catalog());
  if (!parsed.ok()) {
    return dump(json_object({{"issues", sizer::issues_to_json(parsed.issues)}}));
  }
  const sizer::Estimate estimate = sizer::evaluate(parsed.scenario);
  return dump(sizer::result_to_json(parsed.scenario, estimate, parsed.warnings));
}

// Planner: scenario JSON text in, `sizer plan` / `sizer search` JSON text out (search_s is the
// search's wall-clock time, measured here: the core reads no clocks); on invalid input
// {"issues": [...]} as evaluate().
std::string planner(const std::string& scenario_json, bool search) {
  const sizer::ParsedScenario parsed = sizer::parse_scenario(scenario_json, sizer::bundled_catalog());
  if (!parsed.ok()) {
    return dump(json_object({{"issues", sizer::issues_to_json(parsed.issues)}}));
  }
  if (!search) return dump(sizer::plan_to_json(parsed.scenario));
  const auto start = std::chrono::steady_clock::now();
  sizer::SearchResult r = sizer::search_layouts(parsed.scenario);
  r.search_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return dump(sizer::search_to_json(parsed.scenario, r));
}
std::string plan(const std::string& scenario_json) { return planner(scenario_json, false); }

// The parser's issues, else what a serving search needs beyond them (serve_search_issues).
nlohmann::json serve_search_issues(const sizer::ParsedScenario& parsed, const std::vector<std::string>& ids = {}) {
  if (!parsed.ok()) return sizer::issues_to_json(parsed.issues);
  return sizer::issues_to_json(sizer::serve::serve_search_issues(parsed.scenario, sizer::bundled_catalog(), ids));
}

// Serving search: scenario JSON text in, `sizer serve-search` JSON text out (search_s measured
// here); invalid input, or no serving.workload, gives {"issues": [...]} as evaluate().
std::string serve_search(const std::string& scenario_json) {
  const sizer::ParsedScenario parsed = sizer::parse_scenario(scenario_json, sizer::bundled_catalog());
  const nlohmann::json issues = serve_search_issues(parsed);
  if (!issues.empty()) return dump(json_object({{"issues", issues}}));
  const auto start = std::chrono::steady_clock::now();
  sizer::serve::ServeSearchResult r = sizer::serve::search_serving(parsed.scenario);
  r.search_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return dump(sizer::serve::serve_search_to_json(parsed.scenario, r));
}
// Serving search on every chip (or the comma-separated device ids): `sizer serve-search --devices`.
std::string serve_search_chips(const std::string& scenario_json, const std::string& device_ids) {
  const sizer::ParsedScenario parsed = sizer::parse_scenario(scenario_json, sizer::bundled_catalog());
  std::vector<std::string> ids;
  std::string cur;
  for (char ch : device_ids + ",") {
    if (ch != ',') {
      cur += ch;
      continue;
    }
    if (!cur.empty() && cur != "all") ids.push_back(cur);
    cur.clear();
  }
  const nlohmann::json issues = serve_search_issues(parsed, ids);
  if (!issues.empty()) return dump(json_object({{"issues", issues}}));
  return dump(sizer::serve::serve_chips_to_json(parsed.scenario,
                                                sizer::serve::search_serving_chips(parsed.scenario, sizer::bundled_catalog(), ids)));
}
std::string search(const std::string& scenario_json) { return planner(scenario_json, true); }

// A bundled table as a JSON array: "devices" | "systems" | "prices" | "models".
std::string list(const std::string& table) {
  const sizer::Catalog& c = sizer::bundled_catalog();
  nlohmann::json out = nlohmann::json::array();
  if (table == "devices") for (const auto& d : c.devices) out.push_back(sizer::device_to_json(d));
  if (table == "systems") for (const auto& s : c.systems) out.push_back(sizer::system_to_json(s));
  if (table == "prices") for (const auto& p : c.prices) out.push_back(sizer::price_to_json(p));
  if (table == "models") for (const auto& m : c.models) out.push_back(sizer::model_to_json(m));
  return dump(out);
}

}  // namespace

// A Hugging Face config.json (text) → {"model", "architecture", "weight_precision", "notes"} or
// {"issues": [...]} (sizer/io/model_import.h; the same as `sizer import-hf`).
std::string import_hugging_face(const std::string& config_json) {
  return dump(sizer::imported_model_to_json(sizer::import_hf_config(config_json)));
}

EMSCRIPTEN_BINDINGS(sizer) {
  emscripten::function("version", &version);
  emscripten::function("contract", &contract);
  emscripten::function("evaluate", &evaluate);
  emscripten::function("list", &list);
  emscripten::function("plan", &plan);
  emscripten::function("search", &search);
  emscripten::function("serveSearch", &serve_search);
  emscripten::function("serveSearchChips", &serve_search_chips);
  emscripten::function("importHuggingFace", &import_hugging_face);
}
