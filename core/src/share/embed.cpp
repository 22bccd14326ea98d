// Embed cards (see embed.h).
//
// [SECTION] Fragment parsing (untrusted)
// [SECTION] Names: result leaves and exposable inputs
// [SECTION] The card
#include "sizer/share/embed.h"

#include <algorithm>

#include "sizer/planners/estimate.h"
#include "sizer/share/export.h"
#include "sizer/contract/json_object.h"
#include "sizer/contract/json_safe.h"
#include "sizer/contract/result_json.h"
#include "sizer/contract/scenario_parse.h"
#include "sizer/share/share.h"
#include "sizer/contract/user_text.h"

namespace sizer {

using nlohmann::json;

namespace {

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// [SECTION] Fragment parsing
int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool percent_decode(std::string_view in, std::string* out) {
  out->clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out->push_back(in[i]);
      continue;
    }
    if (i + 2 >= in.size()) return false;
    const int a = hex(in[i + 1]), b = hex(in[i + 2]);
    if (a < 0 || b < 0) return false;
    out->push_back(static_cast<char>(a * 16 + b));
    i += 2;
  }
  return true;
}

bool name_ok(const std::string& n) {
  if (n.empty() || n.size() > 80) return false;
  for (char c : n) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '[' || c == ']';
    if (!ok) return false;
  }
  return true;
}

std::vector<std::string> split_names(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text + ",") {
    if (c == ',') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur += c;
    }
  }
  return out;
}

// Printable text for a title: control characters dropped, at most kMaxEmbedTitleChars characters.
std::string clean_title(const std::string& in) {
  std::string out;
  std::size_t chars = 0;
  for (char c : in) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) continue;
    if ((u & 0xC0) != 0x80 && ++chars > kMaxEmbedTitleChars) break;
    out += c;
  }
  return out;
}

// A scenario from a data-sizer value: an "s1." link or scenario JSON text.
void read_scenario_text(const std::string& text, EmbedRequest* q) {
  std::string_view t = text;
  while (!t.empty() && (t.front() == ' ' || t.front() == '\n' || t.front() == '\t' || t.front() == '\r')) t.remove_prefix(1);
  if (t.rfind("s1.", 0) == 0 || t.rfind("#s1.", 0) == 0 || (!t.empty() && t.front() != '{')) {
    const DecodedShare d = decode_share(t);
    if (!d.ok()) {
      q->issues.insert(q->issues.end(), d.issues.begin(), d.issues.end());
      return;
    }
    q->scenario = parse_json(d.scenario_json, kMaxScenarioBytes).value;  // checked by decode_share
    return;
  }
  JsonDocument parsed = parse_json(t, kMaxScenarioBytes);
  if (!parsed.ok()) {
    q->issues.push_back({"scenario", parsed.error});
    return;
  }
  json j = std::move(parsed.value);
  if (!j.is_object()) {
    q->issues.push_back({"scenario", "is not a scenario: give its JSON object or an \"s1.\" link"});
    return;
  }
  q->scenario = std::move(j);
}

}  // namespace

EmbedRequest parse_embed_fragment(std::string_view f) {
  EmbedRequest q;
  if (!f.empty() && (f.front() == '#' || f.front() == '?')) f.remove_prefix(1);
  if (f.size() > kMaxEmbedFragmentChars) {
    q.issues.push_back({"embed", "address is too long (" + std::to_string(f.size()) + " characters; at most " +
                                     std::to_string(kMaxEmbedFragmentChars) + ")"});
    return q;
  }
  bool have_scenario = false;
  std::vector<std::string> seen;
  std::size_t start = 0;
  while (start <= f.size()) {
    std::size_t end = f.find('&', start);
    if (end == std::string_view::npos) end = f.size();
    const std::string_view part = f.substr(start, end - start);
    start = end + 1;
    if (part.empty()) continue;
    const std::size_t eq = part.find('=');
    const std::string key(part.substr(0, std::min(eq, std::size_t{12})));
    std::string value;
    // A damaged or repeated scenario setting leaves the author's scenario unknown ("scenario":
    // the card shows no numbers); other damaged settings only lose themselves.
    const bool scenario_key = key == "s" || key == "j";
    if (eq == std::string_view::npos || !percent_decode(part.substr(eq + 1), &value)) {
      q.issues.push_back({scenario_key ? "scenario" : "embed", "has a damaged setting near " + echo_quoted(part, 24)});
      have_scenario = have_scenario || scenario_key;
      continue;
    }
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      q.issues.push_back({scenario_key ? "scenario" : "embed", "repeats the setting " + echo_quoted(key)});
      continue;
    }
    seen.push_back(key);
    if (scenario_key) {
      have_scenario = true;
      read_scenario_text(value, &q);
    } else if (key == "show" || key == "in") {
      std::vector<std::string>& list = key == "show" ? q.show : q.inputs;
      for (const std::string& n : split_names(value)) {
        if (!name_ok(n)) {
          q.issues.push_back({key, echo_quoted(n) + " is not a result name (a-z, 0-9, _ and .)"});
        } else {
          list.push_back(n);
        }
      }
    } else if (key == "title") {
      q.title = clean_title(value);
    } else {
      q.issues.push_back({"embed", "has an unknown setting " + echo_quoted(key) + " (known: s, j, show, in, title)"});
    }
  }
  if (!have_scenario) q.issues.push_back({"embed", "names no scenario (s=s1.… or j={…}); showing the defaults"});
  if (!q.issues.empty() && !q.scenario.is_object()) q.scenario = json::object();
  return q;
}

