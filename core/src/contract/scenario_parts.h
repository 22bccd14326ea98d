// Internal: parts of the scenario parser and of its inverse, scenario_to_json, that live in their
// own files (see scenario_parse.cpp). Each block's writer sits beside its reader, so a key added to
// one is seen added to the other: what a writer gives, its reader reads back to the same inputs.
#pragma once
#include <string>
#include <vector>

#include "sizer/contract/json_read.h"
#include "sizer/planners/catalog.h"
#include "sizer/contract/issue.h"
#include "sizer/planners/scenario.h"

namespace sizer::detail {

// Ranges shared by the scenario parser's files.
inline const Range kFraction{0.001, 1};     // MFU, goodput, usable HBM, shares
inline const Range kDegree{1, 1e6, false, true};
inline const Range kTokensR{1, 1e18};
inline const Range kDays{0.01, 36500};
inline const Range kSmallBytes{0.125, 16};  // bytes per element
inline const Range kBytesPerParam{0.5, 64};
inline const Range kBandwidthR{1e3, 1e16};
inline const Range kUsdR{1e-6, 1e6};

// A precision name at obj[key] ("fp32", "bf16", "fp16", "fp8", "fp4").
bool read_precision(Reader& r, const json& obj, const char* key, const std::string& path, Precision* out);
// "price": an offer id or an object; "usd_per_device_hour": a plain override.
void read_price_choice(Reader& r, const json& obj, const std::string& path, const Catalog& c, const Device& d,
                       PriceOffer* out);
// A price as scenario input: a bundled offer by its id, a user's offer as an object.
json write_price_choice(const PriceOffer& p);
// The training block (scenario_training.cpp): tokens, precision, MFU points, optimizer state,
// ZeRO, memory allowances, schedule, price, layout, stack, FP8 recipe, search.
void read_training(Reader& r, const json& doc, const Catalog& c, Scenario* s);
json write_training(const TrainingInputs& t);

// training.reliability, training.storage, ownership, carbon, uncertainty (scenario_ops.cpp), with
// the defaults from the bundled operations tables for the scenario's device.
void read_operations(Reader& r, const json& doc, const Catalog& c, Scenario* s);
// The same blocks into the scenario document `scenario`, whose training block is written already
// (its goodput becomes "predicted" when the reliability model predicts it).
void write_operations(const Scenario& s, json* scenario);

// training.layout (with the planner keys, zero_stage among them) into t->layout (scenario_layout.cpp).
void read_layout(Reader& r, const json& obj, const std::string& path, TrainingInputs* t);
// training.layout as resolved, with "given": false when the scenario wrote none.
json write_layout(const TrainingInputs& t);
// training.stack: a bundled stack id, or {"id", and any of "memory_bound_scale", "attention",
// "layer_overhead_s"} to change its values.
void read_stack(Reader& r, const json& v, const std::string& path, SoftwareStack* out);
json write_stack(const SoftwareStack& st);
// training.search settings; written only when they differ from the defaults (else null).
void read_search(Reader& r, const json& o, const std::string& path, SearchInputs* s);
json write_search(const SearchInputs& q);
// The serving block (scenario_serve.cpp): the seed's ceiling inputs and price, then the serving
// performance model's inputs (layout, workload, precisions, spec decode, SLO, engine); once
// everything is read, the layout and KV-capacity checks.
void read_serving(Reader& r, const json& doc, const Catalog& c, Scenario* s);
json write_serving(const ServingInputs& v);
void read_serve_model(Reader& r, const json& o, const Catalog& c, Scenario* s);
void check_serve_model(Reader& r, Scenario* s);
// The structural problems of a serving replica layout (`problems`: serve::LayoutProblem bits) as
// issues at `path` (e.g. "serving.layout.tp").
std::vector<Issue> serve_layout_issues(const Model& m, const Device& d, const serve::ServeLayout& l,
                                       std::uint32_t problems, Precision compute_precision, const std::string& path);
// The planner's validity rules for the scenario's layout: errors when the scenario gives
// training.layout, warnings when the default layout does not suit the model.
void check_layout(const Scenario& s, bool layout_given, std::vector<Issue>* errors, std::vector<Issue>* warnings);
// The default training.layout for the scenario's model and device when none is written.
Layout default_training_layout(const Scenario& s);

}  // namespace sizer::detail
