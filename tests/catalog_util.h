// Bundled catalog lookups for tests: the model or device of an id, or the test fails there.
#pragma once
#include <catch2/catch.hpp>

#include "sizer/contract/catalog_load.h"
#include "sizer/planners/catalog.h"

namespace catalog_test {

inline const sizer::Model& model(const char* id) {
  const sizer::Model* m = sizer::bundled_catalog().find_model(id);
  REQUIRE(m);
  return *m;
}

inline const sizer::Device& device(const char* id) {
  const sizer::Device* d = sizer::bundled_catalog().find_device(id);
  REQUIRE(d);
  return *d;
}

}  // namespace catalog_test
