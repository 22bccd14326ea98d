// A burst of requests queued at once (serve::simulate_burst, core/src/serve/burst.cpp) and the
// engine's KV reservation and max batch: checked against hand sums of the model's own step times.
#include <catch2/catch.hpp>

#include "catalog_util.h"
#include "sizer/planners/catalog.h"
#include "sizer/serve/serving_model.h"

using namespace sizer;
using namespace sizer::serve;

namespace {

using catalog_test::device;
using catalog_test::model;

ServeContext context(double input, double output) {
  ServeContext c;
  c.weight_precision = Precision::fp8;
  c.compute_precision = Precision::fp8;
  c.kv_precision = Precision::fp8;
  c.workload.input_tokens = input;
  c.workload.output_tokens = output;
  c.workload.concurrency = 1;
  return c;
}

// One request alone, by hand: its prompt in one step, then one decode step per further token
// with its context growing by one each step.
void one_request(const Model& m, const Device& d, const ServeLayout& l, const ServeContext& c, double* ttft,
                 double* e2e) {
  const double I = c.workload.input_tokens, O = c.workload.output_tokens;
  StepLoad pre;
  pre.prefill_tokens = I;
  pre.prefill_attended = I / 2;
  pre.prefill_seqs = 1;
  double t = step_time(m, d, l, c, pre).step_s;
  *ttft = t + c.engine.request_overhead_s;
  for (double g = 1; g < O; ++g) {
    StepLoad dec;
    dec.decode_seqs = 1;
    dec.decode_context = I + g;
    t += step_time(m, d, l, c, dec).step_s;
  }
  *e2e = t + c.engine.request_overhead_s;
}

}  // namespace

TEST_CASE("a burst of one request is its prefill step and then one decode step per token", "[serve][burst]") {
  const Model& m = model("llama-3-70b");
  const Device& d = device("h100");
  const ServeLayout l{4, 1, 1, 1};
  const ServeContext c = context(2000, 64);
  double ttft = 0, e2e = 0;
  one_request(m, d, l, c, &ttft, &e2e);
  const BurstPerformance b = simulate_burst(m, d, l, c, 1, 1);
  REQUIRE(b.valid());
  CHECK(b.steps == 64);  // 1 prefill + 63 decode steps
  CHECK(b.ttft_s == Approx(ttft));
  CHECK(b.e2e_s == Approx(e2e));
  CHECK(b.tpot_s == Approx((e2e - ttft) / 63));
  CHECK(b.output_tokens_per_s_per_device == Approx(64 / (e2e - c.engine.request_overhead_s) / 4));
}

TEST_CASE("a burst with one slot serves its requests one after another", "[serve][burst]") {
  const Model& m = model("llama-3-70b");
  const Device& d = device("h100");
  const ServeLayout l{4, 1, 1, 1};
  const ServeContext c = context(512, 32);
  double ttft = 0, e2e = 0;
  one_request(m, d, l, c, &ttft, &e2e);
  const double busy = e2e - c.engine.request_overhead_s;  // one request's time on the replica
  const BurstPerformance b = simulate_burst(m, d, l, c, 5, 1);
  REQUIRE(b.valid());
  CHECK(b.max_running == 1);
  CHECK(b.makespan_s == Approx(5 * busy));
  // Request k starts after k others: TTFT_k = k·busy + ttft; the mean over k = 0…4 adds 2·busy.
  CHECK(b.ttft_s == Approx(2 * busy + ttft));
  CHECK(b.tpot_s == Approx((e2e - ttft) / 31));
}

TEST_CASE("a burst runs at most max_running at once and finishes faster with more of them", "[serve][burst]") {
  const Model& m = model("llama-3-70b");
  const Device& d = device("h100");
  const ServeLayout l{8, 1, 1, 1};
  ServeContext c = context(1000, 200);
  const BurstPerformance narrow = simulate_burst(m, d, l, c, 400, 16);
  const BurstPerformance wide = simulate_burst(m, d, l, c, 400, 128);
  REQUIRE(narrow.valid());
  REQUIRE(wide.valid());
  CHECK(narrow.max_running == 16);
  CHECK(wide.max_running == 128);
  CHECK(wide.makespan_s < narrow.makespan_s);
  CHECK(wide.output_tokens_per_s_per_device > narrow.output_tokens_per_s_per_device);
  CHECK(wide.tpot_s > narrow.tpot_s);  // a bigger batch: slower per user
  CHECK(wide.ttft_s < narrow.ttft_s);  // but far less waiting for a slot
  // Output tokens ÷ makespan, all requests counted.
  CHECK(wide.output_tokens_per_s_per_replica == Approx(400 * 200 / wide.makespan_s));
  // A prompt longer than the token budget is prefilled in chunks: it takes more steps.
  c.engine.token_budget = 256;
  const BurstPerformance chunked = simulate_burst(m, d, l, c, 1, 1);
  REQUIRE(chunked.valid());
  CHECK(chunked.steps == 4 + 199);  // ⌈1000 ÷ 256⌉ prefill chunks, then 199 decode steps
  // Bad layouts are refused, not simulated.
  const BurstPerformance bad = simulate_burst(m, d, ServeLayout{3, 1, 1, 1}, c, 10, 10);
  CHECK_FALSE(bad.valid());
  CHECK((bad.problems & kServeTpHeads) != 0);
}

TEST_CASE("KV reservation peak holds prompt + whole output per request; max_batch caps the requests", "[serve]") {
  const Model& m = model("llama-3-70b");
  const Device& d = device("h100");
  const ServeLayout l{4, 1, 1, 1};
  ServeContext c = context(1000, 1000);
  const Performance mean = evaluate_memory(m, d, l, c);
  c.engine.kv_reservation = KvReservation::peak;
  const Performance peak = evaluate_memory(m, d, l, c);
  CHECK(mean.kv_tokens_per_request == 1504);  // 1000 + 500, rounded up to 16-token blocks
  CHECK(peak.kv_tokens_per_request == 2000);
  const double per_token = peak.kv_bytes_per_token_per_device;
  CHECK(peak.max_concurrency_kv == std::floor(peak.kv_capacity_bytes_per_device / (per_token * 2000)));
  CHECK(peak.max_concurrency_kv < mean.max_concurrency_kv);
  c.engine.max_batch = 64;
  CHECK(evaluate_memory(m, d, l, c).max_concurrency_kv == 64);
  c.engine.max_batch = 1e6;  // a cap above what fits changes nothing
  CHECK(evaluate_memory(m, d, l, c).max_concurrency_kv == peak.max_concurrency_kv);
}