EmbedRequest embed_request_from_json(const json& j) {
  EmbedRequest q;
  if (!j.is_object()) {
    q.issues.push_back({"", "must be an object {scenario, show, inputs, title}"});
    return q;
  }
  if (auto it = j.find("scenario"); it != j.end()) {
    if (it->is_object()) q.scenario = *it;
    else if (it->is_string()) read_scenario_text(it->get<std::string>(), &q);
    else q.issues.push_back({"scenario", "must be a scenario object, its JSON text or an \"s1.\" link"});
  }
  for (const char* key : {"show", "inputs"}) {
    auto it = j.find(key);
    if (it == j.end()) continue;
    std::vector<std::string>& list = std::string(key) == "show" ? q.show : q.inputs;
    std::vector<std::string> names;
    if (it->is_string()) names = split_names(it->get<std::string>());
    else if (it->is_array()) for (const json& n : *it) names.push_back(n.is_string() ? n.get<std::string>() : "?");
    for (const std::string& n : names) {
      if (name_ok(n)) list.push_back(n);
      else q.issues.push_back({key, echo_quoted(n) + " is not a result name"});
    }
  }
  if (auto it = j.find("title"); it != j.end() && it->is_string()) q.title = clean_title(it->get<std::string>());
  // Problems found while the request was read from a fragment (embed_request_to_json writes them)
  // travel with it, so a card never shows defaults as if the fragment had been understood.
  if (auto it = j.find("issues"); it != j.end() && it->is_array()) {
    for (const json& i : *it) {
      const json* p = i.is_object() && i.contains("path") ? &i["path"] : nullptr;
      const json* m = i.is_object() && i.contains("message") ? &i["message"] : nullptr;
      q.issues.push_back({p && p->is_string() ? printable(p->get<std::string>()) : std::string(),
                          m && m->is_string() ? printable(m->get<std::string>()) : std::string("a problem in the request")});
    }
  }
  if (!q.scenario.is_object()) q.scenario = json::object();
  return q;
}

json embed_request_to_json(const EmbedRequest& q) {
  return json_object({{"scenario", q.scenario}, {"show", q.show}, {"inputs", q.inputs}, {"title", q.title},
                      {"issues", issues_to_json(q.issues)}});
}

// [SECTION] Names
namespace {

const json* walk(const json& doc, const std::string& path, bool allow_index) {
  const json* node = &doc;
  std::string key;
  for (std::size_t i = 0; i <= path.size(); ++i) {
    const char c = i < path.size() ? path[i] : '.';
    if (c == '.' || c == '[') {
      if (!key.empty()) {
        if (!node->is_object() || !node->contains(key)) return nullptr;
        node = &(*node)[key];
        key.clear();
      }
      if (c == '[') {
        if (!allow_index) return nullptr;
        const std::size_t close = path.find(']', i);
        if (close == std::string::npos || close == i + 1 || close - i > 4) return nullptr;
        std::size_t idx = 0;
        for (std::size_t k = i + 1; k < close; ++k) {
          if (path[k] < '0' || path[k] > '9') return nullptr;
          idx = idx * 10 + static_cast<std::size_t>(path[k] - '0');
        }
        if (!node->is_array() || idx >= node->size()) return nullptr;
        node = &(*node)[idx];
        i = close;
      }
    } else {
      key += c;
    }
  }
  return node;
}

bool find_leaf(const json& node, const std::string& path, std::string_view leaf, std::string* out) {
  if (!node.is_object()) return false;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (it.key() == leaf && !it->is_object()) {
      *out = path + "." + it.key();
      return true;
    }
  }
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (it->is_object() && it.key().find("price_offer") == std::string::npos &&
        find_leaf(*it, path + "." + it.key(), leaf, out)) {
      return true;
    }
  }
  return false;
}

