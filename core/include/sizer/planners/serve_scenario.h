// Bridge from a resolved Scenario's `serving` block to the serving performance model (serve.h):
// the context and layout it evaluates, the default compute precision and the ceiling's replica
// size that the default layout fills.
#pragma once
#include "sizer/planners/scenario.h"
#include "sizer/serve/serving_model.h"

namespace sizer::serve {


// The seed ceiling's automatic replica: the smallest power of two ≥ min_devices inside one
// scale-up domain, else whole domains.
double auto_replica_devices(double min_devices, double domain);

// The ceiling's replica devices for a scenario: serving.replica_devices, else automatic from
// weights + KV (context × batch × fill) on usable HBM.
double ceiling_replica_devices(const Model& m, const Device& d, const ServingInputs& v);

// The serving model's context for a scenario (precisions, workload, engine, SLO, spec decode).
ServeContext serve_context(const Scenario& s);

}  // namespace sizer::serve
