// `sizer table`: the seed post's kind of comparison (devices × precisions × MFU points).
#include <cstdio>
#include <sstream>

#include "cli.h"

namespace sizer::cli {

namespace {

std::string plain(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

std::string render_table(const std::vector<ComparisonRow>& rows, const std::string& format) {
  std::ostringstream o;
  if (format == "json") {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& r : rows) {
      auto opt = [](double v) { return v > 0 ? nlohmann::json(v) : nlohmann::json(nullptr); };
      a.push_back({{"device", r.device}, {"precision", to_string(r.precision)}, {"dense_peak_flops", r.dense_peak_flops},
                   {"mfu", r.mfu}, {"device_hours", r.device_hours}, {"cost_usd", opt(r.cost_usd)},
                   {"price", r.price_id.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.price_id)},
                   {"offer_kind", r.offer_kind.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.offer_kind)},
                   {"cluster_devices", r.cluster_devices}, {"scale_up_domains", r.scale_up_domains},
                   {"facility_power_w", opt(r.facility_power_w)}, {"min_devices_usable", r.min_devices_usable},
                   {"replica_min_devices", r.replica_min_devices},
                   {"tokens_per_s_per_replica", r.tokens_per_s_per_replica},
                   {"cost_per_million_tokens_usd", opt(r.cost_per_million_tokens_usd)},
                   {"user_supplied", r.user_supplied}});
    }
    return a.dump(2) + "\n";
  }
  if (format == "csv") {
    o << "device,precision,dense_peak_flops,mfu,device_hours,cost_usd,price,offer_kind,cluster_devices,"
         "scale_up_domains,facility_power_w,min_devices_usable,replica_min_devices\n";
    for (const auto& r : rows) {
      o << r.device << "," << to_string(r.precision) << "," << plain(r.dense_peak_flops) << "," << plain(r.mfu) << ","
        << plain(r.device_hours) << "," << (r.cost_usd > 0 ? plain(r.cost_usd) : "") << "," << r.price_id << ","
        << r.offer_kind << "," << plain(r.cluster_devices) << "," << plain(r.scale_up_domains) << ","
        << (r.facility_power_w > 0 ? plain(r.facility_power_w) : "") << "," << plain(r.min_devices_usable) << ","
        << plain(r.replica_min_devices) << "\n";
    }
    return o.str();
  }
  const bool md = format == "markdown";
  const char* head[] = {"Device", "Prec.", "MFU", "Device hours", "Cost", "Offer", "Devices", "Domains", "Facility power"};
  if (md) {
    o << "|";
    for (const char* h : head) o << " " << h << " |";
    o << "\n|---|---|--:|--:|--:|---|--:|--:|--:|\n";
  } else {
    char buf[200];
    std::snprintf(buf, sizeof buf, "%-14s %-5s %5s %14s %10s %-15s %9s %8s %14s\n", head[0], head[1], head[2],
                  head[3], head[4], head[5], head[6], head[7], head[8]);
    o << buf;
  }
  for (const auto& r : rows) {
    const std::string dev = r.device + (r.user_supplied ? "*" : "");
    const std::string cost = r.cost_usd > 0 ? fmt::usd(r.cost_usd) : "no price";
    const std::string power = r.facility_power_w > 0 ? fmt::watts(r.facility_power_w) : "unknown";
    const std::string offer = r.offer_kind.empty() ? "—" : r.offer_kind;
    if (md) {
      o << "| " << dev << " | " << to_string(r.precision) << " | " << fmt::percent(r.mfu) << " | "
        << fmt::count(r.device_hours) << " | " << cost << " | " << offer << " | " << fmt::count(r.cluster_devices)
        << " | " << fmt::count(r.scale_up_domains) << " | " << power << " |\n";
    } else {
      char buf[240];
      std::snprintf(buf, sizeof buf, "%-14s %-5s %5s %14s %10s %-15s %9s %8s %14s\n", dev.c_str(),
                    to_string(r.precision), fmt::percent(r.mfu).c_str(), fmt::count(r.device_hours).c_str(),
                    cost.c_str(), offer.c_str(), fmt::count(r.cluster_devices).c_str(),
                    fmt::count(r.scale_up_domains).c_str(), power.c_str());
      o << buf;
    }
  }
  if (md) o << "\n*Device hours = C ÷ (dense peak × MFU × 3600). Costs are estimates from dated price offers, not quotes.*\n";
  return o.str();
}

}  // namespace sizer::cli

namespace sizer::cli {

std::string render_validation(const std::vector<ValidationRow>& rows, const std::string& format) {
  std::ostringstream o;
  auto show = [](const std::string& metric, double v) {
    if (metric == "step_s") return fmt::seconds(v);
    if (metric == "mfu") return fmt::percent(v);
    if (metric == "tokens_per_s") return fmt::count(v) + " tok/s";
    return fmt::number(v / 1e12, 3) + " TFLOP/s";
  };
  if (format == "json") {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& r : rows) {
      a.push_back({{"id", r.id}, {"name", r.name}, {"metric", r.metric}, {"observed", r.observed},
                   {"predicted", r.predicted}, {"error", r.error}, {"devices", r.devices}, {"source", r.source}});
    }
    return nlohmann::json{{"runs", a}, {"mean_abs_error", mean_abs_error(rows)}}.dump(2) + "\n";
  }
  const bool md = format == "markdown";
  if (md) o << "| Run | Devices | Layout | Metric | Published | Predicted | Error |\n|---|--:|---|---|--:|--:|--:|\n";
  for (const auto& r : rows) {
    const PlanLayout& l = r.layout;
    auto g = [](double v) { return fmt::count(v); };
    std::string layout = "TP" + g(l.tp) + " PP" + g(l.pp) + " DP" + g(l.dp);
    if (l.cp > 1) layout += " CP" + g(l.cp);
    if (l.ep > 1) layout += " EP" + g(l.ep);
    if (l.virtual_stages > 1) layout += " v" + g(l.virtual_stages);
    layout += std::string(" ") + to_string(l.recompute);
    char err[32];
    std::snprintf(err, sizeof err, "%+.1f%%", 100 * r.error);
    if (md) {
      o << "| " << r.name << " | " << fmt::count(r.devices) << " | " << layout << " | " << r.metric << " | "
        << show(r.metric, r.observed) << " | " << show(r.metric, r.predicted) << " | " << err << " |\n";
    } else {
      char buf[320];
      std::snprintf(buf, sizeof buf, "%-44s %6s  %-34s %14s %14s %8s\n", r.name.substr(0, 44).c_str(),
                    fmt::count(r.devices).c_str(), layout.c_str(), show(r.metric, r.observed).c_str(),
                    show(r.metric, r.predicted).c_str(), err);
      o << buf;
    }
  }
  char mae[64];
  std::snprintf(mae, sizeof mae, "%.1f%%", 100 * mean_abs_error(rows));
  o << (md ? "\n**Mean absolute error: " : "mean absolute error: ") << mae << (md ? "**\n" : "\n");
  return o.str();
}

}  // namespace sizer::cli
