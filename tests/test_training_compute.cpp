// Training compute: 6ND, device hours, cluster size, scale-up domains, step time.
#include <catch2/catch.hpp>

#include "sizer/formulas/training_compute.h"

using namespace sizer;

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
