// Bundled hardware values checked against the figures their sources print (assets/README.md): the
// corrected rows, the system-power convention of assets/README.md, the consistency of system rows
// with their device rows, and the price coverage (every device has a dated offer or an explicit
// no-public-price note). Expected values here are the sources' numbers, not our own output.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "sizer/contract/bundled_assets.h"
#include "sizer/sizer.h"

using nlohmann::json;

namespace {

json asset(const std::string& name) {
  // The repository's table, with its provenance text (the embedded copy is lean: lean_table.py).
  std::ifstream f(std::string(SIZER_SOURCE_DIR) + "/assets/" + name);
  if (!f) FAIL("missing asset " << name);
  return json::parse(std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()));
}

std::map<std::string, json> by_id(const json& rows) {
  std::map<std::string, json> out;
  for (const json& r : rows) out[r.at("id").get<std::string>()] = r;
  return out;
}

double num(const json& row, const char* key) { return row.at(key).get<double>(); }

std::string source_text(const json& row, const std::string& key) {
  return row.at("sources").at(key).at("text").get<std::string>();
}

bool contains(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

}  // namespace

TEST_CASE("corrected device values equal their sources", "[catalog][sources]") {
  const sizer::Catalog& c = sizer::bundled_catalog();
  const json devices = asset("devices.json");
  const auto dev = by_id(devices["devices"]);

  SECTION("TPU7x / Ironwood HBM bandwidth: Google's TPU7x table says 7380 GB/s") {
    CHECK(c.find_device("tpu-ironwood")->hbm_bytes_per_s == 7380e9);
    CHECK(contains(source_text(dev.at("tpu-ironwood"), "hbm_bytes_per_s"), "7380"));
    // Same table: ICI 1200 GB/s bidirectional per chip, stored per direction.
    CHECK(c.find_device("tpu-ironwood")->scale_up_bytes_per_s == 1200e9 / 2);
  }
  SECTION("H800 NVLink: 400 GB/s bidirectional = 200 GB/s per direction, like every NVLink row") {
    CHECK(c.find_device("h800")->scale_up_bytes_per_s == 400e9 / 2);
    CHECK(c.find_system("hgx-h800")->scale_up_bytes_per_s == 400e9 / 2);
    // The other NVLink rows use the same per-direction convention: NVLink 4 900/2, NVLink 5 1800/2.
    CHECK(c.find_device("h100")->scale_up_bytes_per_s == 900e9 / 2);
    CHECK(c.find_device("h200")->scale_up_bytes_per_s == 900e9 / 2);
    for (const char* id : {"b200", "b300", "gb200", "gb300"}) {
      INFO(id);
      CHECK(c.find_device(id)->scale_up_bytes_per_s == 1800e9 / 2);
    }
  }
  SECTION("B300: 288 GB per GPU (HGX/DGX B300 2.3 TB per 8 GPUs) and 15 PFLOP/s dense FP4") {
    const sizer::Device& b = *c.find_device("b300");
    CHECK(b.memory_bytes == 288e9);
    CHECK(std::round(8 * b.memory_bytes / 1e11) / 10 == 2.3);  // "2.3 TB" per 8 GPUs
    CHECK(c.find_system("hgx-b300")->hbm_bytes_total == 8 * 288e9);
    CHECK(b.dense_flops(sizer::Precision::fp4) == 15e15);
    CHECK(contains(source_text(dev.at("b300"), "dense_flops.fp4"), "dense"));
    CHECK(dev.at("b300").at("headline_is_sparse").get<bool>());
  }
  SECTION("GB300: 288 GB (seed 001: 'A 288 GB part like the GB300'); NVL72 FP4 1,080 PF dense / 72") {
    const sizer::Device& g = *c.find_device("gb300");
    CHECK(g.memory_bytes == 288e9);
    CHECK(c.find_system("gb300-nvl72")->hbm_bytes_total == 72 * 288e9);
    CHECK(g.dense_flops(sizer::Precision::fp4) == 1080e15 / 72);
  }
  SECTION("a 2:4-sparse figure never sits in a dense slot: FP4 <= 2 x FP8 <= 4 x BF16") {
    for (const json& d : devices["devices"]) {
      INFO(d["id"]);
      const json& f = d["dense_flops"];
      if (f["fp8"].is_number() && f["bf16"].is_number()) {
        // AMD rounds; NVIDIA's L40S datasheet prints 362.05 BF16 and 733 FP8 dense (2.02x).
        CHECK(f["fp8"].get<double>() <= 2 * f["bf16"].get<double>() * 1.025);
      }
      // Blackwell Ultra's dense NVFP4 is 3x its dense FP8 (GB300 15 vs 5 PF; B300 15 vs the HGX
      // 4.5 PF FP8 = 3.3x). A sparse FP4 figure (B300 18 PF, GB200 20 PF) would reach 4x.
      if (f["fp4"].is_number() && f["fp8"].is_number()) {
        CHECK(f["fp4"].get<double>() < 4 * f["fp8"].get<double>());
      }
    }
  }
}

