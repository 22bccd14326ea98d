// Properties of the serving model over every bundled model and device: whatever the workload,
// the numbers are finite, the step's terms add up, Little's law holds and the capacity is a bound.
#include <catch2/catch.hpp>
#include <cmath>

#include "sizer/contract/catalog_load.h"
#include "sizer/planners/catalog.h"
#include "sizer/serve/serving_model.h"

using namespace sizer;
using namespace sizer::serve;

namespace {

void check_step(const StepTime& t) {
  for (double v : {t.weights_read_s, t.kv_read_s, t.compute_s, t.comm_s, t.overhead_s, t.step_s,
                   t.weight_bytes_read, t.kv_bytes_read, t.flops, t.experts_touched_fraction}) {
    CHECK(std::isfinite(v));
    CHECK(v >= 0);
  }
  CHECK(t.step_s == Approx(t.weights_read_s + t.kv_read_s + t.compute_s + t.comm_s + t.overhead_s));
}

void check(const Performance& p, const Workload& w) {
  const bool decodes = w.output_tokens > 1;
  // With one output token there is no time per output token: not defined (NaN), never 0.
  if (!decodes) {
    CHECK(std::isnan(p.tpot_s));
    CHECK(std::isnan(p.tokens_per_s_per_user));
  }
  for (double v : {p.ttft_s, decodes ? p.tpot_s : 1.0, p.e2e_s, p.queue_s, p.prefill_s,
                   decodes ? p.tokens_per_s_per_user : 1.0, p.output_tokens_per_s_per_device, p.output_tokens_per_s_per_replica,
                   p.requests_per_s_per_replica, p.max_requests_per_s_per_replica, p.decode_batch,
                   p.concurrency, p.max_concurrency_kv, p.prefill_utilisation}) {
    CHECK(std::isfinite(v));
    CHECK(v >= 0);
  }
  check_step(p.decode);
  check_step(p.prefill);
  CHECK(p.e2e_s >= p.ttft_s);
  CHECK(p.e2e_s == Approx(p.ttft_s + (decodes ? (w.output_tokens - 1) * p.tpot_s : 0.0)));
  CHECK(p.concurrency == Approx(p.requests_per_s_per_replica * p.e2e_s).epsilon(1e-6));
  CHECK(p.requests_per_s_per_replica <= p.max_requests_per_s_per_replica * (1 + 1e-6));
  CHECK(p.prefill_utilisation < 1);
  CHECK(p.decode_batch <= p.concurrency * (1 + 1e-9) + 1e-9);
}

}  // namespace

TEST_CASE("every bundled model on every bundled device: finite, additive, Little's law",
          "[serve]") {
  const Catalog& cat = bundled_catalog();
  int evaluated = 0;
  for (const Model& m : cat.models) {
    for (const Device& d : cat.devices) {
      ServeContext c;
      c.weight_precision = d.dense_flops(Precision::fp8) > 0 ? Precision::fp8 : Precision::bf16;
      c.compute_precision = c.weight_precision;
      for (const Workload& base :
           {Workload{1024, 1024}, Workload{8192, 256}, Workload{128, 4096}, Workload{2000, 1}}) {
        // The smallest power-of-two replica that holds the model and a few requests.
        ServeLayout l;
        Workload w = base;
        w.concurrency = 1;
        c.workload = w;
        double n = 1;
        Performance mem;
        for (; n <= 1024; n *= 2) {
          l = default_layout(m, d, n);
          mem = evaluate_memory(m, d, l, c);
          if (mem.valid() && mem.max_concurrency_kv >= 8) break;
        }
        if (n > 1024) continue;  // nothing fits (a 16 GB chip and a 1T model)
        INFO(m.id << " on " << d.id << " tp " << l.tp << " pp " << l.pp << " ep " << l.ep << " in "
                  << w.input_tokens << " out " << w.output_tokens);
        for (double conc : {1.0, std::floor(mem.max_concurrency_kv / 2), mem.max_concurrency_kv}) {
          c.workload.concurrency = conc;
          c.workload.requests_per_s = 0;
          const Performance p = evaluate_serving(m, d, l, c);
          REQUIRE(p.feasible());
          check(p, c.workload);
          // The same point as a rate gives the same concurrency back.
          c.workload.concurrency = 0;
          c.workload.requests_per_s = p.requests_per_s_per_replica;
          const Performance q = evaluate_serving(m, d, l, c);
          CHECK(q.concurrency == Approx(p.concurrency).epsilon(1e-3));
          ++evaluated;
        }
        // Twice the capacity: flagged, shown at capacity.
        c.workload.concurrency = 0;
        c.workload.requests_per_s =
            2 * evaluate_serving(m, d, l, c).max_requests_per_s_per_replica + 1;
        const Performance over = evaluate_serving(m, d, l, c);
        CHECK((over.problems & kServeOverloaded) != 0);
        CHECK_FALSE(over.meets_slo);
        check(over, c.workload);
      }
    }
  }
  CHECK(evaluated > 300);
}