std::string leaf_of(const std::string& path) {
  std::string p = path.substr(0, path.find('['));
  const std::size_t dot = p.rfind('.');
  return dot == std::string::npos ? p : p.substr(dot + 1);
}

std::string label_for(const std::string& leaf) {
  static const std::pair<const char*, const char*> kLabels[] = {
      {"cluster_devices", "Devices for the schedule"}, {"cost_usd", "Training cost (useful hours)"},
      {"cluster_cost_usd", "Cluster cost (rented for the schedule)"}, {"cluster_energy_wh", "Cluster energy"},
      {"device_hours", "Device hours"}, {"facility_power_w", "Facility power"}, {"energy_wh", "Energy"},
      {"flops", "Training compute"}, {"state_bytes", "Training state"}, {"min_devices_usable", "Minimum devices"},
      {"step_s", "Step time"}, {"weight_bytes", "Serving weights"}, {"kv_bytes", "KV cache"},
      {"replica_devices", "Devices per replica"}, {"decode_step_s", "Decode step"},
      {"tokens_per_s_per_replica", "Tokens/s per replica"}, {"tokens_per_s_per_user", "Tokens/s per user"},
      {"cost_per_million_tokens_usd", "Cost per million tokens"}, {"devices_for_demand", "Devices for demand"},
      {"days", "Schedule (days)"}, {"goodput", "Goodput"}, {"batch", "Batch"}, {"context", "Context (tokens)"},
      {"tokens", "Training tokens"}, {"pue", "PUE"}, {"kv_fill", "KV fill"}};
  for (const auto& [k, v] : kLabels) {
    if (leaf == k) return v;
  }
  std::string out = leaf;
  for (char& c : out) c = c == '_' ? ' ' : c;
  if (!out.empty() && out[0] >= 'a' && out[0] <= 'z') out[0] = static_cast<char>(out[0] - 'a' + 'A');
  return out;
}

// The interval that goes with a headline leaf (result "intervals"), as "p10–p90: a – b".
std::string interval_text(const json& result, const std::string& leaf) {
  static const std::pair<const char*, const char*> kQuantiles[] = {
      {"cluster_devices", "devices_quantiles"}, {"cluster_cost_usd", "cost_usd_quantiles"},
      {"facility_power_w", "power_w_quantiles"}, {"cost_per_million_tokens_usd", "usd_per_million_tokens_quantiles"},
      {"wall_days_on_layout", "wall_days_quantiles"}};
  for (const auto& [l, q] : kQuantiles) {
    if (leaf != l) continue;
    const json* v = walk(result, std::string("intervals.") + q, true);
    if (!v || !v->is_object()) return "";
    const json& lo = (*v)["p10"];
    const json& hi = (*v)["p90"];
    if (!lo.is_number()) return "";
    const std::string unit_leaf = leaf == "wall_days_on_layout" ? "days" : leaf;
    return std::string("p10–p90: ") + format_leaf(unit_leaf, lo) + " – " +
           (hi.is_number() ? format_leaf(unit_leaf, hi) : std::string("out of reach"));
  }
  return "";
}

const char* kDefaultShow[] = {"cluster_devices", "cost_usd", "cluster_cost_usd", "facility_power_w", "replica_devices",
                              "tokens_per_s_per_replica"};

}  // namespace

std::string resolve_result_name(const json& result, std::string_view name) {
  const std::string n(name);
  if (n.find('.') != std::string::npos || n.find('[') != std::string::npos) {
    const std::string top = n.substr(0, n.find_first_of(".["));
    if (top != "model" && top != "training" && top != "serving") return "";
    const json* v = walk(result, n, true);
    return v && !v->is_object() ? n : "";
  }
  for (const char* block : {"training", "serving", "model"}) {
    std::string out;
    if (result.contains(block) && find_leaf(result[block], block, name, &out)) return out;
  }
  return "";
}

