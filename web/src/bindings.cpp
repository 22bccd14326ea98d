// JavaScript API (sizer.mjs): Embind bindings over the sizing core, for browsers and Node 18+.
//   import createSizer from './sizer.mjs';
//   const sizer = await createSizer();
//   sizer.version();                          // "1.0.0"
//   JSON.parse(sizer.evaluate('{}'));         // v1 result document for the default scenario
// A binding converts and forwards; every formula lives in core/.
#include <emscripten/bind.h>

#include <string>

#include "sizer/sizer.h"

namespace {

// Invalid UTF-8 is replaced rather than thrown on: exceptions are off, a throw would abort.
std::string dump(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

std::string version() { return sizer::kVersion; }

// Scenario JSON text in, v1 result JSON text out; on invalid input {"issues": [{path, message}]}.
std::string evaluate(const std::string& scenario_json) {
  const sizer::ParsedScenario parsed = sizer::parse_scenario(scenario_json, sizer::bundled_catalog());
  if (!parsed.ok()) {
    nlohmann::json issues = nlohmann::json::array();
    for (const sizer::Issue& i : parsed.issues) issues.push_back({{"path", i.path}, {"message", i.message}});
    return dump(nlohmann::json{{"issues", issues}});
  }
  const sizer::Estimate estimate = sizer::evaluate(parsed.scenario);
  return dump(sizer::result_to_json(parsed.scenario, estimate, parsed.warnings));
}

}  // namespace

EMSCRIPTEN_BINDINGS(sizer) {
  emscripten::function("version", &version);
  emscripten::function("evaluate", &evaluate);
}
