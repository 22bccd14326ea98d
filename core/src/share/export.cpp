// Exports: results and comparison rows as CSV and Markdown (see export.h).
//
// [SECTION] Cell escaping
// [SECTION] Leaf formatting by unit suffix
// [SECTION] Results: CSV of every leaf, Markdown of the headline
// [SECTION] Comparison table (moved here from the CLI so the web writes the same bytes)
#include "sizer/share/export.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "sizer/formulas/format.h"

namespace sizer {

namespace {

// A string builder with the ostream `<<` shape for the few types the exports write. Not
// Text: that pulls iostream's locale machinery (~67 KB) into the WebAssembly build.
class Text {
 public:
  Text& operator<<(const std::string& s) { buf_ += s; return *this; }
  Text& operator<<(std::string_view s) { buf_.append(s.data(), s.size()); return *this; }
  Text& operator<<(const char* s) { buf_ += s; return *this; }
  Text& operator<<(char c) { buf_ += c; return *this; }
  // Numbers must be formatted first (plain(), fmt::...): no silent conversion to char.
  template <typename T, std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, char>, int> = 0>
  Text& operator<<(T) = delete;
  std::string str() const { return buf_; }

 private:
  std::string buf_;
};

}  // namespace


using nlohmann::json;

namespace {

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

// [SECTION] Cell escaping
std::string csv_cell(std::string_view text) {
  std::string s(text);
  if (!s.empty() && (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@')) s.insert(0, "'");
  bool quote = false;
  for (char c : s) quote = quote || c == ',' || c == '"' || c == '\n' || c == '\r';
  if (!quote) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string markdown_cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '|': out += "\\|"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '\n': case '\r': out += ' '; break;
      default: out += c;
    }
  }
  return out;
}

// [SECTION] Leaf formatting
std::string format_leaf(std::string_view leaf, const json& v) {
  if (v.is_null()) return "—";
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {  // MFU-point lists: the range from the smallest to the largest value
    if (v.empty()) return "—";
    // A null point is one whose schedule no cluster meets (the result's nulls say why).
    const json* lo = nullptr;
    const json* hi = nullptr;
    bool out_of_reach = false;
    for (const json& x : v) {
      if (!x.is_number()) {
        out_of_reach = true;
        continue;
      }
      if (!lo || x.get<double>() < lo->get<double>()) lo = &x;
      if (!hi || x.get<double>() > hi->get<double>()) hi = &x;
    }
    if (!lo) return "out of reach";
    const std::string a = format_leaf(leaf, *lo), b = format_leaf(leaf, *hi);
    return (a == b ? a : a + " – " + b) + (out_of_reach ? " (out of reach at some MFU points)" : "");
  }
  if (!v.is_number()) return dump(v);
  const double x = v.get<double>();
  if (ends_with(leaf, "_usd")) return fmt::usd(x);
  if (ends_with(leaf, "_wh")) return fmt::energy_wh(x);
  if (ends_with(leaf, "_w")) return fmt::watts(x);
  if (ends_with(leaf, "bytes_per_s")) return fmt::bytes_per_s(x);
  if (ends_with(leaf, "tokens_per_s") || ends_with(leaf, "tokens_per_s_per_user") ||
      ends_with(leaf, "tokens_per_s_per_replica") || ends_with(leaf, "tokens_per_s_per_device")) {
    return fmt::count(std::round(x)) + " tok/s";
  }
  if (ends_with(leaf, "flops_per_s") || leaf == "dense_peak_flops") return fmt::flops_per_s(x);
  if (ends_with(leaf, "flops") || leaf.find("flops_per_token") != std::string_view::npos) return fmt::flops(x);
  if (leaf.find("bytes") != std::string_view::npos && !ends_with(leaf, "bytes_per_param")) return fmt::bytes(x);
  if (ends_with(leaf, "_s")) return fmt::seconds(x);
  if (ends_with(leaf, "device_hours")) return fmt::hours(x);
  if (ends_with(leaf, "_days") || ends_with(leaf, "days_on_layout")) return fmt::number(x) + " days";
  if (leaf == "mfu" || leaf == "step_mfu" || ends_with(leaf, "_share") || ends_with(leaf, "_fraction")) {
    return fmt::percent(x);
  }
  return fmt::count(x);
}

// [SECTION] Results
namespace {

void csv_leaves(const json& j, const std::string& path, Text& o) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) csv_leaves(*it, path + "." + it.key(), o);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) csv_leaves(j[i], path + "[" + std::to_string(i) + "]", o);
  } else {
    o << path << ',' << (j.is_null() ? "" : j.is_string() ? csv_cell(j.get<std::string>()) : dump(j)) << '\n';
  }
}

