// Helpers for the seed-figure tests: load a scenario from docs/examples/, evaluate it, and compare
// a result with a figure the seed post PRINTS, at the rounding the seed prints it.
//
//   const Example ex = load_example("dense-1t-gb200.json");
//   CHECK_ROUNDS(ex.e.memory.activation_bytes_no_recompute_per_layer / kGB, 5.14, 2);  // "5.14 GB"
//
// The expected values in these tests are always the seed's printed numbers, never our own output.
#pragma once
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "sizer/sizer.h"

namespace seedtest {

struct Example {
  sizer::Scenario s;
  sizer::Estimate e;
};

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Loads docs/examples/<name>, requires it to parse without issues, and evaluates it.
inline Example load_example(const std::string& name) {
  const std::string path = std::string(SIZER_SOURCE_DIR) + "/docs/examples/" + name;
  const std::string text = read_text(path);
  INFO("example " << path);
  REQUIRE_FALSE(text.empty());
  sizer::ParsedScenario p = sizer::parse_scenario(text, sizer::bundled_catalog());
  for (const sizer::Issue& i : p.issues) UNSCOPED_INFO(i.path << ": " << i.message);
  REQUIRE(p.ok());
  Example ex;
  ex.s = p.scenario;
  ex.e = sizer::evaluate(ex.s);
  return ex;
}

inline const sizer::Catalog& cat() { return sizer::bundled_catalog(); }

inline const sizer::Device& device(const char* id) {
  const sizer::Device* d = cat().find_device(id);
  REQUIRE(d != nullptr);
  return *d;
}

inline const sizer::System& system_of(const char* id) {
  const sizer::System* s = cat().find_system(id);
  REQUIRE(s != nullptr);
  return *s;
}

// $ per device-hour of a bundled price offer.
inline double price(const char* id) {
  const sizer::PriceOffer* p = cat().find_price(id);
  REQUIRE(p != nullptr);
  return p->usd_per_device_hour;
}

// Parses a scenario given inline (used for sweeps over devices and precisions).
inline Example load_text(const std::string& text) {
  sizer::ParsedScenario p = sizer::parse_scenario(text, sizer::bundled_catalog());
  INFO(text);
  for (const sizer::Issue& i : p.issues) UNSCOPED_INFO(i.path << ": " << i.message);
  REQUIRE(p.ok());
  Example ex;
  ex.s = p.scenario;
  ex.e = sizer::evaluate(ex.s, false);
  return ex;
}

// True when `value` shown with `decimals` decimals reads as `printed` (negative decimals round to
// tens, hundreds, ...: -3 checks "about 15,000"-style figures to the nearest thousand).
inline bool rounds_to(double value, double printed, int decimals) {
  const double f = std::pow(10.0, decimals);
  return std::llround(value * f) == std::llround(printed * f);
}

}  // namespace seedtest

// CHECK that `value` rounds to the seed's printed figure at `decimals` decimals; shows the value.
#define CHECK_ROUNDS(value, printed, decimals)                                               \
  do {                                                                                       \
    const double seed_value_ = (value);                                                      \
    INFO(#value << " = " << seed_value_ << "; seed prints " << (printed) << " at " << (decimals) \
                << " decimals");                                                             \
    CHECK(seedtest::rounds_to(seed_value_, (printed), (decimals)));                          \
  } while (0)

// CHECK that |value − printed| ≤ tol, for seed figures whose own arithmetic is looser than their
// printed digits (each use says why).
#define CHECK_NEAR(value, printed, tol)                                                        \
  do {                                                                                         \
    const double seed_value_ = (value);                                                        \
    INFO(#value << " = " << seed_value_ << "; seed prints " << (printed) << " (tolerance " << (tol) \
                << ")");                                                                       \
    CHECK(std::fabs(seed_value_ - (printed)) <= (tol));                                        \
  } while (0)
