// Display formatting at the edges: decimal units, sensible scaling, no NaN shown.
#include <catch2/catch.hpp>
#include <cmath>

#include "sizer/formulas/format.h"

using namespace sizer;

TEST_CASE("bytes use decimal prefixes", "[format]") {
  CHECK(fmt::bytes(16e12) == "16.0 TB");
  CHECK(fmt::bytes(5.138e9) == "5.14 GB");
  CHECK(fmt::bytes(734e6) == "734 MB");
  CHECK(fmt::bytes_per_s(576e12) == "576 TB/s");
}

TEST_CASE("money, power, energy, time and counts scale to readable units", "[format]") {
  CHECK(fmt::usd(128.3e6) == "$128M");
  CHECK(fmt::usd(5.97) == "$5.97");
  CHECK(fmt::usd(1.2e9) == "$1.20B");
  CHECK(fmt::watts(32.69e6) == "32.7 MW");
  CHECK(fmt::watts(1787.5) == "1.79 kW");
  CHECK(fmt::energy_wh(63.56e9) == "63.6 GWh");
  CHECK(fmt::seconds(2.93e-3) == "2.93 ms");
  CHECK(fmt::seconds(75.39) == "75.4 s");
  CHECK(fmt::seconds(62.9 * 86400) == "62.9 days");
  CHECK(fmt::count(15242) == "15,242");
  CHECK(fmt::count(29.63e6) == "29.6M");
  CHECK(fmt::count(3.34e6) == "3.34M");
  CHECK(fmt::hours(1.3227e6) == "1.32M h");
  CHECK(fmt::percent(0.45) == "45.0%");
  CHECK(fmt::percent(0.0021) == "0.21%");
}

TEST_CASE("non-finite values never reach the screen as nan or inf", "[format]") {
  const double bad[] = {std::nan(""), INFINITY, -INFINITY};
  for (double v : bad) {
    CHECK(fmt::bytes(v) == "—");
    CHECK(fmt::usd(v) == "—");
    CHECK(fmt::seconds(v) == "—");
    CHECK(fmt::count(v) == "—");
    CHECK(fmt::percent(v) == "—");
    CHECK(fmt::flops(v) == "—");
  }
}
