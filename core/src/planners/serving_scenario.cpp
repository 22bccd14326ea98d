// Bridge from a Scenario's serving block to the serving model (sizer/planners/serve_scenario.h).
// Sources: the seed post Part 5 (replica size from weights + KV) and seed 001 (minimum devices).
#include "sizer/planners/serve_scenario.h"
#include "sizer/formulas/serving_ceiling.h"
#include "sizer/formulas/training_memory.h"

namespace sizer::serve {

double auto_replica_devices(double min_devices, double domain) {
  double n = 1;
  while (n < min_devices) n *= 2;
  if (n <= domain || domain > 72) return n;
  return ceil_count(min_devices / domain) * domain;
}

double ceiling_replica_devices(const Model& m, const Device& d, const ServingInputs& v) {
  if (v.replica_devices > 0) return v.replica_devices;
  const double weights = serving::weight_bytes(m.params, bytes_per_value(v.weight_precision),
                                               v.block_scale_bytes_per_param);
  const double kv = serving::kv_bytes(kv_bytes_per_token(m, bytes_per_value(v.kv_precision)),
                                      v.context, v.batch, v.kv_fill);
  return auto_replica_devices(memory::min_devices(weights + kv, d.memory_bytes, v.hbm_usable),
                              d.scale_up_domain);
}

ServeContext serve_context(const Scenario& s) {
  const ServingInputs& v = s.serving;
  ServeContext c;
  c.weight_precision = v.weight_precision;
  c.kv_precision = v.kv_precision;
  c.compute_precision = v.compute_precision;
  c.block_scale_bytes_per_param = v.block_scale_bytes_per_param;
  c.hbm_usable = v.hbm_usable;
  c.workload = v.workload;
  c.spec = v.spec;
  c.slo = v.slo;
  c.engine = v.engine;
  return c;
}

}  // namespace sizer::serve
