// Power and energy.
#include <catch2/catch.hpp>

#include "sizer/formulas/power.h"

using namespace sizer;

TEST_CASE("facility power is devices × system watts × PUE", "[power]") {
  const double it = power::it_power_w(1000, 1787.5);
  CHECK(it == Approx(1.7875e6));
  CHECK(power::facility_power_w(it, 1.2) == Approx(2.145e6));
  CHECK(power::facility_power_w(it, 1.0) == Approx(it));
}

TEST_CASE("energy is device hours × system watts × PUE", "[power]") {
  CHECK(power::energy_wh(1e6, 1000, 1.5) == Approx(1.5e9));
}
