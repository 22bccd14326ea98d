// Sharing, import/export and custom hardware (see share_actions.h).
#include "share_actions.h"

#include <cstdio>

#include "sizer/contract/json_safe.h"
#include "sizer/contract/user_text.h"

namespace sizer_web {

using nlohmann::json;

namespace {

std::string dump(const json& j, int indent = -1) { return j.dump(indent, ' ', false, json::error_handler_t::replace); }

std::vector<std::string> issue_lines(const std::vector<sizer::Issue>& issues, std::size_t max = 12) {
  std::vector<std::string> lines;
  for (const sizer::Issue& i : issues) {
    if (lines.size() == max) {
      lines.push_back("… and " + std::to_string(issues.size() - max) + " more");
      break;
    }
    lines.push_back((i.path.empty() ? std::string() : i.path + ": ") + i.message);
  }
  return lines;
}

// A file name as shown in messages: escaped, at most 60 bytes, cut on a character boundary.
std::string shown_name(const std::string& name) { return name.empty() ? "the file" : sizer::echo_quoted(name, 60); }

void queue(AppState& s, PageAction::Kind kind, std::string name, std::string mime, std::string text) {
  s.share.outbox.push_back({kind, std::move(name), std::move(mime), std::move(text)});
}

// The last valid draft, with user-supplied entries inlined.
json portable(const AppState& s) {
  const sizer::JsonDocument parsed = sizer::parse_json(s.computed.draft_text, sizer::kMaxScenarioBytes);
  const json& draft = parsed.value;
  if (!parsed.ok() || !draft.is_object()) return s.editor.draft;
  return sizer::portable_scenario(draft, s.share.catalog);
}

std::string percent_encode(const std::string& text) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    const bool keep = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                      c == '_' || c == '.' || c == '~';
    if (keep) out += static_cast<char>(c);
    else out += '%', out += kHex[c >> 4], out += kHex[c & 15];
  }
  return out;
}

std::string html_attr(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

void catalog_changed(AppState& s) {
  s.share.catalog = sizer::user_catalog(s.share.user_tables, nullptr);
  s.editor.changed = true;
  s.computed.draft_text.clear();  // the same draft may now mean a different scenario
  s.view.compare.rows_revision = -1;
  s.view.charts.revision = -1;
}

}  // namespace

const char* const kEmbedOutputs[12] = {"cluster_devices", "cost_usd", "facility_power_w", "device_hours",
                                       "energy_wh", "state_bytes", "min_devices_usable", "replica_devices",
                                       "tokens_per_s_per_replica", "cost_per_million_tokens_usd",
                                       "decode_step_s", "weight_bytes"};
const char* const kEmbedInputs[6] = {"training.days", "training.goodput", "serving.batch", "serving.context",
                                     "power.pue", "training.tokens"};

void set_message(AppState& s, std::string title, std::vector<std::string> lines, bool error) {
  ShareMessage& m = s.share.message;
  m.title = std::move(title);
  m.lines = std::move(lines);
  m.error = error;
  ++m.serial;
}

// [SECTION] Links
std::string current_fragment(const AppState& s) { return sizer::encode_share(dump(portable(s))); }

bool open_fragment(AppState& s, std::string_view fragment, const char* where) {
  if (!fragment.empty() && fragment.front() == '#') fragment.remove_prefix(1);
  const sizer::DecodedShare d = sizer::decode_share(fragment);
  std::vector<sizer::Issue> issues = d.issues;
  json draft;
  if (d.ok()) {
    const sizer::ParsedScenario p = sizer::parse_scenario(d.scenario_json, s.share.catalog);
    issues = p.issues;
    if (p.ok()) draft = sizer::parse_json(d.scenario_json, sizer::kMaxScenarioBytes).value;
  }
  if (!issues.empty() || !draft.is_object()) {
    std::vector<std::string> lines = issue_lines(issues);
    lines.push_back("Nothing was changed: you still have the scenario you had before.");
    set_message(s, std::string("Could not open the ") + where, std::move(lines), true);
    return false;
  }
  s.share.adopt_next = s.share.adopt_next || s.editor.draft != draft;  // only a real change is absorbed
  s.editor.draft = std::move(draft);
  s.editor.local.clear();
  s.editor.changed = true;
  s.view.mfu_editing = false;
  s.share.shown_fragment = std::string(fragment);
  set_message(s, std::string("Opened the scenario from the ") + where, {}, false);
  return true;
}

