// Catalog loading: the bundled tables and user tables merged into them (see
// sizer/contract/catalog_load.h).
#include "sizer/contract/catalog_load.h"

#include "contract/records.h"
#include "sizer/contract/bundled_assets.h"
#include "sizer/contract/json_safe.h"
#include "sizer/contract/user_text.h"

namespace sizer {

namespace {

template <typename T>
void upsert(std::vector<T>& v, T item) {
  for (T& x : v) {
    if (x.id == item.id) {
      x = std::move(item);
      return;
    }
  }
  v.push_back(std::move(item));
}

bool valid_id(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

std::vector<Issue> merge_tables(Catalog& c, std::string_view text, bool user_supplied) {
  using detail::json;
  std::vector<Issue> issues;
  detail::Reader r(&issues);
  const JsonDocument parsed = parse_json(text, kMaxTablesBytes);
  if (!parsed.ok()) {
    issues.push_back({"", parsed.error});
    return issues;
  }
  const json& doc = parsed.value;
  if (!r.object(doc, "")) return issues;
  r.only_keys(doc, "", {"schema", "meta", "devices", "systems", "prices", "models", "failure_rates", "capital_costs",
                       "grids"});
  auto each = [&](const char* key, auto&& fn) {
    auto it = doc.find(key);
    if (it == doc.end()) return;
    if (!it->is_array()) {
      r.error(key, "must be a list; got " + detail::show(*it));
      return;
    }
    if (it->size() > 10000) {
      r.error(key, "has too many entries (at most 10000)");
      return;
    }
    for (std::size_t i = 0; i < it->size(); ++i) {
      const std::string path = detail::index(key, i);
      if (r.object((*it)[i], path)) fn((*it)[i], path);
    }
  };
  auto id_ok = [&](const std::string& id, const std::string& path) {
    if (valid_id(id)) return true;
    r.error(path + ".id", "must be 1–64 characters of a-z, 0-9, '-', '_' or '.'");
    return false;
  };
  each("devices", [&](const json& o, const std::string& path) {
    const std::size_t before = issues.size();
    Device d;
    std::vector<std::string> aliases;
    detail::read_device_fields(r, o, path, &d, &aliases);
    if (d.scale_up_domain < 1) d.scale_up_domain = 1;
    if (!id_ok(d.id, path) || !detail::validate_device(r, d, path) || issues.size() != before) return;
    d.user_supplied = user_supplied;
    for (const std::string& a : aliases) c.device_aliases.emplace_back(a, d.id);
    upsert(c.devices, std::move(d));
  });
  each("systems", [&](const json& o, const std::string& path) {
    const std::size_t before = issues.size();
    System s;
    if (!detail::read_system(r, o, path, &s) || !id_ok(s.id, path) || issues.size() != before) return;
    if (!c.find_device(s.device)) {
      r.error(path + ".device", "unknown device " + echo_quoted(s.device) + "; known: " + c.device_ids());
      return;
    }
    s.device = c.find_device(s.device)->id;
    s.user_supplied = user_supplied;
    upsert(c.systems, std::move(s));
  });
  each("prices", [&](const json& o, const std::string& path) {
    const std::size_t before = issues.size();
    PriceOffer p;
    if (!detail::read_price(r, o, path, &p) || !id_ok(p.id, path) || issues.size() != before) return;
    if (!p.device.empty()) {
      if (!c.find_device(p.device)) {
        r.error(path + ".device", "unknown device " + echo_quoted(p.device) + "; known: " + c.device_ids());
        return;
      }
      p.device = c.find_device(p.device)->id;
    }
    p.user_supplied = user_supplied;
    upsert(c.prices, std::move(p));
  });
  each("models", [&](const json& o, const std::string& path) {
    const std::size_t before = issues.size();
    Model m;
    detail::read_model_fields(r, o, path, &m);
    if (!id_ok(m.id, path) || !detail::validate_model(r, &m, path) || issues.size() != before) return;
    m.user_supplied = user_supplied;
    upsert(c.models, std::move(m));
  });
  each("failure_rates", [&](const json& o, const std::string& path) {
    const std::size_t before = issues.size();
    FailureRates f;
    if (!detail::read_failure_rates(r, o, path, &f) || issues.size() != before) return;
    if (f.id != "default" && !c.find_device(f.id)) {
      r.error(path + ".id", "unknown device " + echo_quoted(f.id) + "; known: default, " + c.device_ids());
      return;
    }
    if (f.id != "default") f.id = c.find_device(f.id)->id;
    f.user_supplied = user_supplied;
    upsert(c.failure_rates, std::move(f));
  });
  each("capital_costs", [&](const json& o, const std::string& path) {
    const std::size_t before = issues.size();
    CapitalCost k;
    if (!detail::read_capital(r, o, path, &k) || !id_ok(k.id, path) || issues.size() != before) return;
    if (!c.find_device(k.device)) {
      r.error(path + ".device", "unknown device " + echo_quoted(k.device) + "; known: " + c.device_ids());
      return;
    }
    k.device = c.find_device(k.device)->id;
    k.user_supplied = user_supplied;
    upsert(c.capital_costs, std::move(k));
  });
  each("grids", [&](const json& o, const std::string& path) {
    const std::size_t before = issues.size();
    GridIntensity g;
    if (!detail::read_grid(r, o, path, &g) || !id_ok(g.id, path) || issues.size() != before) return;
    g.user_supplied = user_supplied;
    upsert(c.grids, std::move(g));
  });
  return issues;
}

const Catalog& bundled_catalog() {
  static const Catalog kCatalog = [] {
    Catalog c;
    // Devices first: systems and prices refer to them.
    for (const char* name : {"devices.json", "systems.json", "prices.json", "models.json", "operations.json"}) {
      for (const BundledAsset& a : bundled_assets()) {
        if (std::string_view(a.name) == name) merge_tables(c, std::string_view(a.data, a.size), false);
      }
    }
    return c;
  }();
  return kCatalog;
}

}  // namespace sizer
