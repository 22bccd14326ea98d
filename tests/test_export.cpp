// Exports: the same numbers as the result document, inert user text, user-supplied marks, and a
// figure out of reach shown as such by every front end.
#include <catch2/catch.hpp>
#include <string>

#include "scenario_util.h"
#include "sizer/sizer.h"

using namespace sizer;
using nlohmann::json;

namespace {
json result_of(const std::string& text, const Catalog& c = bundled_catalog()) {
  const auto p = parse_scenario(text, c);
  REQUIRE(p.ok());
  return result_to_json(p.scenario, evaluate(p.scenario, false), p.warnings);
}

using testutil::scenario;

using testutil::mentions;
using testutil::why_null;

// Llama 3.1 405B on A100 in 60 days with predicted goodput: the lowest MFU point meets no schedule.
const char* const kUnmeetable = R"({"model":"llama-3.1-405b","device":"a100","training":{"days":60,"goodput":"predicted"}})";
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

TEST_CASE("A schedule no cluster meets is null with a reason, never $0", "[export]") {
  const Scenario s = scenario(kUnmeetable);
  const Estimate e = evaluate(s);
  const json r = result_to_json(s, e);
  const json& c = r["training"]["compute"];
  // At the lowest MFU point no cluster meets 60 days; the others are met.
  REQUIRE(c["mfu"].size() == 3);
  CHECK(c["cluster_devices"][0].is_null());
  CHECK(c["cluster_cost_usd"][0].is_null());
  CHECK(c["cluster_device_hours"][0].is_null());
  CHECK(c["scale_up_domains"][0].is_null());
  CHECK(r["training"]["power"]["facility_power_w"][0].is_null());
  CHECK(r["training"]["power"]["cluster_energy_wh"][0].is_null());
  CHECK(r["carbon"]["training_kg_co2e"][0].is_null());
  for (const char* leaf : {"cluster_devices", "cluster_cost_usd"}) {
    for (std::size_t i = 1; i < 3; ++i) CHECK(c[leaf][i].get<double>() > 0);
  }
  // The useful hours are still defined: they do not depend on the cluster.
  CHECK(c["device_hours"][0].get<double>() > 0);
  for (const char* path : {"training.compute.cluster_devices", "training.compute.cluster_cost_usd",
                           "training.power.facility_power_w", "carbon.training_kg_co2e"}) {
    INFO(path);
    const std::string why = why_null(r, path);
    CHECK(mentions(why, "no cluster meets the 60-day schedule"));
    CHECK(mentions(why, "38% MFU"));
  }
  SECTION("every front end shows it as out of reach") {
    const std::string md = results_markdown(r);
    CHECK(mentions(md, "out of reach"));
    CHECK_FALSE(mentions(md, "| $0 |"));
    CHECK_FALSE(mentions(md, "— –"));
    CHECK(format_leaf("cluster_devices", c["cluster_devices"]).find("out of reach") != std::string::npos);
    EmbedRequest q;
    q.scenario = json::parse(kUnmeetable);
    q.show = {"cluster_devices", "cluster_cost_usd"};
    const EmbedCard card = embed_card(q, bundled_catalog());
    REQUIRE(card.outputs.size() == 2);
    for (const auto& o : card.outputs) {
      INFO(o.name << ": " << o.text);
      CHECK(mentions(o.text, "out of reach"));
      CHECK_FALSE(mentions(o.text, "$0"));
    }
    const std::string csv = results_csv(r);
    CHECK_FALSE(mentions(csv, "nan"));
    // `sizer table` on the same scenario: the A100 row at 38% MFU.
    const auto rows = compare_devices(s, bundled_catalog(), {Precision::bf16}, {"a100"});
    REQUIRE(rows.size() == 3);
    for (const char* format : {"markdown", "text"}) {
      const std::string t = comparison_table(rows, format);
      INFO(format << "\n" << t);
      CHECK(mentions(t, "out of reach"));
      CHECK_FALSE(mentions(t, "unknown"));
    }
    CHECK_FALSE(mentions(comparison_table(rows, "csv"), "nan"));
    CHECK(json::parse(comparison_table(rows, "json"))[0]["cluster_devices"].is_null());
  }
}
