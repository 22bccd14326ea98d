// Exports: the same numbers as the result document, inert user text, user-supplied marks.
#include <catch2/catch.hpp>
#include <string>

#include "sizer/sizer.h"

using namespace sizer;
using nlohmann::json;

namespace {
json result_of(const std::string& text, const Catalog& c = bundled_catalog()) {
  const auto p = parse_scenario(text, c);
  REQUIRE(p.ok());
  return result_to_json(p.scenario, evaluate(p.scenario, false), p.warnings);
}
}  // namespace

TEST_CASE("results CSV lists every leaf with the JSON document's numbers", "[export]") {
  const json r = result_of("{}");
  const std::string csv = results_csv(r);
  CHECK(csv.rfind("path,value\n", 0) == 0);
  CHECK(csv.find("\ntraining.compute.device_hours[0]," + r["training"]["compute"]["device_hours"][0].dump() + "\n") !=
        std::string::npos);
  // Default scenario (dense 1T, FP8, 32 × 32K on GB200): 11 devices hold it → 16 (smallest power of two).
  CHECK(csv.find("\nserving.replica_devices,16.0\n") != std::string::npos);
  CHECK(csv.find("\ntraining.comms.moe_verdict,\n") != std::string::npos);  // null → empty cell
}

TEST_CASE("results Markdown is a headline table with units", "[export]") {
  const std::string md = results_markdown(result_of("{}"));
  CHECK(md.find("| Devices for the schedule | 12,471 – 18,050 | `training.compute.cluster_devices` |") != std::string::npos);
  CHECK(md.find("| Training cost (useful hours) | $257M – $371M |") != std::string::npos);
  // 12,471 – 18,050 devices × 90 days × 24 h × $10.582 = $285M – $413M (the cluster as recommended).
  CHECK(md.find("| Cluster cost (rented for the schedule) | $285M – $413M |") != std::string::npos);
  CHECK(md.find("user-supplied") == std::string::npos);
  const std::string custom = results_markdown(result_of(
      R"({"device": {"name": "X <b>|</b>", "memory_bytes": 1e11, "hbm_bytes_per_s": 1e12, "dense_flops": {"bf16": 1e15},
          "scale_up_bytes_per_s": 1e11}, "training": {"usd_per_device_hour": 2}})"), "hardware and price");
  CHECK(custom.find("X &lt;b&gt;\\|&lt;/b&gt;") != std::string::npos);
  CHECK(custom.find("<b>") == std::string::npos);
  CHECK(custom.find("Includes user-supplied hardware and price.") != std::string::npos);
  CHECK(custom.find("(user-supplied hardware and price)") != std::string::npos);
}

TEST_CASE("the user-supplied mark names what was supplied", "[export]") {
  auto what = [](const char* text) {
    const auto p = parse_scenario(text, bundled_catalog());
    REQUIRE(p.ok());
    return user_supplied_what(p.scenario);
  };
  CHECK(what("{}").empty());
  CHECK_FALSE(uses_user_supplied(parse_scenario("{}", bundled_catalog()).scenario));
  CHECK(what(R"({"model": {"preset": "llama-3-70b", "name": "M"}})") == "model");
  CHECK(what(R"({"training": {"usd_per_device_hour": 2}})") == "price");
  CHECK(what(R"({"model": {"preset": "llama-3-70b", "name": "M"},
                 "device": {"preset": "h100", "id": "my-h100"}, "training": {"usd_per_device_hour": 2}})") ==
        "model, hardware and price");
}

