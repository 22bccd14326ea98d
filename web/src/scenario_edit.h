// Editing the scenario through the core: every widget reads its value with `input_value` and
// writes with `set_input`, both by JSON path of the v1 scenario contract ("training.layout.tp").
// Nothing here computes a result; `reparse` hands the draft to sizer::parse_scenario and, when it
// is valid, to sizer::evaluate.
//
// [SECTION] Reading and writing inputs by path
// [SECTION] Pickers that reset dependent inputs (model preset, device, system, price)
// [SECTION] Re-parsing and issues by path
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app_state.h"

namespace sizer_web {

// [SECTION] Reading and writing inputs by path
// The draft's value at `path` if the user set it, else the resolved (default-filled) value of the
// last valid scenario; nullptr when neither has one.
const nlohmann::json* input_value(const AppState& s, const std::string& path);
double input_number(const AppState& s, const std::string& path, double fallback = 0);
std::string input_string(const AppState& s, const std::string& path);
// A choice's value: the string at `path`, or the "id" of an object there (training.stack written
// with its own keys, as a scenario's echo always writes it); "" when neither.
std::string input_choice(const AppState& s, const std::string& path);
bool input_bool(const AppState& s, const std::string& path);  // false unless set to true
// Sets a value in the draft (model fields turn a preset id into {"preset": id, ...}).
void set_input(AppState& s, const std::string& path, nlohmann::json value);
// Removes a value from the draft, so the core's default applies again.
void clear_input(AppState& s, const std::string& path);
bool is_set(const AppState& s, const std::string& path);

// [SECTION] Pickers
void choose_model(AppState& s, const std::string& model_id);
void choose_device(AppState& s, const std::string& device_id);
void choose_system(AppState& s, const std::string& system_id);  // "" = none
void choose_price(AppState& s, const std::string& price_id);    // "" = no price
void set_moe(AppState& s, bool moe);
void reset_scenario(AppState& s);

// [SECTION] Re-parsing
// Parses the draft; when valid and different from the last valid scenario, evaluates it.
// Returns true when the computed results changed.
bool reparse(AppState& s);
// The working records ("show the working") and the resolved scenario JSON (default values shown
// in the inputs) are made lazily, at the start of the frame after a change, so an edit costs only
// the parse and the numbers: fills state.computed.estimate.working and .resolved when stale.
// records false makes only .resolved (the app's first frame, which shows no working: the records
// follow a frame later, before anything can be hovered).
void ensure_working(AppState& s, bool records = true);
// Issues (errors, then warnings) at `path` or below it ("training.mfu" matches "training.mfu[1]").
std::vector<const sizer::Issue*> issues_at(const std::vector<sizer::Issue>& list, const std::string& path);

}  // namespace sizer_web