void sync_address_bar(AppState& s, double now_s, bool editing) {
  ShareState& sh = s.share;
  const std::string& text = s.computed.draft_text;
  if (!sh.address_started) {  // start-up: the address bar already shows this scenario
    sh.address_started = true;
    sh.start_draft = s.editor.draft;
    sh.last_draft_text = text;
    if (sh.shown_fragment.empty()) sh.shown_fragment = current_fragment(s);
    return;
  }
  if (text != sh.last_draft_text) {
    sh.last_draft_text = text;
    sh.last_edit_s = now_s;
  }
  // Half a second after the last change (2 s if a field still has the keyboard).
  if (sh.last_edit_s < 0 || now_s - sh.last_edit_s < (editing ? 2.0 : 0.5)) return;
  sh.last_edit_s = -1;
  const std::string f = current_fragment(s);
  if (sh.adopt_next) {  // the change came from the address bar itself (a link, back/forward)
    sh.adopt_next = false;
    sh.shown_fragment = f;
    return;
  }
  if (f == sh.shown_fragment) return;
  sh.shown_fragment = f;
  if (f.size() <= sizer::kMaxShareChars) queue(s, PageAction::Kind::push_hash, "", "", f);
}

void restore_start(AppState& s) {
  if (!s.share.address_started) return;
  s.share.adopt_next = s.share.adopt_next || s.editor.draft != s.share.start_draft;
  s.editor.draft = s.share.start_draft;
  s.editor.local.clear();
  s.editor.changed = true;
  s.view.mfu_editing = false;
  s.share.shown_fragment.clear();  // the address bar has no fragment now
}

void copy_link(AppState& s) {
  const std::string f = current_fragment(s);
  if (f.size() > sizer::kMaxShareChars) {
    set_message(s, "This scenario is too large for a link", {"Export the scenario as a JSON file instead."}, true);
    return;
  }
  if (f != s.share.shown_fragment) {
    s.share.shown_fragment = f;
    queue(s, PageAction::Kind::push_hash, "", "", f);
  }
  queue(s, PageAction::Kind::copy, "link", "", s.share.page_url + "#" + f);
  s.share.link_open = true;
}

// [SECTION] Import, export
namespace {

// A Hugging Face model as imported: its name, parameters and shape, then what the import assumed.
std::vector<std::string> imported_model_lines(const sizer::Imported& in) {
  std::vector<std::string> lines;
  const json& m = in.scenario.value("model", json::object());
  auto num = [&](const char* k) { return m.contains(k) && m[k].is_number() ? m[k].get<double>() : 0.0; };
  auto billions = [](double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.4g B", v / 1e9);
    return std::string(b);
  };
  std::string shape = billions(num("params")) + " parameters";
  if (num("active_params") > 0 && num("active_params") < num("params")) shape += " (" + billions(num("active_params")) + " active)";
  char b[96];
  std::snprintf(b, sizeof b, ", %.0f layers, hidden size %.0f, %.0f attention heads", num("layers"), num("hidden"), num("heads"));
  lines.push_back(shape + b);
  const json& a = m.value("attention", json::object());
  const std::string type = a.is_object() && a.contains("type") && a["type"].is_string() ? a["type"].get<std::string>() : "";
  auto field = [](const json& o, const char* k) { return o.is_object() && o.contains(k) && o[k].is_number() ? o[k].get<double>() : 0.0; };
  if (type == "mla") {
    std::snprintf(b, sizeof b, "Attention: MLA, KV latent width %.0f, RoPE key width %.0f", field(a, "kv_latent"), field(a, "rope_dim"));
    lines.push_back(b);
  } else if (!type.empty()) {
    std::snprintf(b, sizeof b, "Attention: %s, %.0f KV heads of dimension %.0f", type == "gqa" ? "GQA" : "MHA",
                  field(a, "kv_heads"), field(a, "head_dim"));
    lines.push_back(b);
  }
  if (m.contains("moe")) {
    std::snprintf(b, sizeof b, "Mixture of experts: %.0f routed experts, %.0f per token, %.0f shared, on %.0f layers",
                  field(m["moe"], "experts"), field(m["moe"], "experts_per_token"), field(m["moe"], "shared_experts"),
                  field(m["moe"], "moe_layers"));
    lines.push_back(b);
  }
  for (const std::string& n : in.notes) lines.push_back(n);
  lines.push_back("Every other input is back at its default; pick the device and the rest on the left.");
  return lines;
}

void import_text(AppState& s, const std::string& shown, const std::string& what, const std::string& text, bool too_large) {
  const std::string title = "Could not import " + shown;
  if (too_large) {
    set_message(s, title, {"The " + what + " is larger than 1 MiB; Sizer files are much smaller.",
                           "Nothing was changed."}, true);
    return;
  }
  const sizer::Imported in = sizer::import_document(text, s.share.catalog);
  if (!in.ok()) {
    std::vector<std::string> lines = issue_lines(in.issues);
    lines.push_back("Nothing was changed.");
    set_message(s, title, std::move(lines), true);
    return;
  }
  if (in.kind == sizer::ImportKind::tables) {
    const std::vector<sizer::Issue> issues = sizer::upsert_user_tables(&s.share.user_tables, in.tables);
    if (!issues.empty()) {
      set_message(s, title, issue_lines(issues), true);
      return;
    }
    queue(s, PageAction::Kind::store, kTablesStorageKey, "", dump(s.share.user_tables));
    catalog_changed(s);
    std::string counts;
    for (const char* k : {"devices", "systems", "prices", "models"}) {
      if (in.tables.contains(k)) counts += (counts.empty() ? "" : ", ") + std::to_string(in.tables[k].size()) + " " + k;
    }
    set_message(s, "Imported " + counts + " from " + shown,
                {"They are marked user-supplied wherever they appear, and kept in this browser."}, false);
    return;
  }
  const bool hugging_face = !in.notes.empty();  // import_document notes what a config.json import assumed
  s.editor.draft = in.scenario;
  s.editor.local.clear();
  s.editor.changed = true;
  s.view.mfu_editing = false;
  if (hugging_face) {
    const std::string name = in.scenario["model"].value("name", std::string("the model"));
    set_message(s, "Imported the Hugging Face model " + sizer::echo_quoted(name, 60) + " from " + shown,
                imported_model_lines(in), false);
  } else {
    set_message(s, "Opened the scenario in " + shown, {}, false);
  }
}

}  // namespace

