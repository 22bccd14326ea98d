// Scenario parsing: the v1 JSON contract → a resolved Scenario (see scenario_parse.h and
// docs/contract.md). Order: model, then device (preset → system → overrides), then the
// training, serving and power blocks, then cross-field checks. And its inverse,
// scenario_to_json (sizer/contract/result_json.h), each block written beside its reader.
#include "sizer/contract/scenario_parse.h"

#include <algorithm>
#include <cmath>

#include "contract/records.h"
#include "contract/scenario_parts.h"
#include "sizer/contract/json_object.h"
#include "sizer/contract/json_safe.h"
#include "sizer/contract/result_json.h"
#include "sizer/formulas/format.h"
#include "sizer/planners/planner.h"
#include "sizer/planners/serve_scenario.h"
#include "sizer/formulas/training_memory.h"
#include "sizer/contract/user_text.h"
#include "sizer/formulas/working.h"

namespace sizer {

namespace detail {

bool read_precision(Reader& r, const json& obj, const char* key, const std::string& path, Precision* out) {
  std::string text;
  if (!r.string(obj, key, path, &text)) return false;
  if (!parse_precision(text.c_str(), out)) {
    r.error(detail::join(path, key), "must be one of fp32, bf16, fp16, fp8, fp4; got " + echo_quoted(text));
    return false;
  }
  return true;
}

// "price": an offer id or an object; "usd_per_device_hour": a plain override.
void read_price_choice(Reader& r, const json& obj, const std::string& path, const Catalog& c,
                       const Device& d, PriceOffer* out) {
  if (auto it = obj.find("price"); it != obj.end()) {
    const std::string pp = detail::join(path, "price");
    if (it->is_null()) {
      *out = PriceOffer{};
    } else if (it->is_string()) {
      const PriceOffer* p = c.find_price(it->get<std::string>());
      std::string known;
      for (const PriceOffer& x : c.prices) {
        if (x.device == d.id) known += (known.empty() ? "" : ", ") + x.id;
      }
      if (!p) {
        r.error(pp, "unknown price offer " + detail::show(*it) + "; offers for " + d.id + ": " +
                        (known.empty() ? "none (give usd_per_device_hour)" : known));
      } else if (!p->device.empty() && p->device != d.id && !d.user_supplied) {
        r.error(pp, "price offer \"" + p->id + "\" is for " + p->device + ", not " + d.id +
                        "; offers for " + d.id + ": " + (known.empty() ? "none" : known));
      } else {
        *out = *p;
      }
    } else if (r.object(*it, pp)) {
      PriceOffer p;
      p.id = "custom";
      p.provider = "user";
      p.offer_kind = "on_demand";
      json copy = *it;
      if (!copy.contains("id")) copy["id"] = "custom";
      if (detail::read_price(r, copy, pp, &p)) {
        p.user_supplied = true;
        *out = p;
      }
    }
  }
  double usd = 0;
  if (r.number(obj, "usd_per_device_hour", path, kUsdR, &usd)) {
    out->usd_per_device_hour = usd;
    out->id = "custom";
    out->provider = "user";
    out->offer = "user-supplied rate";
    out->offer_kind = out->offer_kind.empty() ? "on_demand" : out->offer_kind;
    out->source = "entered by the user";
    out->user_supplied = true;
  }
}

json write_price_choice(const PriceOffer& p) {
  if (!p.user_supplied) return p.id;
  json j = price_json(p);
  j.erase("user_supplied");
  return j;
}

}  // namespace detail

namespace {

using detail::json;
using detail::Range;
using detail::Reader;

using detail::kBandwidthR;
using detail::kBytesPerParam;
using detail::kDays;
using detail::kDegree;
using detail::kFraction;
using detail::kSmallBytes;
using detail::kTokensR;
using detail::kUsdR;
using detail::read_precision;
using detail::read_price_choice;
using detail::read_serving;
using detail::read_training;
constexpr double kShapeEditTolerance = 0.05;    // an edited preset's 12·L·h² against its params
constexpr double kCustomShapeTolerance = 0.25;  // a custom dense model against 12·L·h² + 2·V·h
constexpr double kEmbeddingMatrices = 2;        // input embedding and output head, untied

const Model* resolve_model(Reader& r, const json& doc, const Catalog& c, Model* out) {
  auto it = doc.find("model");
  const Model* fallback = c.find_model("dense-1t");
  if (it == doc.end()) {
    if (fallback) *out = *fallback;
    return fallback;
  }
  if (it->is_string()) {
    const Model* m = c.find_model(it->get<std::string>());
    if (!m) r.error("model", "unknown model " + detail::show(*it) + "; known: " + c.model_ids());
    else *out = *m;
    return m;
  }
  if (!r.object(*it, "model")) return nullptr;
  std::string preset;
  if (r.string(*it, "preset", "model", &preset)) {
    const Model* m = c.find_model(preset);
    if (!m) {
      r.error("model.preset", "unknown model " + echo_quoted(preset) + "; known: " + c.model_ids());
      return nullptr;
    }
    *out = *m;
  } else {
    *out = Model{};
    out->id = "custom";
    out->name = "Custom model";
    out->user_supplied = true;
  }
  detail::read_model_fields(r, *it, "model", out);
  if (!preset.empty() && it->size() > 1) out->user_supplied = true;
  if (!detail::validate_model(r, out, "model")) return nullptr;
  return out;
}

// The model as scenario input: the whole record, so that it re-reads to the same shape.
json write_model(const Model& m) {
  json j = model_to_json(m);
  j.erase("user_supplied");
  return j;
}

bool resolve_device(Reader& r, const json& doc, const Catalog& c, Scenario* s) {
  Device& d = s->device;
  const json* obj = nullptr;
  bool have = false;
  auto it = doc.find("device");
  std::string system_id;
  if (auto sit = doc.find("system"); sit != doc.end() && sit->is_string() && sit->get_ref<const std::string&>().empty()) {
    r.error("system", "must be a system id (or omitted); got an empty string; known: " + c.system_ids());
    return false;
  }
  if (auto sit = doc.find("system"); sit != doc.end()) {
    if (!sit->is_string()) {
      r.error("system", "must be a system id string; known: " + c.system_ids());
      return false;
    }
    system_id = sit->get<std::string>();
  }
  const System* sys = nullptr;
  if (!system_id.empty()) {
    sys = c.find_system(system_id);
    if (!sys) {
      r.error("system", "unknown system " + echo_quoted(system_id) + "; known: " + c.system_ids());
      return false;
    }
  }
  if (it == doc.end()) {
    const Device* base = c.find_device(sys ? sys->device : "gb200");
    if (!base) {
      r.error("device", "is required: no default device in the catalog");
      return false;
    }
    d = *base;
    have = true;
  } else if (it->is_string()) {
    const Device* base = c.find_device(it->get<std::string>());
    if (!base) {
      r.error("device", "unknown device " + detail::show(*it) + "; known: " + c.device_ids());
      return false;
    }
    d = *base;
    have = true;
  } else if (r.object(*it, "device")) {
    obj = &*it;
    std::string preset;
    if (r.string(*it, "preset", "device", &preset)) {
      const Device* base = c.find_device(preset);
      if (!base) {
        r.error("device.preset", "unknown device " + echo_quoted(preset) + "; known: " + c.device_ids());
        return false;
      }
      d = *base;
    } else {
      d = Device{};
      d.id = "custom";
      d.name = "Custom device";
      d.user_supplied = true;
    }
    have = true;
  }
  if (!have) return false;
  if (sys) {
    if (sys->device != d.id && obj == nullptr) {
      r.error("system", "system \"" + sys->id + "\" holds " + sys->device + ", not " + d.id);
      return false;
    }
    s->system_id = sys->id;
    if (sys->scale_up_domain > 0) d.scale_up_domain = sys->scale_up_domain;
    if (sys->scale_up_bytes_per_s > 0) d.scale_up_bytes_per_s = sys->scale_up_bytes_per_s;
    if (sys->scale_out_bytes_per_s > 0) d.scale_out_bytes_per_s = sys->scale_out_bytes_per_s;
    if (sys->system_w_per_device > 0) d.system_w = sys->system_w_per_device;
  }
  if (obj) {
    detail::read_device_fields(r, *obj, "device", &d, nullptr);
    if (obj->size() > 1 || obj->find("preset") == obj->end()) d.user_supplied = true;
    if (!detail::validate_device(r, d, "device")) return false;
  }
  return true;
}

// The device as scenario input: the whole record (its system's values applied) without the
// catalog's defaults and the leaves it does not know.
json write_device(const Device& d) {
  json j = device_to_json(d);
  j.erase("user_supplied");
  j.erase("default_system");
  j.erase("default_price");
  if (j["scale_out_bytes_per_s"].is_null()) j.erase("scale_out_bytes_per_s");
  if (j["system_w"].is_null()) j.erase("system_w");
  return j;
}

void read_power(Reader& r, const json& doc, Scenario* s) {
  s->power.system_w_per_device = s->device.capped_system_w();
  auto it = doc.find("power");
  if (it == doc.end() || !r.object(*it, "power")) return;
  r.only_keys(*it, "power", {"pue", "system_w_per_device"});
  r.number(*it, "pue", "power", Range{1, 5}, &s->power.pue);
  r.number(*it, "system_w_per_device", "power", Range{1, 1e7}, &s->power.system_w_per_device);
}

json write_power(const PowerInputs& p) {
  json j = json_object({{"pue", p.pue}});
  if (p.system_w_per_device > 0) j["system_w_per_device"] = p.system_w_per_device;
  return j;
}

void cross_checks(const Scenario& s, std::vector<Issue>* warnings) {
  const Layout& l = s.training.layout;
  const Model& m = s.model;
  auto warn = [&](const std::string& path, const std::string& msg) { warnings->push_back({path, msg}); };
  if (l.pp <= m.layers && std::fmod(m.layers, l.pp) != 0) warn("training.layout.pp", "does not divide the " + num(m.layers) + " layers; stages are uneven");
  if (l.tp > s.device.scale_up_domain) warn("training.layout.tp", "is larger than the scale-up domain of " + num(s.device.scale_up_domain) + " devices: tensor-parallel traffic crosses the slow network");
  if (s.serving.tp > s.device.scale_up_domain) warn("serving.tp", "is larger than the scale-up domain: decode all-reduces cross the slow network");
  const ServingInputs& v = s.serving;
  if (v.layout_given && !v.workload_given) {
    warn("serving.layout", "is used only by the serving performance model, which needs serving.workload; it is ignored");
  }
  if (m.attention.window > 0) {
    warn("model.attention.window", "the sliding window is counted by the training layout model (attention FLOPs and "
                                   "time) and by the serving performance model (serving.performance: windowed layers "
                                   "keep and read only their window of KV); the seed's serving ceilings (serving.kv_bytes "
                                   "and the figures drawn from it) still cache the whole context in every layer, an "
                                   "upper bound");
  }
  if (v.workload_given && v.layout.tp > s.device.scale_up_domain) {
    warn("serving.layout.tp", "is larger than the scale-up domain of " + num(s.device.scale_up_domain) +
                                  " devices: every all-reduce of every layer crosses the slow network");
  }
}

// Warns at model.params when the shape and the stated parameter count disagree: an edited preset
// whose 12·L·h² moved more than 5% against its params from where the preset had it, or a custom
// dense model more than 25% from 12·L·h² + 2·V·h (real dense models with SwiGLU MLPs and large
// vocabularies sit within about 10%). MoE stacks are not a 12·L·h² stack and are not checked.
void shape_check(const json& doc, const Catalog& c, const Model& m, std::vector<Issue>* warnings) {
  const auto it = doc.find("model");
  if (it == doc.end() || !it->is_object() || m.params <= 0) return;
  const double stack = dense_stack_params(m.layers, m.hidden);
  const Model* preset = it->contains("preset") && (*it)["preset"].is_string()
                            ? c.find_model((*it)["preset"].get<std::string>()) : nullptr;
  if (!preset && !m.moe.enabled()) {
    const double shape = stack + kEmbeddingMatrices * m.vocab * m.hidden;
    if (std::fabs(shape / m.params - 1) > kCustomShapeTolerance) {
      warnings->push_back({"model.params", "is " + fmt::count(m.params) + " but the shape (" + num(m.layers) + " layers, hidden " +
                                               num(m.hidden) + (m.vocab > 0 ? ", vocabulary " + num(m.vocab) : "") +
                                               ") gives about " + fmt::count(shape) + " (12·L·h² + 2·V·h); check both"});
    }
    return;
  }
  if (preset && preset->params > 0 && !it->contains("params")) {
    const double before = dense_stack_params(preset->layers, preset->hidden) / preset->params;
    const double now = stack / m.params;
    if (std::fabs(now / before - 1) > kShapeEditTolerance) {
      warnings->push_back({"model.params", "is still " + fmt::count(m.params) + " while the edited shape (" + num(m.layers) +
                                               " layers, hidden " + num(m.hidden) + ") moved 12·L·h² by " +
                                               fmt::percent(now / before - 1) + " against it; update model.params" +
                                               (m.moe.enabled() ? " and model.active_params" : "")});
    }
  }
}

}  // namespace

ParsedScenario parse_scenario(std::string_view text, const Catalog& catalog) {
  ParsedScenario out;
  out.scenario = default_scenario(catalog);
  Reader r(&out.issues);
  if (text.size() > kMaxScenarioBytes) {
    r.error("", "is too large (" + std::to_string(text.size()) + " bytes; at most " + std::to_string(kMaxScenarioBytes) + ")");
    return out;
  }
  const JsonDocument parsed = parse_json(text, kMaxScenarioBytes);
  if (!parsed.ok()) {
    r.error("", parsed.error);
    return out;
  }
  const json& doc = parsed.value;
  if (!r.object(doc, "")) return out;
  r.only_keys(doc, "", {"schema", "name", "description", "model", "device", "system", "training", "serving", "power",
                       "ownership", "carbon", "uncertainty"});
  if (auto it = doc.find("schema"); it != doc.end() && *it != "sizer.scenario.v1") {
    r.error("schema", "must be \"sizer.scenario.v1\" (or omitted); got " + detail::show(*it));
  }
  Scenario s;
  if (!resolve_model(r, doc, catalog, &s.model)) {
    if (out.issues.empty()) r.error("model", "could not be resolved");
    return out;
  }
  if (!resolve_device(r, doc, catalog, &s)) {
    if (out.issues.empty()) r.error("device", "could not be resolved");
    return out;
  }
  read_training(r, doc, catalog, &s);
  read_serving(r, doc, catalog, &s);
  read_power(r, doc, &s);
  detail::read_operations(r, doc, catalog, &s);
  if (!out.issues.empty()) return out;
  detail::check_serve_model(r, &s);
  if (!out.issues.empty()) return out;
  const auto tit = doc.find("training");
  const bool layout_given = tit != doc.end() && tit->is_object() && tit->contains("layout");
  // A layout that writes no parallel degree (only its batch, sequence or switches) takes the
  // default degrees chosen for what it does write, e.g. a data-parallel width that splits its
  // global batch: a default the user never wrote is not what a scenario is refused for.
  bool degrees_given = false;
  if (layout_given && (*tit)["layout"].is_object()) {
    for (const char* k : {"tp", "pp", "dp", "ep", "cp", "virtual_stages"}) degrees_given |= (*tit)["layout"].contains(k);
  }
  if (!layout_given || !degrees_given) s.training.layout = detail::default_training_layout(s);
  detail::check_layout(s, layout_given, &out.issues, &out.warnings);
  if (!out.issues.empty()) return out;
  cross_checks(s, &out.warnings);
  shape_check(doc, catalog, s.model, &out.warnings);
  out.scenario = std::move(s);
  return out;
}

Scenario default_scenario(const Catalog& catalog) {
  std::vector<Issue> ignored;
  Reader r(&ignored);
  Scenario s;
  const json empty = json::object();
  if (const Model* m = catalog.find_model("dense-1t")) s.model = *m;
  if (const Device* d = catalog.find_device("gb200")) s.device = *d;
  read_training(r, empty, catalog, &s);
  read_serving(r, empty, catalog, &s);
  read_power(r, empty, &s);
  detail::read_operations(r, empty, catalog, &s);
  return s;
}

json scenario_to_json(const Scenario& s) {
  json j = json_object(
      {{"schema", kScenarioSchema}, {"model", write_model(s.model)}, {"device", write_device(s.device)}});
  if (!s.system_id.empty()) j["system"] = s.system_id;
  j["training"] = detail::write_training(s.training);
  j["serving"] = detail::write_serving(s.serving);
  j["power"] = write_power(s.power);
  detail::write_operations(s, &j);
  return j;
}

}  // namespace sizer
