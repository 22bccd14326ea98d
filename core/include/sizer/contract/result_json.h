// The v1 JSON contract: results (and the resolved scenario) as nlohmann::json.
//
// Leaf names are the public contract (docs/contract.md): SI units (bytes, FLOP, seconds, watts,
// watt-hours, USD), lists where the input gave a list of MFU points, null where a value is not
// defined (no price, no known system power), never NaN or infinity.
#pragma once
#include <nlohmann/json.hpp>

#include "sizer/contract/issue.h"
#include "sizer/planners/catalog.h"
#include "sizer/planners/estimate.h"
#include "sizer/planners/scenario.h"

namespace sizer {

constexpr const char* kResultSchema = "sizer.result.v1";
constexpr const char* kScenarioSchema = "sizer.scenario.v1";

// The resolved scenario in input form: feeding it back to parse_scenario gives the same scenario.
nlohmann::json scenario_to_json(const Scenario& s);

// The full result document: {"schema", "scenario", "model", "training", "serving", "notes",
// "warnings", "working"}.
nlohmann::json result_to_json(const Scenario& s, const Estimate& e,
                              const std::vector<Issue>& warnings = {});

// Issues (errors or warnings) as the contract writes them: [{"path", "message"}, ...].
nlohmann::json issues_to_json(const std::vector<Issue>& issues);

// Catalog tables as JSON (for `sizer list` and the JS API's listDevices() etc.).
nlohmann::json device_to_json(const Device& d);
nlohmann::json system_to_json(const System& s);
nlohmann::json price_to_json(const PriceOffer& p);
nlohmann::json model_to_json(const Model& m);
// The serving model's prediction at one operating point, as in serving.performance (also each
// point of `sizer serve-search`).
nlohmann::json serve_performance_json(const serve::Performance& p);

}  // namespace sizer