TEST_CASE("system rows agree with their device rows", "[catalog][systems]") {
  const sizer::Catalog& c = sizer::bundled_catalog();
  for (const sizer::System& s : c.systems) {
    INFO(s.id);
    const sizer::Device& d = *c.find_device(s.device);
    CHECK(s.scale_up_bytes_per_s == d.scale_up_bytes_per_s);
    CHECK(s.scale_up_domain <= s.devices);
    // Total HBM is the device count times the device's memory (exact for every bundled system).
    CHECK(s.hbm_bytes_total == Approx(s.devices * d.memory_bytes).epsilon(1e-12));
  }
  for (const sizer::Device& d : c.devices) {
    INFO(d.id);
    if (d.default_system.empty()) continue;
    const sizer::System& s = *c.find_system(d.default_system);
    // The device's system_w is its default system's system_w_per_device (both 0 when unknown),
    // except the two per-GPU assumptions the seed states itself (seed Part 6), which win for the
    // defaults of a scenario that names no system.
    if (d.id == "h100") CHECK(d.system_w != s.system_w_per_device);
    else CHECK(d.system_w == s.system_w_per_device);
    CHECK(d.scale_up_domain == s.scale_up_domain);
  }
}

// assets/README.md, "Power": system_w_per_device = the system's sourced power_w / devices; where the
// system has no published power, TDP x 1.5 (an assumption); where neither exists, null. No system
// is an exception (H100 10.2 kW ÷ 8 and GB200 NVL72 120 kW ÷ 72 used to disagree with
// their own rows). The seed's own H100 assumption lives on the device row (the default for a
// scenario that names no system); for the GB200 NVL72, whose rack power NVIDIA does not state, the
// seed's proxy is the system's power.
TEST_CASE("system power per device follows the documented convention", "[catalog][power]") {
  const json systems = asset("systems.json");
  const auto dev = by_id(asset("devices.json")["devices"]);
  int checked_power = 0, checked_tdp = 0;
  for (const json& s : systems["systems"]) {
    const std::string id = s.at("id");
    INFO(id);
    const json& swpd = s.at("system_w_per_device");
    const json& power = s.at("power_w");
    const json& d = dev.at(s.at("device").get<std::string>());
    const double n = num(s, "devices");
    if (power.is_number()) {
      REQUIRE(swpd.is_number());
      // Rounded to at most 0.1 W per device.
      CHECK(std::abs(swpd.get<double>() - power.get<double>() / n) <= 0.05);
      ++checked_power;
    } else if (d.at("tdp_w").is_number()) {
      REQUIRE(swpd.is_number());
      CHECK(swpd.get<double>() == Approx(1.5 * d.at("tdp_w").get<double>()));
      CHECK(contains(source_text(s, "system_w_per_device"), "x 1.5"));
      ++checked_tdp;
    } else {
      CHECK(swpd.is_null());
    }
  }
  CHECK(checked_power >= 5);
  CHECK(checked_tdp >= 5);

  SECTION("the seed's own per-GPU assumptions are the device defaults; the systems keep their sources") {
    const sizer::Catalog& c = sizer::bundled_catalog();
    CHECK(c.find_device("h100")->system_w == 700 * 1.5);  // seed Part 6: TDP x 1.5
    CHECK(c.find_system("hgx-h100")->system_w_per_device == 10200.0 / 8);
    // Seed Part 6: NVIDIA's NVL72 page states no rack power; the DGX B200 proxy for both rows.
    CHECK(c.find_device("gb200")->system_w == 14300.0 / 8);
    CHECK(c.find_system("gb200-nvl72")->system_w_per_device == 14300.0 / 8);
    CHECK(c.find_system("gb200-nvl72")->power_w == 72 * 14300.0 / 8);
    CHECK(c.find_system("dgx-b200")->system_w_per_device == 14300.0 / 8);  // convention and seed agree
    CHECK(c.find_system("hgx-h200")->system_w_per_device == 10200.0 / 8);
  }
}

TEST_CASE("every device has a dated public price or an explicit no-public-price note",
          "[catalog][prices]") {
  const sizer::Catalog& c = sizer::bundled_catalog();
  const json devices = asset("devices.json");
  const json prices = asset("prices.json");
  std::set<std::string> priced;
  for (const json& p : prices["prices"]) {
    INFO(p["id"]);
    priced.insert(p.at("device").get<std::string>());
    CHECK(p.at("usd_per_device_hour").get<double>() > 0);
    CHECK(p.at("date_checked").get<std::string>().size() == 10);  // YYYY-MM-DD
  }
  for (const json& d : devices["devices"]) {
    const std::string id = d.at("id");
    INFO(id);
    const bool has_offer = priced.count(id) > 0;
    const bool has_note = d.contains("price_note");
    CHECK(has_offer != has_note);  // one or the other, never both, never neither
    if (has_note) {
      CHECK(contains(d["price_note"].at("text").get<std::string>(), "No public"));
      CHECK(d["price_note"].at("date").get<std::string>().size() == 10);
      CHECK(d.at("default_price").is_null());
    } else {
      // A priced device is ranked by cost in the comparison, so it needs a default offer.
      const sizer::Device& dv = *c.find_device(id);
      REQUIRE_FALSE(dv.default_price.empty());
      CHECK(c.find_price(dv.default_price)->device == id);
    }
  }
  SECTION("the chips that had no offer at first, and the ones with no public price") {
    for (const char* id : {"a100", "mi300x", "mi325x", "b300", "trainium2"}) {
      INFO(id);
      CHECK_FALSE(c.find_device(id)->default_price.empty());
    }
    CHECK(c.find_price("aws-od-trainium2")->usd_per_device_hour == Approx(35.76 / 16));
    CHECK(c.find_price("coreweave-spot-b300")->usd_per_device_hour == Approx(35.84 / 8));
    CHECK(c.find_price("coreweave-spot-b300")->offer_kind == "spot");
    const auto dev = by_id(devices["devices"]);
    for (const char* id : {"h800", "gb300", "mi355x", "gaudi3"}) {
      INFO(id);
      CHECK(dev.at(id).contains("price_note"));
    }
  }
}
