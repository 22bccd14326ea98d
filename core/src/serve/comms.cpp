// Collectives of one pipeline stage in a serving step, each with bandwidth AND latency.
// Sources:
//  - Tensor parallelism: 2 all-reduces per layer, after attention and after the MLP (Shoeybi et
//    al. 2019 §3, forward only); a MoE layer with expert parallelism or attention DP replaces the
//    second by the dispatch/combine. Bytes per device 2(t−1)/t of the message (ring or two-shot;
//    Patarasuk & Yuan 2009). Each all-reduce is a sequential step of the forward pass, so their
//    latencies add: hundreds per token set a floor that no HBM bandwidth removes (seed post
//    Part 4, case 3).
//  - MoE dispatch and combine: two all-to-alls per MoE layer moving k copies of each token's hidden
//    vector (dispatch in FP8, combine in BF16: DeepSeek-V3 report §3.2 and DeepEP), the share
//    (ep − 1)/ep leaving the rank, the busiest rank receiving `imbalance` × the mean. With
//    attention DP and no EP, the experts are split by TP over all tp·dp ranks and each DP rank's
//    tokens are all-gathered before and reduce-scattered after the MoE layer (SGLang's DP
//    attention).
//  - Pipeline: one send of the micro-batch's hidden states per stage boundary.
#include "parts.h"

namespace sizer::serve {

namespace {
constexpr double kTpAllReducesPerLayer = 2.0;
constexpr double kExchangesPerMoeLayer = 2.0;  // dispatch and combine

double transfer_s(double bytes, double bw) { return bw > 0 ? bytes / bw : 0.0; }
}  // namespace

void comm_terms(const Model& m, const ServeLayout& l, const ServeContext& c, const Shape& s,
                const MicroBatch& b, StageTerms* t) {
  const double T = b.tokens();
  if (T <= 0) return;
  const double h = m.hidden, ab = c.activation_bytes;
  const double tokens_rank = T / l.dp;
  const bool exchange = s.moe && (l.ep > 1 || l.dp > 1);
  if (l.tp > 1) {
    const double dense_layers = s.layers_stage - s.moe_layers_stage;
    const double moe_reduces = exchange ? 1.0 : kTpAllReducesPerLayer;
    const double count = kTpAllReducesPerLayer * dense_layers + moe_reduces * s.moe_layers_stage;
    const double msg = tokens_rank * h * ab;
    t->comm_s += count * (s.tp_lat + transfer_s(2 * (l.tp - 1) / l.tp * msg, s.tp_bw));
  }
  if (!exchange || s.moe_layers_stage <= 0) return;
  const double k = m.moe.experts_per_token, elem = c.dispatch_bytes + c.combine_bytes;
  double per_layer = 0;
  if (l.ep > 1) {
    const double bytes = T / (l.tp * l.dp) * k * h * elem * (l.ep - 1) / l.ep * s.imbalance;
    per_layer = kExchangesPerMoeLayer * s.ep_lat + transfer_s(bytes, s.ep_bw);
  } else {
    const double bytes = (l.dp - 1) / l.dp * T * h * elem / l.tp;
    per_layer = kExchangesPerMoeLayer * s.dp_lat + transfer_s(bytes, s.dp_bw);
  }
  t->comm_s += per_layer * s.moe_layers_stage;
}

}  // namespace sizer::serve