TEST_CASE("cells are made inert", "[export]") {
  CHECK(csv_cell("plain") == "plain");
  CHECK(csv_cell("a,b") == "\"a,b\"");
  CHECK(csv_cell("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_cell("=HYPERLINK(1)") == "'=HYPERLINK(1)");
  CHECK(markdown_cell("a|b\n<script>") == "a\\|b &lt;script&gt;");
}

TEST_CASE("leaves are formatted by their unit suffix", "[export]") {
  CHECK(format_leaf("cost_usd", json::array({2.5e8, 3.7e8})) == "$250M – $370M");
  CHECK(format_leaf("facility_power_w", 3.27e7) == "32.7 MW");
  CHECK(format_leaf("energy_wh", 6.36e10) == "63.6 GWh");
  CHECK(format_leaf("state_bytes", 1.6e13) == "16.0 TB");
  CHECK(format_leaf("decode_step_s", 0.00293) == "2.93 ms");
  CHECK(format_leaf("cluster_devices", json::array({18050.0, 15242.0, 12471.0})) == "12,471 – 18,050");
  CHECK(format_leaf("cost_usd", nullptr) == "—");
}

TEST_CASE("comparison table formats, with user-supplied devices marked", "[export]") {
  Catalog c = bundled_catalog();
  REQUIRE(merge_tables(c, R"({"devices": [{"id": "x1", "name": "X1", "memory_bytes": 1e11, "hbm_bytes_per_s": 1e12,
      "dense_flops": {"bf16": 1e15}, "scale_up_bytes_per_s": 1e11}]})", true).empty());
  const auto rows = compare_devices(default_scenario(c), c, {Precision::bf16}, {"h100", "x1"});
  const std::string csv = comparison_table(rows, "csv");
  CHECK(csv.find("device,precision,") == 0);
  CHECK(csv.find("\nx1,bf16,") != std::string::npos);
  CHECK(csv.find(",true\n") != std::string::npos);
  const std::string md = comparison_table(rows, "markdown");
  CHECK(md.find("| x1* | bf16 |") != std::string::npos);
  CHECK(md.find("user-supplied device") != std::string::npos);
  CHECK(comparison_table(rows, "yaml").empty());
}

TEST_CASE("comparison rows carry the replica actually used beside the minimum it must hold", "[export][compare]") {
  const Catalog c = bundled_catalog();
  SECTION("automatic replica: each row's size is what evaluate picks for that device") {
    const auto p = parse_scenario(R"({"model": "dense-1t"})", c);
    REQUIRE(p.ok());
    const auto rows = compare_devices(p.scenario, c, {Precision::bf16}, {"mi300x"});
    REQUIRE_FALSE(rows.empty());
    for (const auto& r : rows) {
      INFO(r.device);
      const Estimate e = evaluate(with_device(p.scenario, c, *c.find_device(r.device)), false, false);
      CHECK(r.replica_devices == e.serving.replica_devices);
      CHECK(r.replica_min_devices == e.serving.replica_min_devices);
      CHECK(r.replica_devices >= r.replica_min_devices);
    }
    // dense-1t's BF16 weights and KV need 10 MI300X; the automatic replica is the next power of two.
    CHECK(rows[0].replica_min_devices == 10);
    CHECK(rows[0].replica_devices == 16);
  }
  SECTION("the scenario's own device keeps its explicit replica size, exported under its own name") {
    const auto p = parse_scenario(R"({"model": "dense-1t", "device": "h100", "serving": {"replica_devices": 32}})", c);
    REQUIRE(p.ok());
    const auto rows = compare_devices(p.scenario, c, {Precision::bf16}, {"h100"});
    REQUIRE_FALSE(rows.empty());
    CHECK(rows[0].replica_devices == 32);
    CHECK(rows[0].replica_min_devices == 24);
    const json j = json::parse(comparison_table(rows, "json"));
    CHECK(j[0]["replica_devices"] == 32);
    CHECK(j[0]["replica_min_devices"] == 24);
    const std::string csv = comparison_table(rows, "csv");
    CHECK(csv.find(",min_devices_usable,replica_min_devices,replica_devices,user_supplied\n") != std::string::npos);
    CHECK(csv.find(",24,32,false\n") != std::string::npos);
  }
}
