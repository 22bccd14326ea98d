// Model checks: the 12·L·h² parameter count.
#include <catch2/catch.hpp>

#include "sizer/formulas/model.h"

using namespace sizer;

TEST_CASE("a dense block stack has 12·L·h² parameters", "[model]") {
  CHECK(dense_stack_params(1, 1) == 12);
  CHECK(dense_stack_params(96, 12288) == Approx(12.0 * 96 * 12288 * 12288));  // GPT-3 175B: 174B
  CHECK(dense_stack_params(96, 12288) / 175e9 == Approx(1).epsilon(0.01));
}
