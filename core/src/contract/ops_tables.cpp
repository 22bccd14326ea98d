// Reading the operations tables (assets/operations.json, or a user's tables): failure rates per
// device-day, capital costs, grid carbon intensities. Every record must carry its source.
#include <string>

#include "contract/records.h"
#include "sizer/contract/user_text.h"

namespace sizer::detail {

namespace {

const Range kRate{0, 1};                      // failures per device-day
const Range kDomainDevices{1, 1e5, false, true};
const Range kUsdDevice{1, 1e8};               // capital per device
const Range kShare{0, 10};
const Range kKg{0, 1e6};
const Range kIntensity{0, 2000};              // g CO2e per kWh
const Range kYear{1900, 2200, false, true};

bool need(Reader& r, const json& obj, const char* key, const std::string& path, std::string* out, const char* what) {
  if (r.string(obj, key, path, out) && !out->empty()) return true;
  r.error(join(path, key), std::string("is required: ") + what);
  return false;
}

}  // namespace

bool read_failure_rates(Reader& r, const json& obj, const std::string& path, FailureRates* f) {
  r.only_keys(obj, path, {"id", "device", "host", "network", "software", "failure_domain_devices", "basis",
                          "source", "date", "note", "notes"});
  bool ok = need(r, obj, "id", path, &f->id, "a device id such as \"h100\", or \"default\"");
  ok = need(r, obj, "source", path, &f->source, "where the rates come from") && ok;
  r.string(obj, "date", path, &f->date);
  r.string(obj, "basis", path, &f->basis);
  for (auto [key, out] : {std::pair{"device", &f->device}, {"host", &f->host}, {"network", &f->network},
                          {"software", &f->software}}) {
    if (obj.find(key) != obj.end() && !r.number(obj, key, path, kRate, out)) ok = false;
  }
  if (obj.find("failure_domain_devices") != obj.end() &&
      !r.number(obj, "failure_domain_devices", path, kDomainDevices, &f->failure_domain_devices)) {
    ok = false;
  }
  if (ok && f->total() <= 0) {
    r.error(join(path, "device"), "at least one failure rate (device, host, network, software) must be above 0");
    ok = false;
  }
  return ok;
}

bool read_capital(Reader& r, const json& obj, const std::string& path, CapitalCost* c) {
  r.only_keys(obj, path, {"id", "device", "usd_per_device", "network_storage_fraction",
                          "embodied_kg_co2e_per_device", "source", "date", "embodied_source", "note", "notes"});
  bool ok = need(r, obj, "id", path, &c->id, "a short id such as \"hgx-h100\"");
  ok = need(r, obj, "device", path, &c->device, "the device id the price is for") && ok;
  ok = need(r, obj, "source", path, &c->source, "where the price comes from") && ok;
  r.string(obj, "date", path, &c->date);
  r.string(obj, "embodied_source", path, &c->embodied_source);
  if (!r.number(obj, "usd_per_device", path, kUsdDevice, &c->usd_per_device)) {
    if (obj.find("usd_per_device") == obj.end()) r.error(join(path, "usd_per_device"), "is required: USD per device");
    ok = false;
  }
  if (obj.find("network_storage_fraction") != obj.end() &&
      !r.number(obj, "network_storage_fraction", path, kShare, &c->network_storage_fraction)) {
    ok = false;
  }
  if (obj.find("embodied_kg_co2e_per_device") != obj.end() &&
      !r.number(obj, "embodied_kg_co2e_per_device", path, kKg, &c->embodied_kg_co2e_per_device)) {
    ok = false;
  }
  return ok;
}

bool read_grid(Reader& r, const json& obj, const std::string& path, GridIntensity* g) {
  r.only_keys(obj, path, {"id", "name", "g_co2e_per_kwh", "year", "source", "note", "notes"});
  bool ok = need(r, obj, "id", path, &g->id, "a short id such as \"us\"");
  ok = need(r, obj, "source", path, &g->source, "where the intensity comes from") && ok;
  r.string(obj, "name", path, &g->name);
  if (!r.number(obj, "g_co2e_per_kwh", path, kIntensity, &g->g_co2e_per_kwh)) {
    if (obj.find("g_co2e_per_kwh") == obj.end()) r.error(join(path, "g_co2e_per_kwh"), "is required: g CO2e per kWh");
    ok = false;
  }
  if (obj.find("year") != obj.end() && !r.number(obj, "year", path, kYear, &g->year)) ok = false;
  return ok;
}

}  // namespace sizer::detail
