// Embind bindings of the JS API's sharing functions (links, exports, comparison tables, imports,
// embed cards): JSON text in, JSON text out, forwarding to core/ (share.h, export.h, portable.h,
// embed.h). web/js/sizer-api.js wraps them. Nothing here throws (exceptions are off).
#include <emscripten/bind.h>

#include <string>

#include "sizer/contract/json_object.h"
#include "sizer/contract/json_safe.h"
#include "sizer/sizer.h"
#include "sizer/contract/user_text.h"

using sizer::json_object;

namespace {

using nlohmann::json;

constexpr std::size_t kMaxOptionsBytes = 64u << 10;  // compare() options: two short lists and a format
constexpr std::size_t kMaxEmbedRequestBytes = sizer::kMaxScenarioBytes + (64u << 10);  // a scenario plus names

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string issues_json(const std::vector<sizer::Issue>& list) {
  return dump(json_object({{"issues", sizer::issues_to_json(list)}}));
}

// "s1.…" for a scenario (user-supplied catalog entries inlined); {"link"} or {"issues"}.
std::string encode_link(const std::string& scenario_json) {
  const sizer::ParsedScenario p = sizer::parse_scenario(scenario_json, sizer::bundled_catalog());
  if (!p.ok()) return issues_json(p.issues);
  const json draft = sizer::parse_json(scenario_json, sizer::kMaxScenarioBytes).value;  // checked above
  const std::string link = sizer::encode_share(dump(sizer::portable_scenario(draft, sizer::bundled_catalog())));
  if (link.size() > sizer::kMaxShareChars) return issues_json({{"", "is too large for a link"}});
  return dump(json_object({{"link", link}}));
}

// A link fragment to its scenario, checked by the scenario parser; {"scenario"} or {"issues"}.
std::string decode_link(const std::string& fragment) {
  const sizer::DecodedShare d = sizer::decode_share(fragment);
  if (!d.ok()) return issues_json(d.issues);
  const sizer::ParsedScenario p = sizer::parse_scenario(d.scenario_json, sizer::bundled_catalog());
  if (!p.ok()) return issues_json(p.issues);
  return dump(json_object({{"scenario", sizer::parse_json(d.scenario_json, sizer::kMaxScenarioBytes).value}}));
}

// Results as "json" | "csv" | "markdown" text: {"text"} or {"issues"}.
std::string export_results(const std::string& scenario_json, const std::string& format) {
  const sizer::ParsedScenario p = sizer::parse_scenario(scenario_json, sizer::bundled_catalog());
  if (!p.ok()) return issues_json(p.issues);
  const json r = sizer::result_to_json(p.scenario, sizer::evaluate(p.scenario), p.warnings);
  if (format == "json") {
    return dump(json_object({{"text", r.dump(2, ' ', false, json::error_handler_t::replace) + "\n"}}));
  }
  if (format == "csv") return dump(json_object({{"text", sizer::results_csv(r)}}));
  if (format == "markdown") {
    return dump(json_object({{"text", sizer::results_markdown(r, sizer::user_supplied_what(p.scenario))}}));
  }
  return issues_json({{"format", "must be json, csv or markdown"}});
}

// "Compare chips" rows: options {"precisions": [...], "devices": [...], "format"}; {"text"} or {"issues"}.
std::string compare(const std::string& scenario_json, const std::string& options_json) {
  const sizer::Catalog& c = sizer::bundled_catalog();
  const sizer::ParsedScenario p = sizer::parse_scenario(scenario_json, c);
  if (!p.ok()) return issues_json(p.issues);
  const sizer::JsonDocument parsed = sizer::parse_json(options_json, kMaxOptionsBytes);
  const json& o = parsed.value;
  std::vector<sizer::Precision> precisions;
  std::vector<std::string> devices;
  std::string format = "json";
  std::vector<sizer::Issue> issues;
  if (!parsed.ok()) issues.push_back({"options", parsed.error});
  if (o.is_object()) {
    if (auto it = o.find("precisions"); it != o.end() && it->is_array()) {
      for (const json& x : *it) {
        sizer::Precision prec;
        if (x.is_string() && sizer::parse_precision(x.get<std::string>().c_str(), &prec)) precisions.push_back(prec);
        else issues.push_back({"precisions", "unknown precision " + sizer::echo(dump(x)) + "; allowed: fp32, bf16, fp16, fp8, fp4"});
      }
    }
    if (auto it = o.find("devices"); it != o.end() && it->is_array()) {
      for (const json& x : *it) {
        const std::string id = x.is_string() ? x.get<std::string>() : "";
        if (c.find_device(id) && c.find_device(id)->id == id) devices.push_back(id);
        else issues.push_back({"devices", "unknown device " + sizer::echo(dump(x)) + "; known: " + c.device_ids()});
      }
    }
    if (auto it = o.find("format"); it != o.end() && it->is_string()) format = it->get<std::string>();
  }
  if (precisions.empty()) precisions = {sizer::Precision::bf16, sizer::Precision::fp8};
  const std::string text = sizer::comparison_table(sizer::compare_devices(p.scenario, c, precisions, devices), format);
  if (text.empty()) issues.push_back({"format", "must be json, csv, markdown or text"});
  if (!issues.empty()) return issues_json(issues);
  return dump(json_object({{"text", text}}));
}

// A file's text: {"kind": "scenario", "scenario"} | {"kind": "tables", "tables"} | {"issues"}.
std::string import_document(const std::string& text) {
  const sizer::Imported in = sizer::import_document(text, sizer::bundled_catalog());
  if (!in.ok()) return issues_json(in.issues);
  if (in.kind == sizer::ImportKind::tables) return dump(json_object({{"kind", "tables"}, {"tables", in.tables}}));
  return dump(json_object({{"kind", "scenario"}, {"scenario", in.scenario}}));
}

// Embed cards: the address fragment to a request; a request (JSON) to a card.
std::string embed_request(const std::string& fragment) {
  return dump(sizer::embed_request_to_json(sizer::parse_embed_fragment(fragment)));
}
std::string embed_card(const std::string& request_json) {
  const sizer::JsonDocument parsed = sizer::parse_json(request_json, kMaxEmbedRequestBytes);
  sizer::EmbedRequest q;
  if (parsed.ok()) q = sizer::embed_request_from_json(parsed.value);
  else q.issues.push_back({"", parsed.error});
  return dump(sizer::embed_card_to_json(sizer::embed_card(q, sizer::bundled_catalog())));
}

}  // namespace

EMSCRIPTEN_BINDINGS(sizer_share) {
  emscripten::function("encodeLink", &encode_link);
  emscripten::function("decodeLink", &decode_link);
  emscripten::function("exportResults", &export_results);
  emscripten::function("compare", &compare);
  emscripten::function("importDocument", &import_document);
  emscripten::function("embedRequest", &embed_request);
  emscripten::function("embedCard", &embed_card);
}
