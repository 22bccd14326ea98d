// Internal: parts of the scenario parser that live in their own files (see scenario_parse.cpp).
#pragma once
#include <string>
#include <vector>

#include "json_read.h"
#include "sizer/issue.h"
#include "sizer/scenario.h"

namespace sizer::detail {

// training.layout (with the planner keys) into t->layout and t->zero_stage.
void read_layout(Reader& r, const json& obj, const std::string& path, TrainingInputs* t);
// training.stack: a bundled stack id, or {"id", and any of "memory_bound_scale", "attention",
// "layer_overhead_s"} to change its values.
void read_stack(Reader& r, const json& v, const std::string& path, SoftwareStack* out);
// training.search settings.
void read_search(Reader& r, const json& o, const std::string& path, SearchInputs* s);
// The planner's validity rules for the scenario's layout: errors when the scenario gives
// training.layout, warnings when the default layout does not suit the model.
// The serving performance model's inputs (scenario_serve.cpp): layout, workload, precisions,
// spec decode, SLO, engine; then, once everything is read, the layout and KV-capacity checks.
void read_serve_model(Reader& r, const json& o, Scenario* s);
void check_serve_model(Reader& r, Scenario* s);
void check_layout(const Scenario& s, bool layout_given, std::vector<Issue>* errors, std::vector<Issue>* warnings);

}  // namespace sizer::detail