void import_file(AppState& s, const std::string& name, const std::string& text, bool too_large) {
  import_text(s, shown_name(name), "file", text, too_large);
}

void import_pasted(AppState& s, const std::string& text, bool too_large) {
  import_text(s, "the pasted text", "pasted text", text, too_large);
}

void export_results(AppState& s, const char* format) {
  const sizer::ParsedScenario p = sizer::parse_scenario(s.computed.draft_text, s.share.catalog);
  const sizer::Scenario& sc = p.ok() ? p.scenario : s.computed.scenario;
  const json r = sizer::result_to_json(sc, sizer::evaluate(sc, true), p.warnings);
  const std::string f = format;
  if (f == "csv") queue(s, PageAction::Kind::download, "sizer-results.csv", "text/csv", sizer::results_csv(r));
  else if (f == "markdown") queue(s, PageAction::Kind::download, "sizer-results.md", "text/markdown", sizer::results_markdown(r, sizer::user_supplied_what(sc)));
  else queue(s, PageAction::Kind::download, "sizer-results.json", "application/json", dump(r, 2) + "\n");
  const size_t n = s.editor.issues.size() + s.editor.local.size();
  if (n > 0) set_message(s, "Exported the last valid results", {"Fix the inputs marked in red to export your edits."}, true);
}

void export_scenario(AppState& s) {
  queue(s, PageAction::Kind::download, "sizer-scenario.json", "application/json", dump(portable(s), 2) + "\n");
}

void export_comparison(AppState& s, const char* format) {
  const CompareState& c = s.view.compare;
  std::vector<sizer::Precision> precisions;
  if (c.bf16) precisions.push_back(sizer::Precision::bf16);
  if (c.fp8) precisions.push_back(sizer::Precision::fp8);
  if (c.fp4) precisions.push_back(sizer::Precision::fp4);
  const auto rows = sizer::compare_devices(s.computed.scenario, s.share.catalog, precisions);
  const bool md = std::string(format) == "markdown";
  queue(s, PageAction::Kind::download, md ? "sizer-compare.md" : "sizer-compare.csv", md ? "text/markdown" : "text/csv",
        sizer::comparison_table(rows, md ? "markdown" : "csv"));
}

void export_charts_png(AppState& s) { queue(s, PageAction::Kind::png, "sizer-charts.png", "image/png", ""); }

void download_offline_copy(AppState& s) {
  queue(s, PageAction::Kind::offline_copy, "sizer-offline.html", "text/html", current_fragment(s));
}

