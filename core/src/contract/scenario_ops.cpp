// The scenario's operations blocks (docs/operations.md, docs/contract.md): training.reliability,
// training.storage, ownership, carbon and uncertainty, read with the bundled tables' defaults
// (assets/operations.json) and written back. Every value is range-checked and every error names
// its field.
#include <algorithm>
#include <string>
#include <utility>

#include "contract/scenario_parts.h"
#include "sizer/contract/json_object.h"
#include "sizer/contract/scenario_parse.h"
#include "sizer/contract/user_text.h"
#include "sizer/formulas/working.h"

namespace sizer::detail {

namespace {

const Range kRateR{0, 1};
const Range kSecondsR{0, 1e8};
const Range kIntervalR{1, 1e8};
const Range kDomainR{1, 1e5, false, true};
const Range kSpareR{0, 1e4, false, true};
const Range kPerDayR{0, 1000};
const Range kCapacityR{0, 1e21};
const Range kRetainedR{1, 1000, false, true};
const Range kShareR{0.001, 0.999};
const Range kRepeatR{0.001, 1000};
const Range kYearsR{0.1, 50};
const Range kKwhR{0, 10};
const Range kColoR{0, 1e5};
const Range kOpsR{0, 10};
const Range kUsdDeviceR{1, 1e8};
const Range kNsfR{0, 10};
const Range kIntensityR{0, 2000};
const Range kKgR{0, 1e6};
const Range kScaleR{0.001, 1000};
const Range kSamplesR{100, 20000, false, true};

void read_rates(Reader& r, const json& v, const std::string& path, FailureRates* f) {
  if (v.is_number()) {  // a total: the default split, scaled
    double total = 0;
    if (!r.number_value(v, path, Range{0, 1}, &total)) return;
    const double old = f->total();
    if (old > 0) {
      const double k = total / old;
      f->device *= k, f->host *= k, f->network *= k, f->software *= k;
    } else {
      const std::string id = f->id;
      const double domain = f->failure_domain_devices;
      *f = FailureRates{};
      f->id = id, f->device = total, f->failure_domain_devices = domain;
    }
    f->source = "given in the scenario (total " + num(total) + " per device-day; split as " + f->basis + "'s)";
    return;
  }
  if (!r.object(v, path)) return;
  r.only_keys(v, path, {"device", "host", "network", "software"});
  for (auto [key, out] : {std::pair{"device", &f->device}, {"host", &f->host}, {"network", &f->network},
                          {"software", &f->software}}) {
    r.number(v, key, path, kRateR, out);
  }
  f->source = "given in the scenario";
}

void read_reliability(Reader& r, const json& o, const std::string& path, ReliabilityInputs* q) {
  r.only_keys(o, path, {"failures_per_device_day", "failure_domain_devices", "checkpoint", "checkpoint_interval_s",
                        "host_copy_bytes_per_s", "read_bytes_per_s", "requeue_s", "warmup_s", "repair_s",
                        "spare_domains", "planned_per_day"});
  if (auto it = o.find("failures_per_device_day"); it != o.end()) {
    read_rates(r, *it, path + ".failures_per_device_day", &q->rates);
    q->rates_fallback = false;
    q->rates_given = true;
  }
  r.number(o, "failure_domain_devices", path, kDomainR, &q->failure_domain_devices);
  std::string mode;
  if (r.string(o, "checkpoint", path, &mode)) {
    if (mode == "sync") q->checkpoint = CheckpointMode::sync;
    else if (mode == "async") q->checkpoint = CheckpointMode::async;
    else r.error(path + ".checkpoint", "must be \"sync\" or \"async\"; got " + echo_quoted(mode));
  }
  if (auto it = o.find("checkpoint_interval_s"); it != o.end()) {
    if (it->is_string() && *it == "optimal") q->checkpoint_interval_s = 0;
    else if (!it->is_number()) r.error(path + ".checkpoint_interval_s", "must be a number of seconds in [1, 1e8] or \"optimal\"; got " + show(*it));
    else r.number(o, "checkpoint_interval_s", path, kIntervalR, &q->checkpoint_interval_s);
  }
  r.number(o, "host_copy_bytes_per_s", path, kBandwidthR, &q->host_copy_bytes_per_s);
  r.number(o, "read_bytes_per_s", path, kBandwidthR, &q->read_bytes_per_s);
  r.number(o, "requeue_s", path, kSecondsR, &q->requeue_s);
  r.number(o, "warmup_s", path, kSecondsR, &q->warmup_s);
  r.number(o, "repair_s", path, kSecondsR, &q->repair_s);
  if (auto it = o.find("spare_domains"); it != o.end()) {
    if (it->is_string() && *it == "auto") q->spare_domains = -1;
    else if (!it->is_number()) r.error(path + ".spare_domains", "must be a whole number in [0, 10000] or \"auto\"; got " + show(*it));
    else r.number(o, "spare_domains", path, kSpareR, &q->spare_domains);
  }
  r.number(o, "planned_per_day", path, kPerDayR, &q->planned_per_day);
}

json write_reliability(const ReliabilityInputs& q) {
  json j = json_object({{"failure_domain_devices", q.failure_domain_devices},
                        {"checkpoint", to_string(q.checkpoint)},
                        {"host_copy_bytes_per_s", q.host_copy_bytes_per_s},
                        {"requeue_s", q.requeue_s}, {"warmup_s", q.warmup_s}, {"repair_s", q.repair_s},
                        {"planned_per_day", q.planned_per_day}});
  if (q.rates_given) {
    j["failures_per_device_day"] = json_object({{"device", q.rates.device}, {"host", q.rates.host},
                                                {"network", q.rates.network}, {"software", q.rates.software}});
  }
  if (q.checkpoint_interval_s > 0) j["checkpoint_interval_s"] = q.checkpoint_interval_s;
  if (q.read_bytes_per_s > 0) j["read_bytes_per_s"] = q.read_bytes_per_s;
  if (q.spare_domains >= 0) j["spare_domains"] = q.spare_domains;
  return j;
}

void read_storage(Reader& r, const json& o, const std::string& path, StorageInputs* q) {
  r.only_keys(o, path, {"capacity_bytes", "read_bytes_per_s", "retained_checkpoints", "overhead_target",
                        "bytes_per_token", "repeat"});
  r.number(o, "capacity_bytes", path, kCapacityR, &q->capacity_bytes);
  r.number(o, "read_bytes_per_s", path, kBandwidthR, &q->read_bytes_per_s);
  r.number(o, "retained_checkpoints", path, kRetainedR, &q->retained_checkpoints);
  r.number(o, "overhead_target", path, kShareR, &q->overhead_target);
  r.number(o, "bytes_per_token", path, kSmallBytes, &q->bytes_per_token);
  r.number(o, "repeat", path, kRepeatR, &q->repeat);
}

json write_storage(const StorageInputs& g) {
  json j = json_object({{"retained_checkpoints", g.retained_checkpoints}, {"overhead_target", g.overhead_target},
                        {"bytes_per_token", g.bytes_per_token}, {"repeat", g.repeat}});
  if (g.capacity_bytes > 0) j["capacity_bytes"] = g.capacity_bytes;
  if (g.read_bytes_per_s > 0) j["read_bytes_per_s"] = g.read_bytes_per_s;
  return j;
}

void read_ownership(Reader& r, const json& o, const Catalog& c, OwnershipInputs* q) {
  const std::string path = "ownership";
  r.only_keys(o, path, {"capital", "usd_per_device", "network_storage_fraction", "depreciation_years", "usd_per_kwh",
                        "colo_usd_per_kw_month", "ops_fraction_per_year"});
  std::string id;
  if (r.string(o, "capital", path, &id)) {
    if (const CapitalCost* k = c.find_capital(id)) {
      q->capital = *k;
      q->capital_known = true;
    } else {
      r.error("ownership.capital", "unknown capital cost " + echo_quoted(id) + "; known: " + c.capital_ids());
    }
  }
  if (r.number(o, "usd_per_device", path, kUsdDeviceR, &q->capital.usd_per_device)) {
    q->capital_known = true;
    q->usd_given = true;
    if (q->capital.id.empty()) q->capital.id = "given";
    q->capital.source = "given in the scenario";
  }
  r.number(o, "network_storage_fraction", path, kNsfR, &q->capital.network_storage_fraction);
  r.number(o, "depreciation_years", path, kYearsR, &q->depreciation_years);
  if (r.number(o, "usd_per_kwh", path, kKwhR, &q->usd_per_kwh)) q->usd_per_kwh_source = "given in the scenario";
  if (r.number(o, "colo_usd_per_kw_month", path, kColoR, &q->colo_usd_per_kw_month)) q->colo_source = "given in the scenario";
  r.number(o, "ops_fraction_per_year", path, kOpsR, &q->ops_fraction_per_year);
}

json write_ownership(const OwnershipInputs& o) {
  json j = json_object({{"depreciation_years", o.depreciation_years}, {"usd_per_kwh", o.usd_per_kwh},
                        {"colo_usd_per_kw_month", o.colo_usd_per_kw_month},
                        {"ops_fraction_per_year", o.ops_fraction_per_year},
                        {"network_storage_fraction", o.capital.network_storage_fraction}});
  if (o.capital_known && !o.usd_given) j["capital"] = o.capital.id;
  if (o.usd_given) j["usd_per_device"] = o.capital.usd_per_device;
  return j;
}

void read_carbon(Reader& r, const json& o, const Catalog& c, Scenario* s) {
  const std::string path = "carbon";
  CarbonInputs* q = &s->carbon;
  r.only_keys(o, path, {"region", "g_co2e_per_kwh", "embodied_kg_co2e_per_device", "lifetime_years"});
  std::string id;
  if (r.string(o, "region", path, &id)) {
    if (const GridIntensity* g = c.find_grid(id)) q->grid = *g;
    else r.error("carbon.region", "unknown region " + echo_quoted(id) + "; known: " + c.grid_ids());
  }
  if (r.number(o, "g_co2e_per_kwh", path, kIntensityR, &q->grid.g_co2e_per_kwh)) {
    q->grid.source = "given in the scenario";
    q->intensity_given = true;
    if (o.find("region") == o.end()) q->grid.id = "given", q->grid.name = "given";
  }
  if (r.number(o, "embodied_kg_co2e_per_device", path, kKgR, &s->ownership.capital.embodied_kg_co2e_per_device)) {
    s->ownership.capital.embodied_source = "given in the scenario";
    s->ownership.embodied_given = true;
  }
  r.number(o, "lifetime_years", path, kYearsR, &q->lifetime_years);
}

// The embodied carbon is read into, and written from, the ownership inputs' capital cost.
json write_carbon(const Scenario& s) {
  const OwnershipInputs& o = s.ownership;
  json j = json_object({{"lifetime_years", s.carbon.lifetime_years}});
  if (!s.carbon.grid.id.empty() && s.carbon.grid.id != "given") j["region"] = s.carbon.grid.id;
  if (s.carbon.intensity_given) j["g_co2e_per_kwh"] = s.carbon.grid.g_co2e_per_kwh;
  if (o.embodied_given) j["embodied_kg_co2e_per_device"] = o.capital.embodied_kg_co2e_per_device;
  return j;
}

bool read_range(Reader& r, const json& o, const char* key, const std::string& path, Range allowed, UncertainRange* out) {
  auto it = o.find(key);
  if (it == o.end()) return false;
  const std::string p = join(path, key);
  if (!it->is_array() || it->size() != 2) {
    r.error(p, "must be [low, high], each " + describe(allowed) + "; got " + show(*it));
    return false;
  }
  double lo = 0, hi = 0;
  const bool ok = r.number_value((*it)[0], index(p, 0), allowed, &lo) && r.number_value((*it)[1], index(p, 1), allowed, &hi);
  if (!ok) return false;
  if (lo > hi) {
    r.error(p, "low (" + num(lo) + ") must not be above high (" + num(hi) + ")");
    return false;
  }
  *out = UncertainRange{lo, hi, true};
  return true;
}

json write_range(const UncertainRange& r) { return json::array({r.low, r.high}); }

void read_uncertainty(Reader& r, const json& o, UncertaintyInputs* q) {
  const std::string path = "uncertainty";
  r.only_keys(o, path, {"mfu", "usd_per_device_hour", "goodput", "failure_rate_scale", "tokens",
                        "serving_usd_per_device_hour", "realised_fraction", "utilisation", "distribution", "samples"});
  read_range(r, o, "mfu", path, kFraction, &q->mfu);
  read_range(r, o, "usd_per_device_hour", path, kUsdR, &q->usd_per_device_hour);
  read_range(r, o, "goodput", path, kFraction, &q->goodput);
  read_range(r, o, "failure_rate_scale", path, kScaleR, &q->failure_rate_scale);
  read_range(r, o, "tokens", path, kTokensR, &q->tokens);
  read_range(r, o, "serving_usd_per_device_hour", path, kUsdR, &q->serving_usd_per_device_hour);
  read_range(r, o, "realised_fraction", path, kFraction, &q->realised_fraction);
  read_range(r, o, "utilisation", path, kFraction, &q->utilisation);
  std::string d;
  if (r.string(o, "distribution", path, &d)) {
    if (d == "uniform") q->distribution = Distribution::uniform;
    else if (d == "triangular") q->distribution = Distribution::triangular;
    else r.error("uncertainty.distribution", "must be \"uniform\" or \"triangular\"; got " + echo_quoted(d));
  }
  r.number(o, "samples", path, kSamplesR, &q->samples);
}

json write_uncertainty(const UncertaintyInputs& u) {
  json j = json_object({{"distribution", to_string(u.distribution)}, {"samples", u.samples}});
  const std::pair<const char*, const UncertainRange*> ranges[] = {
      {"mfu", &u.mfu}, {"usd_per_device_hour", &u.usd_per_device_hour}, {"goodput", &u.goodput},
      {"failure_rate_scale", &u.failure_rate_scale}, {"tokens", &u.tokens},
      {"serving_usd_per_device_hour", &u.serving_usd_per_device_hour}, {"realised_fraction", &u.realised_fraction},
      {"utilisation", &u.utilisation}};
  for (const auto& [key, r] : ranges) {
    if (r->given) j[key] = write_range(*r);
  }
  return j;
}

}  // namespace

void read_operations(Reader& r, const json& doc, const Catalog& c, Scenario* s) {
  // Defaults from the bundled tables, keyed by the device.
  ReliabilityInputs& q = s->training.reliability;
  apply_device_operations(c, s);
  if (const GridIntensity* g = c.find_grid("us")) s->carbon.grid = *g;
  if (auto it = doc.find("training"); it != doc.end() && it->is_object()) {
    if (auto rit = it->find("reliability"); rit != it->end() && r.object(*rit, "training.reliability")) {
      read_reliability(r, *rit, "training.reliability", &q);
    }
    if (auto sit = it->find("storage"); sit != it->end() && r.object(*sit, "training.storage")) {
      read_storage(r, *sit, "training.storage", &s->training.storage);
    }
  }
  if (auto it = doc.find("ownership"); it != doc.end() && r.object(*it, "ownership")) read_ownership(r, *it, c, &s->ownership);
  if (auto it = doc.find("carbon"); it != doc.end() && r.object(*it, "carbon")) read_carbon(r, *it, c, s);
  if (auto it = doc.find("uncertainty"); it != doc.end() && r.object(*it, "uncertainty")) {
    read_uncertainty(r, *it, &s->uncertainty);
  }
  const UncertaintyInputs& u = s->uncertainty;
  if (u.goodput.given && q.predict_goodput) {
    r.error("uncertainty.goodput", "cannot be given with training.goodput \"predicted\": the prediction has no "
                                   "assumed goodput to vary; give uncertainty.failure_rate_scale instead");
  }
}

void write_operations(const Scenario& s, json* scenario) {
  json& j = *scenario;
  j["training"]["reliability"] = write_reliability(s.training.reliability);
  j["training"]["storage"] = write_storage(s.training.storage);
  j["ownership"] = write_ownership(s.ownership);
  j["carbon"] = write_carbon(s);
  j["uncertainty"] = write_uncertainty(s.uncertainty);
}

}  // namespace sizer::detail