// [SECTION] The card
EmbedCard embed_card(const EmbedRequest& q, const Catalog& catalog) {
  EmbedCard card;
  card.title = q.title;
  card.issues = q.issues;
  const json scenario = q.scenario.is_object() ? q.scenario : json::object();
  // A scenario that was given but cannot be read or used (a damaged link, an unknown model id)
  // gives an error and no numbers: the defaults under the author's title would pass for theirs.
  bool unusable = std::any_of(q.issues.begin(), q.issues.end(),
                              [](const Issue& i) { return i.path == "scenario" || i.path == "link"; });
  const ParsedScenario p = parse_scenario(dump(scenario), catalog);
  if (!unusable && !p.ok()) {
    for (const Issue& i : p.issues) card.issues.push_back({i.path.empty() ? "scenario" : i.path, i.message});
    unusable = true;
  }
  if (unusable) {
    card.error = "This card's scenario cannot be used, so it shows no numbers: fix the scenario or the link.";
    card.issues.push_back({"scenario", "cannot be used: the card shows no numbers"});
    return card;
  }
  const Scenario& s = p.scenario;
  const Estimate e = evaluate(s, false);
  const json result = result_to_json(s, e, p.warnings);
  const json resolved = result["scenario"];
  card.model = s.model.name;
  card.device = s.device.name;
  card.user_supplied = uses_user_supplied(s);
  card.link = encode_share(dump(scenario));

  std::vector<std::string> show = q.show;
  if (show.empty()) show.assign(std::begin(kDefaultShow), std::end(kDefaultShow));
  std::string unknown;
  for (const std::string& name : show) {
    if (card.outputs.size() >= kMaxEmbedOutputs) {
      card.issues.push_back({"show", "lists more than " + std::to_string(kMaxEmbedOutputs) + " results; the rest are left out"});
      break;
    }
    const std::string path = resolve_result_name(result, name);
    if (path.empty()) {
      unknown += (unknown.empty() ? "" : ", ") + name;
      continue;
    }
    const json* v = walk(result, path, true);
    const std::string leaf = leaf_of(path);
    card.outputs.push_back({name, path, label_for(leaf), format_leaf(leaf, *v), *v, interval_text(result, leaf)});
  }
  if (!unknown.empty()) {
    card.issues.push_back({"show", "unknown result names: " + unknown +
                                       " (use v1 leaf names such as cluster_devices, cost_usd, "
                                       "facility_power_w, replica_devices, tokens_per_s_per_replica)"});
  }
  std::string bad_inputs;
  for (const std::string& path : q.inputs) {
    if (card.inputs.size() >= kMaxEmbedInputs) break;
    const std::string top = path.substr(0, path.find('.'));
    const json* v = (top == "training" || top == "serving" || top == "power") && path.find('[') == std::string::npos
                        ? walk(resolved, path, false) : nullptr;
    if (!v || !v->is_number()) {
      bad_inputs += (bad_inputs.empty() ? "" : ", ") + path;
      continue;
    }
    card.inputs.push_back({path, path, label_for(leaf_of(path)), format_leaf(leaf_of(path), *v), *v, ""});
  }
  if (!bad_inputs.empty()) {
    card.issues.push_back({"in", "cannot offer these inputs: " + bad_inputs +
                                     " (numeric training.*, serving.* or power.* fields, e.g. training.days)"});
  }
  return card;
}

json embed_card_to_json(const EmbedCard& c) {
  auto items = [](const std::vector<EmbedItem>& v) {
    json a = json::array();
    for (const EmbedItem& i : v) {
      json item = json_object({{"name", i.name}, {"path", i.path}, {"label", i.label}, {"text", i.text},
                               {"value", i.value}});
      if (!i.interval.empty()) item["interval"] = i.interval;
      a.push_back(item);
    }
    return a;
  };
  return json_object({{"title", c.title}, {"model", c.model}, {"device", c.device}, {"user_supplied", c.user_supplied},
                      {"inputs", items(c.inputs)}, {"outputs", items(c.outputs)}, {"link", c.link},
                      {"issues", issues_to_json(c.issues)}, {"error", c.error}});
}

}  // namespace sizer
