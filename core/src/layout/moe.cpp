// Mixture-of-experts terms of a layout's step.
// Source: expert parallel all-to-all dispatches and combines k expert copies of every token per
// MoE layer, forward and backward (DeepSeek-V3 report §3.2).
#include "parts.h"

namespace sizer::layout {

void moe_terms(const Model& m, const Device& d, const PlanLayout& l, const PlanContext& c, const Step& st,
               LayoutResult* r) {
  if (!st.moe || l.ep <= 1) return;
  const double tokens_dev = l.micro_batch * l.seq_len / (l.cp * l.tp);
  const double bytes = tokens_dev * m.moe.experts_per_token * m.hidden *
                       (c.alltoall_dispatch_bytes + c.alltoall_combine_bytes) * (l.ep - 1) / l.ep;
  const double passes_a2a = 2.0 + (l.recompute == Recompute::full ? 1.0 : 0.0);
  r->ep_comm_s = collective_s(d, r->ep_link, passes_a2a * (m.moe.moe_layers / l.pp) * st.mb, bytes);
}

}  // namespace sizer::layout
