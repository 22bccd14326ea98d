// Model checks: the 12·L·h² parameter count, and the note on an input embedding counted in
// N_active.
#include <catch2/catch.hpp>
#include <string>
#include <utility>

#include "scenario_util.h"
#include "sizer/formulas/model.h"
#include "sizer/planners/estimate.h"

using namespace sizer;

namespace {

using testutil::mentions;
using testutil::scenario;

}  // namespace

TEST_CASE("a dense block stack has 12·L·h² parameters", "[model]") {
  CHECK(dense_stack_params(1, 1) == 12);
  CHECK(dense_stack_params(96, 12288) == Approx(12.0 * 96 * 12288 * 12288));  // GPT-3 175B: 174B
  CHECK(dense_stack_params(96, 12288) / 175e9 == Approx(1).epsilon(0.01));
}

TEST_CASE("A large input embedding in N_active is named, with the matmul-only count OpenAI publishes", "[model]") {
  // OpenAI's gpt-oss model card: 5.13B active parameters for gpt-oss-120b, 3.61B for gpt-oss-20b,
  // which leave out the input embedding (201,088 × 2,880); Sizer's N_active counts it, as every
  // preset and the layout model's calibration do, and says by how much.
  for (const auto& [id, published] : {std::pair<const char*, double>{"gpt-oss-120b", 5.13e9}, {"gpt-oss-20b", 3.61e9}}) {
    INFO(id);
    const Estimate e = evaluate(scenario(std::string(R"({"model":")") + id + R"("})"));
    std::string note;
    for (const std::string& n : e.notes) {
      if (mentions(n, "includes the input embedding")) note = n;
    }
    REQUIRE_FALSE(note.empty());
    const Scenario s = scenario(std::string(R"({"model":")") + id + R"("})");
    const double matmul = s.model.active_params - s.model.vocab * s.model.hidden;
    CHECK(matmul == Approx(published).epsilon(0.005));
  }
  // Llama 3.1 405B: the embedding is 0.5% of N, not worth a note.
  for (const std::string& n : evaluate(scenario(R"({"model":"llama-3.1-405b"})")).notes) {
    CHECK_FALSE(mentions(n, "includes the input embedding"));
  }
}