// [SECTION] The user's tables
void load_user_tables(AppState& s, const std::string& stored) {
  if (stored.empty()) return;
  sizer::JsonDocument parsed = sizer::parse_json(stored, sizer::kMaxImportBytes);
  json t = std::move(parsed.value);
  if (!parsed.ok() || !t.is_object()) {
    set_message(s, "Your saved custom hardware could not be read", {"It was left out; the bundled tables are in use."}, true);
    return;
  }
  std::vector<sizer::Issue> issues;
  s.share.user_tables = std::move(t);
  s.share.catalog = sizer::user_catalog(s.share.user_tables, &issues);
  if (!issues.empty()) {
    std::vector<std::string> lines = issue_lines(issues);
    lines.push_back("Those rows were left out.");
    set_message(s, "Some saved custom hardware could not be used", std::move(lines), true);
  }
  catalog_changed(s);
}

bool save_user_rows(AppState& s, const json& rows) {
  s.share.form.issues = sizer::upsert_user_tables(&s.share.user_tables, rows);
  if (!s.share.form.issues.empty()) return false;
  queue(s, PageAction::Kind::store, kTablesStorageKey, "", dump(s.share.user_tables));
  catalog_changed(s);
  return true;
}

void delete_user_row(AppState& s, const std::string& list, const std::string& id) {
  sizer::remove_user_row(&s.share.user_tables, list, id);
  // Rows that named it (a system or price for a deleted device) no longer load: drop them too.
  if (list == "devices") {
    for (const char* dep : {"systems", "prices"}) {
      if (!s.share.user_tables.contains(dep) || !s.share.user_tables[dep].is_array()) continue;
      json& rows = s.share.user_tables[dep];
      for (std::size_t i = rows.size(); i-- > 0;) {
        if (rows[i].is_object() && rows[i].contains("device") && rows[i]["device"] == id) rows.erase(i);
      }
    }
  }
  queue(s, PageAction::Kind::store, kTablesStorageKey, "", dump(s.share.user_tables));
  catalog_changed(s);
}

// Embed snippets
std::string embed_fragment(const AppState& s) {
  const EmbedForm& e = s.share.embed;
  std::string show, in;
  for (int i = 0; i < 12; ++i) {
    if (e.show[i]) show += (show.empty() ? "" : ",") + std::string(kEmbedOutputs[i]);
  }
  for (int i = 0; i < 6; ++i) {
    if (e.inputs[i]) in += (in.empty() ? "" : ",") + std::string(kEmbedInputs[i]);
  }
  std::string f = "s=" + current_fragment(s);
  if (!show.empty()) f += "&show=" + show;
  if (!in.empty()) f += "&in=" + in;
  if (e.title[0]) f += "&title=" + percent_encode(e.title);
  return f;
}

std::string embed_iframe_snippet(const AppState& s) {
  int outputs = 0, inputs = 0;
  for (bool b : s.share.embed.show) outputs += b ? 1 : 0;
  for (bool b : s.share.embed.inputs) inputs += b ? 1 : 0;
  if (outputs == 0) outputs = 5;
  const int height = 132 + 30 * outputs + 38 * inputs + (s.share.embed.title[0] ? 28 : 0);
  return "<iframe src=\"" + html_attr(s.share.page_base) + "embed.html#" + html_attr(embed_fragment(s)) +
         "\" width=\"440\" height=\"" + std::to_string(height) +
         "\" style=\"border:0;max-width:100%\" loading=\"lazy\" title=\"Sizer estimate\"></iframe>";
}

std::string embed_div_snippet(const AppState& s) {
  const EmbedForm& e = s.share.embed;
  std::string show, in;
  for (int i = 0; i < 12; ++i) if (e.show[i]) show += (show.empty() ? "" : ",") + std::string(kEmbedOutputs[i]);
  for (int i = 0; i < 6; ++i) if (e.inputs[i]) in += (in.empty() ? "" : ",") + std::string(kEmbedInputs[i]);
  std::string out = "<div data-sizer=\"" + current_fragment(s) + "\"";
  if (!show.empty()) out += " data-show=\"" + show + "\"";
  if (!in.empty()) out += " data-inputs=\"" + in + "\"";
  if (e.title[0]) out += " data-title=\"" + html_attr(e.title) + "\"";
  return out + "></div>\n<script src=\"" + html_attr(s.share.page_base) + "embed.js\" defer></script>";
}

}  // namespace sizer_web
