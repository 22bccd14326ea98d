// Data-parallel terms of a layout's step: gradient reduction (reduce-scatter + all-gather, the
// all-reduce volume) done hierarchically — reduce-scatter among the DP ranks that share a scale-up
// domain, all-reduce the shard across domains, all-gather back (Jia et al. 2018; NCCL's ring/tree)
// — hidden behind the last backward pass when overlapped; ZeRO-3 adds the forward and backward
// weight all-gathers of every micro-batch (Rajbhandari et al. 2020), prefetched under compute.
#include "parts.h"

namespace sizer::layout {

namespace {
constexpr double kDpBackwardShare = 2.0 / 3.0;  // backward share of a micro-batch's time
}  // namespace

void data_parallel_terms(const Model& m, const Device& d, const PlanLayout& l, const PlanContext& c, const Step& st,
                         double t_mb, LayoutResult* r) {
  (void)m;
  if (st.dp_group <= 1) return;
  const double inner = l.tp * l.pp * (st.moe ? l.cp * l.ep : 1.0);
  const double k = std::max(1.0, std::min(st.dp_group, std::floor(st.domain / inner)));
  const double grads = st.shard_params * c.grad_bytes;
  double t = collective_s(d, Link::scale_up, k > 1 ? 1 : 0, 2 * (k - 1) / k * grads);
  const double across = st.dp_group / k;
  if (across > 1) t += collective_s(d, Link::scale_out, 1, 2 * (across - 1) / across * grads / k);
  if (l.zero_stage >= 3) {
    const double params = st.shard_params * c.activation_bytes;
    const double gather_s = collective_s(d, Link::scale_up, k > 1 ? 2 * st.mb : 0, (k - 1) / k * params) +
                            collective_s(d, Link::scale_out, across > 1 ? 2 * st.mb : 0, (across - 1) / across * params / k);
    t += std::max(0.0, gather_s - r->compute_s);  // prefetched under compute
  }
  const double hidden = l.dp_overlap ? kDpBackwardShare * t_mb : 0.0;
  r->dp_comm_exposed_s = std::max(0.0, t - hidden);
}

}  // namespace sizer::layout