const json* at(const json& doc, std::initializer_list<const char*> path) {
  const json* node = &doc;
  for (const char* k : path) {
    if (!node->is_object() || !node->contains(k)) return nullptr;
    node = &(*node)[k];
  }
  return node;
}

}  // namespace

bool uses_user_supplied(const Scenario& s) { return !user_supplied_what(s).empty(); }

std::string user_supplied_what(const Scenario& s) {
  std::vector<std::string> parts;
  if (s.model.user_supplied) parts.push_back("model");
  if (s.device.user_supplied) parts.push_back("hardware");
  if ((s.training.price.user_supplied && s.training.price.usd_per_device_hour > 0) ||
      (s.serving.price.user_supplied && s.serving.price.usd_per_device_hour > 0))
    parts.push_back("price");
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  }
  return out;
}

std::string results_csv(const json& result) {
  Text o;
  o << "path,value\n";
  for (const char* block : {"model", "training", "serving"}) {
    if (result.is_object() && result.contains(block)) csv_leaves(result[block], block, o);
  }
  return o.str();
}

std::string results_markdown(const json& r, const std::string& user_supplied) {
  Text o;
  const json* model = at(r, {"scenario", "model", "name"});
  const json* device = at(r, {"scenario", "device", "name"});
  const std::string model_name = model && model->is_string() ? model->get<std::string>() : "model";
  const std::string device_name = device && device->is_string() ? device->get<std::string>() : "device";
  o << "**" << markdown_cell(model_name) << "** on **" << markdown_cell(device_name) << "**"
    << (user_supplied.empty() ? "" : " (user-supplied " + user_supplied + ")") << "\n\n";
  o << "| Quantity | Value | Result |\n|---|--:|---|\n";
  struct Row { const char* label; std::initializer_list<const char*> path; };
  const Row rows[] = {
      {"Training compute", {"training", "compute", "flops"}},
      {"MFU points", {"training", "compute", "mfu"}},
      {"Device hours", {"training", "compute", "device_hours"}},
      {"Training cost (useful hours)", {"training", "compute", "cost_usd"}},
      {"Cluster cost (rented for the schedule)", {"training", "compute", "cluster_cost_usd"}},
      {"Devices for the schedule", {"training", "compute", "cluster_devices"}},
      {"Facility power", {"training", "power", "facility_power_w"}},
      {"Energy (useful hours)", {"training", "power", "energy_wh"}},
      {"Cluster energy (the schedule)", {"training", "power", "cluster_energy_wh"}},
      {"Training state", {"training", "memory", "state_bytes"}},
      {"Minimum devices (usable HBM)", {"training", "memory", "min_devices_usable"}},
      {"Step time, predicted for the layout", {"training", "layout_prediction", "step_s"}},
      {"MFU, predicted for the layout", {"training", "layout_prediction", "mfu"}},
      {"Step time at the assumed MFU (the seed's method)", {"training", "comms", "step_s"}},
      {"Serving weights", {"serving", "weight_bytes"}},
      {"KV cache", {"serving", "kv_bytes"}},
      {"Devices per replica", {"serving", "replica_devices"}},
      {"Decode step", {"serving", "decode_step_s"}},
      {"Tokens/s per replica", {"serving", "tokens_per_s_per_replica"}},
      {"Cost per million tokens", {"serving", "cost_per_million_tokens_usd"}},
  };
  for (const Row& row : rows) {
    const json* v = at(r, row.path);
    if (!v) continue;
    std::string path;
    const char* leaf = "";
    for (const char* k : row.path) path += (path.empty() ? "" : ".") + std::string(k), leaf = k;
    o << "| " << row.label << " | " << markdown_cell(format_leaf(leaf, *v)) << " | `" << path << "` |\n";
  }
  // Intervals (docs/operations.md): p10 / p50 / p90 of the headlines under the scenario's uncertainty.
  const json* iv = at(r, {"intervals"});
  if (iv && iv->is_object()) {
    o << "\n| Headline | p10 | p50 | p90 |\n|---|--:|--:|--:|\n";
    const std::pair<const char*, const char*> qs[] = {{"Devices for the schedule", "devices_quantiles"},
                                                      {"Cluster cost (rented for the schedule)", "cost_usd_quantiles"},
                                                      {"Facility power", "power_w_quantiles"},
                                                      {"Wall-clock days on the layout", "wall_days_quantiles"},
                                                      {"Cost per million tokens", "usd_per_million_tokens_quantiles"}};
    const char* leaves[] = {"cluster_devices", "cluster_cost_usd", "facility_power_w", "days", "cost_per_million_tokens_usd"};
    int k = 0;
    for (const auto& [label, key] : qs) {
      const char* leaf = leaves[k++];
      const json* q = iv->contains(key) ? &(*iv)[key] : nullptr;
      if (!q || !q->is_object()) continue;
      auto cell = [&](const char* p) {
        const json& x = (*q)[p];
        return x.is_number() ? markdown_cell(format_leaf(leaf, x)) : std::string("out of reach");
      };
      o << "| " << label << " | " << cell("p10") << " | " << cell("p50") << " | " << cell("p90") << " |\n";
    }
  }
  o << "\n*Sizer " << (r.contains("schema") && r["schema"].is_string() ? markdown_cell(r["schema"].get<std::string>()) : "")
    << ". Ranges follow the MFU points. Costs are estimates from dated price offers, not quotes.";
  if (!user_supplied.empty()) o << " Includes user-supplied " << user_supplied << ".";
  o << "*\n";
  return o.str();
}

