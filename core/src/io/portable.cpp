// Portable scenarios, imported files and the user's own tables (see portable.h).
#include "sizer/io/portable.h"

#include "sizer/io/model_import.h"

#include "sizer/contract/json_object.h"
#include "sizer/contract/json_safe.h"
#include "sizer/contract/result_json.h"
#include "sizer/contract/scenario_parse.h"

namespace sizer {

using nlohmann::json;

namespace {

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// The id a draft entry names: "x" or {"preset": "x", ...}; "" when it names none.
std::string named_id(const json& draft, const char* key) {
  auto it = draft.find(key);
  if (it == draft.end()) return "";
  if (it->is_string()) return it->get<std::string>();
  if (it->is_object()) {
    auto p = it->find("preset");
    if (p != it->end() && p->is_string()) return p->get<std::string>();
  }
  return "";
}

// A row's id, or "" (never throws on odd rows).
std::string id_of(const json& row) {
  if (!row.is_object()) return "";
  auto it = row.find("id");
  return it != row.end() && it->is_string() ? it->get<std::string>() : "";
}

json price_object(const PriceOffer& p) {
  json j = price_to_json(p);
  j.erase("user_supplied");
  return j;
}

constexpr const char* kTableLists[] = {"devices", "systems", "prices", "models"};

}  // namespace

json portable_scenario(const json& draft, const Catalog& c) {
  if (!draft.is_object()) return draft;
  const ParsedScenario p = parse_scenario(dump(draft), c);
  if (!p.ok()) return draft;
  const Scenario& s = p.scenario;
  json out = draft;
  json resolved;  // made only when needed
  auto resolved_block = [&](const char* key) -> const json& {
    if (resolved.is_null()) resolved = scenario_to_json(s);
    return resolved[key];
  };

  const std::string model_id = named_id(draft, "model");
  if (const Model* m = model_id.empty() ? nullptr : c.find_model(model_id); m && m->user_supplied) {
    out["model"] = resolved_block("model");
  }

  const std::string device_id = named_id(draft, "device");
  const Device* dev = device_id.empty() ? nullptr : c.find_device(device_id);
  const System* sys = s.system_id.empty() ? nullptr : c.find_system(s.system_id);
  const bool user_system = sys && sys->user_supplied;
  if ((dev && dev->user_supplied) || user_system || (!draft.contains("device") && s.device.user_supplied)) {
    out["device"] = resolved_block("device");  // the system's values are already folded in
    if (user_system) out.erase("system");
  }

  auto inline_price = [&](const char* block, const PriceOffer& price) {
    if (!price.user_supplied || price.usd_per_device_hour <= 0) return;
    auto b = out.find(block);
    if (b != out.end() && b->is_object() && b->contains("usd_per_device_hour")) return;  // already a plain rate
    if (b != out.end() && b->is_object() && b->contains("price") && (*b)["price"].is_object()) return;  // inline
    if (std::string(block) == "serving" && (b == out.end() || !b->is_object() || !b->contains("price"))) return;
    out[block]["price"] = price_object(price);
  };
  inline_price("training", s.training.price);
  inline_price("serving", s.serving.price);
  return out;
}

Imported import_document(std::string_view text, const Catalog& catalog) {
  Imported out;
  auto refuse = [&](std::string path, std::string message) {
    out.issues.push_back({std::move(path), std::move(message)});
    out.kind = ImportKind::none;
    return out;
  };
  if (text.size() > kMaxImportBytes) {
    return refuse("", "is too large (" + std::to_string(text.size()) + " bytes; at most " +
                          std::to_string(kMaxImportBytes) + ")");
  }
  JsonDocument parsed = parse_json(text, kMaxImportBytes);
  if (!parsed.ok()) return refuse("", parsed.error);
  json doc = std::move(parsed.value);
  if (!doc.is_object()) return refuse("", "must be a JSON object: a Sizer scenario, result or table file");
  if (auto it = doc.find("schema"); it != doc.end() && *it == kResultSchema) {
    auto sc = doc.find("scenario");
    if (sc == doc.end() || !sc->is_object()) return refuse("scenario", "is missing from this result file");
    doc = *sc;
  }
  bool tables = false, scenario = false;
  for (const char* k : kTableLists) tables = tables || doc.contains(k);
  for (const char* k : {"model", "device", "system", "training", "serving", "power"}) scenario = scenario || doc.contains(k);
  if (!tables && !scenario && (doc.contains("model_type") || doc.contains("architectures"))) {
    const ImportedModel m = import_hf_config(text);  // a Hugging Face config.json
    if (!m.ok()) {
      for (const Issue& i : m.issues) out.issues.push_back({i.path.empty() ? "config" : "config." + i.path, i.message});
      return out;
    }
    doc = json_object({{"model", m.model}});
    if (!m.weight_precision.empty()) doc["serving"] = json_object({{"weight_precision", m.weight_precision}});
    out.notes = m.notes;
    scenario = true;
  }
  if (tables && scenario) {
    return refuse("", "mixes a scenario (model, device, ...) with table lists (devices, prices, ...); "
                      "import them as two files");
  }
  if (tables) {
    out.kind = ImportKind::tables;
    out.catalog = catalog;
    out.issues = merge_tables(out.catalog, text, true);
    if (!out.issues.empty()) {
      out.kind = ImportKind::none;
      out.catalog = Catalog{};
      return out;
    }
    out.tables = json::object();
    for (const char* k : kTableLists) {
      if (doc.contains(k)) out.tables[k] = doc[k];
    }
    return out;
  }
  const ParsedScenario p = parse_scenario(dump(doc), catalog);
  if (!p.ok()) {
    out.issues = p.issues;
    return out;
  }
  out.kind = ImportKind::scenario;
  out.scenario = std::move(doc);
  return out;
}

std::vector<Issue> upsert_user_tables(json* tables, const json& rows) {
  json next = tables && tables->is_object() ? *tables : json::object();
  if (!rows.is_object()) return {{"", "must be an object of table lists"}};
  for (const char* k : kTableLists) {
    auto list = rows.find(k);
    if (list == rows.end()) continue;
    if (!list->is_array()) return {{k, "must be a list"}};
    json& dst = next[k];
    if (!dst.is_array()) dst = json::array();
    for (const json& row : *list) {
      bool replaced = false;
      for (json& x : dst) {
        if (!id_of(row).empty() && id_of(x) == id_of(row)) {
          x = row;
          replaced = true;
        }
      }
      if (!replaced) dst.push_back(row);
    }
  }
  Catalog check = bundled_catalog();
  std::vector<Issue> issues = merge_tables(check, dump(next), true);
  if (issues.empty() && tables) *tables = std::move(next);
  return issues;
}

void remove_user_row(json* tables, const std::string& list, const std::string& id) {
  if (!tables || !tables->is_object() || !tables->contains(list) || !(*tables)[list].is_array()) return;
  json& rows = (*tables)[list];
  for (std::size_t i = rows.size(); i-- > 0;) {
    if (id_of(rows[i]) == id) rows.erase(i);
  }
}

Catalog user_catalog(const json& tables, std::vector<Issue>* issues) {
  Catalog c = bundled_catalog();
  if (tables.is_object() && !tables.empty()) {
    std::vector<Issue> found = merge_tables(c, dump(tables), true);
    if (issues) *issues = std::move(found);
  }
  return c;
}

}  // namespace sizer
