// The layout model's prediction for a written training.layout (layout_model.h, docs/planner.md):
// one answer per question. The seed's method times a step from an assumed MFU
// (training.comms.step_s, seed post Part 2); when the user has written a layout, the layout model
// predicts that layout's step from its GEMM shapes, memory traffic, collectives, bubble and
// overheads, and that prediction is the headline, the assumed-MFU figure staying as the seed's method.
#include "planners/estimate_parts.h"
#include "sizer/layout/layout_model.h"
#include "sizer/planners/planner.h"
#include "sizer/formulas/working.h"

namespace sizer::detail {

void evaluate_layout_prediction(const Scenario& s, Estimate& e, WorkingLog& w) {
  if (!s.training.layout_given) return;
  const RankedLayout x = plan(s);
  const PlanLayout& l = x.layout;
  const LayoutResult& r = x.result;
  if (!r.valid() || !(r.step_s > 0)) return;
  LayoutPrediction& p = e.layout;
  p.has = true;
  p.fits = r.fits;
  p.step_s = r.step_s;
  p.mfu = r.mfu_predicted;
  p.tokens_per_s = r.tokens_per_s;
  p.device_memory_bytes = r.device_memory_bytes;
  p.usable_memory_bytes = r.usable_memory_bytes;
  p.devices = l.devices();
  p.notes = x.explanations;
  p.accuracy = x.accuracy;
  write_working(w, [&] {
    w.add("training.layout_prediction.step_s",
          "the layout model for training.layout: m × (GEMM + attention + memory-bound + TP + EP + CP + PP + "
          "overheads) + bubble + exposed DP + optimizer",
          "compute " + num(r.compute_s) + " s, memory-bound " + num(r.memory_bound_s) + " s, TP " + num(r.tp_comm_s) +
              " s, EP " + num(r.ep_comm_s) + " s, PP bubble " + num(r.pp_bubble_s) + " s, DP " +
              num(r.dp_comm_exposed_s) + " s, overheads " + num(r.overhead_s) + " s, optimizer " + num(r.optimizer_s) +
              " s → " + num(r.step_s) + " s per step (MFU " + num(r.mfu_predicted) + "; the seed's method at the assumed MFU " +
              num(e.comms.step_mfu) + " gives " + num(e.comms.step_s) + " s)",
          "docs/planner.md; validated in docs/validation.md");
  });
}

}  // namespace sizer::detail
