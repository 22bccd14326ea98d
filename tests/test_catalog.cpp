// Bundled tables: they parse cleanly, carry provenance for every number, label dense peaks,
// and user tables add to them without breaking them.
#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "sizer/contract/bundled_assets.h"
#include "sizer/sizer.h"

using namespace sizer;
using nlohmann::json;

namespace {

json asset(const std::string& name) {
  // The repository's table, with its provenance text (the embedded copy is lean: lean_table.py).
  std::ifstream f(std::string(SIZER_SOURCE_DIR) + "/assets/" + name);
  if (!f) FAIL("missing asset " << name);
  return json::parse(std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()));
}

// Every non-null number under `obj` (dotted path) must have sources[path] with text and a date.
void check_sources(const json& record, const json& obj, const std::string& prefix) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (it.key() == "sources") continue;
    const std::string path = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (it->is_object()) {
      check_sources(record, *it, path);
    } else if (it->is_number()) {
      INFO(record.value("id", "?") << ": " << path);
      const json& src = record["sources"];
      REQUIRE(src.contains(path));
      CHECK_FALSE(src[path].value("text", "").empty());
      const std::string date = src[path].value("date", "");
      CHECK(date.size() >= 7);  // YYYY-MM at least
      CHECK((date.rfind("19", 0) == 0 || date.rfind("20", 0) == 0));
    }
  }
}

}  // namespace

TEST_CASE("every bundled table parses without a single issue", "[catalog]") {
  Catalog c;
  for (const char* name : {"devices.json", "systems.json", "prices.json", "models.json"}) {
    for (const BundledAsset& a : bundled_assets()) {
      if (std::string(a.name) != name) continue;
      const auto issues = merge_tables(c, std::string_view(a.data, a.size), false);
      INFO(name << "\n" << format_issues(issues));
      CHECK(issues.empty());
    }
  }
  CHECK(c.devices.size() == bundled_catalog().devices.size());
}

TEST_CASE("the catalog holds the devices, systems, prices and models the contract names", "[catalog]") {
  const Catalog& c = bundled_catalog();
  for (const char* id : {"a100", "h100", "h200", "b200", "b300", "gb200", "gb300", "mi300x", "mi325x", "mi355x",
                         "tpu-v5e", "tpu-v5p", "tpu-v6e", "tpu-ironwood", "trainium2", "gaudi3", "l4", "l40s", "a100-40gb",
                         "h20", "rtx-pro-6000-se", "rtx-4090", "rtx-5090"}) {
    INFO(id);
    CHECK(c.find_device(id) != nullptr);
  }
  for (const char* id : {"dense-1t", "moe-1t", "kimi-k2", "deepseek-v3", "llama-3.1-405b", "gpt-3-175b"}) {
    INFO(id);
    CHECK(c.find_model(id) != nullptr);
  }
  CHECK(c.find_system("gb200-nvl72") != nullptr);
  CHECK(c.find_system("dgx-b200") != nullptr);
  CHECK(c.find_system("tpu-ironwood-pod") != nullptr);
  SECTION("every device's default price and system exist and match the device") {
    for (const Device& d : c.devices) {
      INFO(d.id);
      if (!d.default_price.empty()) {
        REQUIRE(c.find_price(d.default_price) != nullptr);
        CHECK(c.find_price(d.default_price)->device == d.id);
      }
      if (!d.default_system.empty()) {
        REQUIRE(c.find_system(d.default_system) != nullptr);
        CHECK(c.find_system(d.default_system)->device == d.id);
      }
    }
  }
}

TEST_CASE("every number in assets/ has a source and a date", "[catalog][provenance]") {
  for (const auto& [file, key] : {std::pair{"devices.json", "devices"}, {"systems.json", "systems"},
                                  {"models.json", "models"}}) {
    for (const json& rec : asset(file)[key]) check_sources(rec, rec, "");
  }
  for (const json& p : asset("prices.json")["prices"]) {
    INFO(p.value("id", "?"));
    CHECK_FALSE(p.value("source", "").empty());
    CHECK(p.value("date_checked", "").size() >= 7);
    CHECK_FALSE(p.value("offer_kind", "").empty());
    CHECK_FALSE(p.value("provider", "").empty());
  }
}

TEST_CASE("peaks are labelled dense, and sparse headlines are flagged", "[catalog]") {
  for (const json& d : asset("devices.json")["devices"]) {
    INFO(d["id"]);
    CHECK(d.contains("headline_is_sparse"));
    CHECK(d["dense_flops"].is_object());
    // Sparse 2:4 figures are exactly twice dense; a dense BF16 peak above 3 PFLOP/s per chip would
    // mean a sparse figure slipped in (no bundled device is that fast dense at BF16).
    if (d["dense_flops"]["bf16"].is_number()) CHECK(d["dense_flops"]["bf16"].get<double>() < 3e15);
  }
}

TEST_CASE("TPU memory is stored from GiB as Google states it; GPU memory from GB", "[catalog][units]") {
  const Catalog& c = bundled_catalog();
  CHECK(c.find_device("tpu-v5p")->memory_bytes == Approx(95 * kGiB));
  CHECK(c.find_device("tpu-ironwood")->memory_bytes == Approx(192 * kGiB));
  CHECK(c.find_device("h100")->memory_bytes == Approx(80 * kGB));
}

TEST_CASE("user tables add devices and prices on top of the bundled ones", "[catalog]") {
  Catalog c = bundled_catalog();
  const auto issues = merge_tables(c, R"({"devices": [{"id": "x1", "name": "X1", "memory_bytes": 256e9,
      "hbm_bytes_per_s": 10e12, "dense_flops": {"bf16": 3e15}, "scale_up_domain": 16,
      "scale_up_bytes_per_s": 1e12, "scale_out_bytes_per_s": 1e11, "system_w": 2000}],
      "prices": [{"id": "my-x1", "device": "x1", "provider": "Me", "offer_kind": "reserved",
      "usd_per_device_hour": 3.5, "date_checked": "2026-11-01", "source": "quote"}]})",
                                    true);
  INFO(format_issues(issues));
  REQUIRE(issues.empty());
  REQUIRE(c.find_device("x1") != nullptr);
  CHECK(c.find_device("x1")->user_supplied);
  CHECK(c.find_price("my-x1")->user_supplied);
  CHECK(c.devices.size() == bundled_catalog().devices.size() + 1);
  const auto p = parse_scenario(R"({"device": "x1", "training": {"price": "my-x1"}})", c);
  REQUIRE(p.ok());
  CHECK(p.scenario.training.price.usd_per_device_hour == 3.5);
  SECTION("bad user tables are reported with paths and do not break the catalog") {
    Catalog d = bundled_catalog();
    auto bad = merge_tables(d, R"({"devices": [{"id": "Bad Id!", "memory_bytes": -1}], "prices": [{"id": "p",
        "device": "nope", "usd_per_device_hour": 1}]})", true);
    CHECK(bad.size() >= 2);
    CHECK(d.devices.size() == bundled_catalog().devices.size());
    CHECK(merge_tables(d, "{not json", true).size() == 1);
    CHECK(merge_tables(d, R"({"devices": 5})", true)[0].path == "devices");
  }
}
