// Training compute: 6ND, device hours, cluster size, scale-up domains, step time; the cost and
// energy of the cluster as recommended; round-ups of huge counts that never come out short.
#include <catch2/catch.hpp>
#include <cmath>

#include "result_leaves.h"
#include "seed_examples.h"
#include "sizer/formulas/training_compute.h"
#include "sizer/formulas/units.h"

using namespace sizer;
using leaves::json;

TEST_CASE("training FLOPs are 6 · N_active · D", "[compute]") {
  CHECK(compute::training_flops(1e12, 20e12) == Approx(1.2e26));
  CHECK(compute::training_flops(2, 3) == 36);
}

TEST_CASE("device hours divide compute by peak × MFU × 3600", "[compute]") {
  CHECK(compute::device_hours(3600e18, 1e15, 1.0) == Approx(1000));
  CHECK(compute::device_hours(3600e18, 1e15, 0.5) == Approx(2000));
  SECTION("a higher MFU means fewer hours") {
    CHECK(compute::device_hours(1e26, 1e15, 0.55) < compute::device_hours(1e26, 1e15, 0.38));
  }
}

TEST_CASE("cluster size spreads device hours over the schedule and goodput", "[compute]") {
  CHECK(compute::cluster_devices(1944, 90, 0.9) == 1);
  CHECK(compute::cluster_devices(1945, 90, 0.9) == 2);      // partial devices round up
  CHECK(compute::cluster_devices(1944 * 100, 90, 0.9) == 100);  // exact multiples do not
  CHECK(compute::scale_up_domains(144, 72) == 2);
  CHECK(compute::scale_up_domains(145, 72) == 3);
}

TEST_CASE("step time and achieved throughput are consistent", "[compute]") {
  const double step = compute::step_seconds(1e12, 1e6, 1000, 1e15, 0.5);
  CHECK(step == Approx(6e18 / (1000 * 0.5e15)));
  const double tflops = compute::achieved_flops_per_device(37e9, 14.8e12, 2.664e6);
  CHECK(tflops == Approx(6 * 37e9 * 14.8e12 / (2.664e6 * 3600)));
}

TEST_CASE("cost and energy of the cluster as recommended, beside the useful hours", "[compute]") {
  // The figures for this example: $313.5M of useful hours vs renting 15,242 GPUs for 90 days = $348.4M.
  const seedtest::Example ex = seedtest::load_example("dense-1t-gb200.json");
  const TrainingCompute& c = ex.e.compute;
  CHECK_ROUNDS(c.cost_usd[1] / 1e6, 313.5, 1);
  CHECK(c.cluster_devices[1] == 15242);
  CHECK(c.cluster_device_hours[1] == 15242.0 * 90 * 24);
  CHECK_ROUNDS(c.cluster_cost_usd[1] / 1e6, 348.4, 1);
  CHECK(ex.e.power.cluster_energy_wh[1] == Approx(15242.0 * 90 * 24 * ex.s.power.system_w_per_device * ex.s.power.pue));
}

TEST_CASE("round-up of huge counts is exact", "[compute][rounding]") {
  CHECK(ceil_count(1e12 + 0.5) == 1e12 + 1);
  CHECK(ceil_count(1e13 + 0.5) == 1e13 + 1);
  CHECK(ceil_count(200.0000000001) == 200);  // FP noise on an exact multiple adds nothing
  CHECK(ceil_count(200.001) == 201);
  CHECK(ceil_count(1e-12) == 1);  // any positive need is at least one device
  CHECK(ceil_count(0) == 0);
}

TEST_CASE("Rounding: counts above 1e12 never come out short", "[compute][rounding]") {
  // A slow custom device (1 MFLOP/s) on a 1-day schedule at 100% goodput and MFU needs
  // X = 6·N·D ÷ (10^6 × 3600 × 24) devices; D is chosen so X ≈ 10^13 + 0.5. The seed rounds
  // cluster sizes up (ceil), so the answer is ⌈X⌉ = 10^13 + 1; a relative epsilon of 10^-12 gives
  // 10^13 − 9.
  const double params = 12.0 * 128 * 25600 * 25600;  // a self-consistent 12·L·h² shape
  const long double target = 1e13L + 0.5L;
  const double tokens = static_cast<double>(target * 864e8L / (6.0L * params));
  const long double x = 6.0L * params * tokens / 864e8L;  // what the scenario really needs
  const long double frac = x - std::floor(x);
  REQUIRE(frac > 0.05L);
  REQUIRE(frac < 0.95L);
  const double need = static_cast<double>(std::ceil(x));
  json s = json::parse(R"({"device": {"name": "slow", "memory_bytes": 80e9, "hbm_bytes_per_s": 1e12,
      "dense_flops": {"bf16": 1e6}, "scale_up_domain": 8, "scale_up_bytes_per_s": 1e11},
    "model": {"layers": 128, "hidden": 25600, "heads": 160, "attention": {"type": "gqa", "kv_heads": 16, "head_dim": 160}},
    "training": {"mfu": [1.0], "days": 1, "goodput": 1, "price": null}})");
  s["model"]["params"] = params;
  s["training"]["tokens"] = tokens;
  const leaves::Run r = leaves::run(s.dump());
  INFO(r.issues);
  REQUIRE(r.ok);
  const double got = r.result["training"]["compute"]["cluster_devices"][0];
  INFO("needs " << leaves::Expect::fmt(static_cast<double>(x)) << " devices; got " << leaves::Expect::fmt(got));
  CHECK(got >= need);
  CHECK(got == need);
  const double domains = r.result["training"]["compute"]["scale_up_domains"][0];
  CHECK(domains * 8 >= need);
}