// [SECTION] Comparison table
namespace {

std::string plain(double v) {
  if (!std::isfinite(v)) return "";  // not defined (a schedule out of reach): an empty cell
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

std::string comparison_table(const std::vector<ComparisonRow>& rows, std::string_view format) {
  Text o;
  if (format == "json") {
    json a = json::array();
    for (const auto& r : rows) {
      auto opt = [](double v) { return v > 0 ? json(v) : json(nullptr); };
      a.push_back({{"device", r.device}, {"precision", to_string(r.precision)}, {"dense_peak_flops", r.dense_peak_flops},
                   {"mfu", r.mfu}, {"device_hours", r.device_hours}, {"cost_usd", opt(r.cost_usd)},
                   {"cluster_cost_usd", opt(r.cluster_cost_usd)},
                   {"price_note", r.price_note.empty() ? json(nullptr) : json(r.price_note)},
                   {"price", r.price_id.empty() ? json(nullptr) : json(r.price_id)},
                   {"offer_kind", r.offer_kind.empty() ? json(nullptr) : json(r.offer_kind)},
                   {"cluster_devices", r.cluster_devices}, {"scale_up_domains", r.scale_up_domains},
                   {"facility_power_w", opt(r.facility_power_w)}, {"min_devices_usable", r.min_devices_usable},
                   {"replica_min_devices", r.replica_min_devices}, {"replica_devices", r.replica_devices},
                   {"tokens_per_s_per_replica", r.tokens_per_s_per_replica},
                   {"cost_per_million_tokens_usd", opt(r.cost_per_million_tokens_usd)},
                   {"user_supplied", r.user_supplied}});
    }
    return a.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
  }
  if (format == "csv") {
    o << "device,precision,dense_peak_flops,mfu,device_hours,cost_usd,cluster_cost_usd,price,offer_kind,price_note,"
         "cluster_devices,scale_up_domains,facility_power_w,min_devices_usable,replica_min_devices,replica_devices,user_supplied\n";
    for (const auto& r : rows) {
      o << csv_cell(r.device) << "," << to_string(r.precision) << "," << plain(r.dense_peak_flops) << ","
        << plain(r.mfu) << "," << plain(r.device_hours) << "," << (r.cost_usd > 0 ? plain(r.cost_usd) : "") << ","
        << (r.cluster_cost_usd > 0 ? plain(r.cluster_cost_usd) : "") << "," << csv_cell(r.price_id) << ","
        << csv_cell(r.offer_kind) << "," << csv_cell(r.price_note) << "," << plain(r.cluster_devices) << ","
        << plain(r.scale_up_domains) << "," << (r.facility_power_w > 0 ? plain(r.facility_power_w) : "") << ","
        << plain(r.min_devices_usable) << "," << plain(r.replica_min_devices) << "," << plain(r.replica_devices) << ","
        << (r.user_supplied ? "true" : "false") << "\n";
    }
    return o.str();
  }
  if (format != "text" && format != "markdown") return "";
  const bool md = format == "markdown";
  const char* head[] = {"Device", "Prec.", "MFU", "Device hours", "Cost", "Cluster cost", "Offer", "Devices", "Domains",
                        "Facility power"};
  if (md) {
    o << "|";
    for (const char* h : head) o << " " << h << " |";
    o << "\n|---|---|--:|--:|--:|--:|---|--:|--:|--:|\n";
  } else {
    char buf[220];
    std::snprintf(buf, sizeof buf, "%-14s %-5s %5s %14s %10s %12s %-15s %9s %8s %14s\n", head[0], head[1], head[2],
                  head[3], head[4], head[5], head[6], head[7], head[8], head[9]);
    o << buf;
  }
  bool any_user = false, any_unpriced = false;
  for (const auto& r : rows) {
    any_user = any_user || r.user_supplied;
    const std::string dev = r.device + (r.user_supplied ? "*" : "");
    const std::string cost = r.cost_usd > 0 ? fmt::usd(r.cost_usd) : r.price_note.empty() ? "no price" : "no public price";
    // A schedule no cluster meets at this MFU (predicted goodput): its cluster figures are not numbers.
    const bool reach = std::isfinite(r.cluster_devices);
    const std::string cluster_cost = !reach ? "out of reach" : r.cluster_cost_usd > 0 ? fmt::usd(r.cluster_cost_usd) : "—";
    if (r.cost_usd <= 0 && !r.price_note.empty()) any_unpriced = true;
    const std::string power = !reach ? "out of reach" : r.facility_power_w > 0 ? fmt::watts(r.facility_power_w) : "unknown";
    const std::string devices = reach ? fmt::count(r.cluster_devices) : "out of reach";
    const std::string domains = reach ? fmt::count(r.scale_up_domains) : "—";
    const std::string offer = r.offer_kind.empty() ? "—" : r.offer_kind;
    if (md) {
      o << "| " << markdown_cell(dev) << " | " << to_string(r.precision) << " | " << fmt::percent(r.mfu) << " | "
        << fmt::count(r.device_hours) << " | " << cost << " | " << cluster_cost << " | " << markdown_cell(offer) << " | "
        << devices << " | " << domains << " | " << power << " |\n";
    } else {
      char buf[260];
      std::snprintf(buf, sizeof buf, "%-14s %-5s %5s %14s %10s %12s %-15s %9s %8s %14s\n", dev.c_str(),
                    to_string(r.precision), fmt::percent(r.mfu).c_str(), fmt::count(r.device_hours).c_str(),
                    cost.c_str(), cluster_cost.c_str(), offer.c_str(), devices.c_str(), domains.c_str(), power.c_str());
      o << buf;
    }
  }
  if (md) {
    o << "\n*Device hours = C ÷ (dense peak × MFU × 3600). Cost = useful device hours × price (the seed's figure); "
         "cluster cost = the recommended cluster rented for the whole schedule. Costs are estimates from dated price "
         "offers, not quotes.";
    if (any_user) o << " \\* = user-supplied device.";
    if (any_unpriced) o << " \"no public price\": no public price page lists this chip (see assets/devices.json price_note).";
    o << "*\n";
  } else {
    if (any_user) o << "* = user-supplied device\n";
    if (any_unpriced) o << "no public price: no public price page lists this chip (see assets/devices.json price_note)\n";
  }
  return o.str();
}

}  // namespace sizer
