// Model-only formulas (see model.h for sources).
#include "sizer/model.h"

#include <algorithm>
#include <cmath>

namespace sizer {

namespace {
constexpr double kDenseBlockParamsPerH2 = 12.0;  // 4h² attention + 8h² MLP (Kaplan et al. 2020)
constexpr double kKeyAndValue = 2.0;             // one key and one value vector per head
constexpr long long kMaxBlockLoop = 1 << 16;     // block_keys_per_query's longest exact loop
}  // namespace

double dense_stack_params(double layers, double hidden) {
  return kDenseBlockParamsPerH2 * layers * hidden * hidden;
}

double kv_bytes_per_token(const Model& m, double bytes_per_value) {
  const Attention& a = m.attention;
  if (a.kind == AttentionKind::mla) return m.layers * (a.kv_latent + a.rope_dim) * bytes_per_value;
  return kKeyAndValue * m.layers * a.kv_heads * a.head_dim * bytes_per_value;
}

double windowed_layers(const Model& m) {
  if (!(m.attention.window > 0)) return 0;
  return m.attention.window_layers > 0 ? std::min(m.attention.window_layers, m.layers) : m.layers;
}

double attention_span(const Model& m, double seq_len) {
  const double w = m.attention.window, local = windowed_layers(m);
  if (!(local > 0) || !(m.layers > 0) || w >= seq_len) return seq_len;
  const double local_span = 2 * w - w * w / seq_len;
  return ((m.layers - local) * seq_len + local * local_span) / m.layers;
}

double block_keys_per_query(double s, double w, double bq, double bkv) {
  const bool ok = s >= 1 && w >= 1 && bq >= 1 && bkv >= 1 && s < 1e12 && bq < 1e12 && bkv < 1e12;
  const double exact_w = std::min(std::max(0.0, w), std::max(0.0, s));
  if (!ok) return s > 0 ? exact_w - exact_w * exact_w / (2 * s) : 0.0;
  using I = long long;
  const I S = std::llround(s), W = std::min<I>(std::llround(w), S), Q = std::llround(bq), K = std::llround(bkv);
  const I n = (S + Q - 1) / Q;  // query blocks
  auto blocks = [&](I i) {
    const I a = i * Q, last = std::min(S - 1, a + Q - 1), first = std::max<I>(0, a - W + 1);
    return last / K - first / K + 1;
  };
  auto queries = [&](I i) { return std::min(Q, S - i * Q); };
  // Blocks before the window is full, and the last (possibly short) block, one by one; between
  // them the pattern repeats with period P query blocks.
  const I i0 = std::min(n, (W - 1 + Q - 1) / Q);
  const I end = std::max(i0, n - 1);
  if (i0 > kMaxBlockLoop) return std::min(static_cast<double>(S), static_cast<double>(W + Q - 2 + K));
  double keys = 0;
  for (I i = 0; i < i0; ++i) keys += static_cast<double>(blocks(i)) * K * queries(i);
  if (end > i0) {
    I g = Q, h = K;
    while (h != 0) { const I t = g % h; g = h; h = t; }
    const I P = K / g, steady = end - i0, loop = std::min(P, steady);
    if (loop > kMaxBlockLoop) {
      // A pathological shape: its expected count at a random alignment, (w + bq − 2)/bkv + 1.
      keys += std::min(static_cast<double>(S), static_cast<double>(W + Q - 2 + K)) * Q * steady;
    } else {
      double first = 0;
      for (I j = 0; j < loop; ++j) first += static_cast<double>(blocks(i0 + j));
      double sum = first;
      if (steady > P) {
        double rest = 0;
        for (I j = 0; j < steady % P; ++j) rest += static_cast<double>(blocks(i0 + j));
        sum = static_cast<double>(steady / P) * first + rest;
      }
      keys += sum * K * Q;
    }
  }
  for (I i = std::max(i0, end); i < n; ++i) keys += static_cast<double>(blocks(i)) * K * queries(i);
  return keys / S;
}

double attention_span_computed(const Model& m, double seq_len, const AttentionBlocks& blocks, bool backward) {
  const double w = m.attention.window, local = windowed_layers(m);
  if (!blocks.any() || !(local > 0) || !(m.layers > 0) || w >= seq_len) return attention_span(m, seq_len);
  double bq = blocks.q_tokens, bkv = blocks.kv_tokens;
  if (backward) {
    if (blocks.q_bwd_tokens > 0) bq = blocks.q_bwd_tokens;
    if (blocks.kv_bwd_tokens > 0) bkv = blocks.kv_bwd_tokens;
  }
  if (!(bq > 0)) bq = bkv;
  if (!(bkv > 0)) bkv = bq;
  const double local_span = 2 * block_keys_per_query(seq_len, w, bq, bkv);
  return ((m.layers - local) * seq_len + local * local_span) / m.layers;
}

double routed_expert_params(const Model& m) {
  const MoeShape& e = m.moe;
  if (!e.enabled() || e.experts <= e.experts_per_token || e.moe_layers <= 0) return 0;
  // total − active = (E − k)·p_e·L_moe, so all routed experts hold E·p_e·L_moe parameters.
  const double per_expert_all_layers =
      std::max(0.0, m.params - m.active_params) / (e.experts - e.experts_per_token);
  return std::min(m.params, e.experts * per_expert_all_layers);
}

double params_per_expert(const Model& m) {
  const MoeShape& e = m.moe;
  if (!e.enabled() || e.moe_layers <= 0) return 0;
  return routed_expert_params(m) / (e.experts * e.moe_layers);
}

double expert_ffn_width(const Model& m) {
  if (m.moe.expert_ffn_hidden > 0) return m.moe.expert_ffn_hidden;
  constexpr double kGatedFfnMatrices = 3.0;  // gate, up and down projections, h × f each
  return m.hidden > 0 ? params_per_expert(m) / (kGatedFfnMatrices * m.hidden) : 0.0;
}

double always_read_params(const Model& m) { return m.params - routed_expert_params(m); }

MoeTokenPath moe_token_path(const Model& m) {
  if (!m.moe.enabled()) return {1.0, m.ffn_hidden > 0 ? m.ffn_hidden : 4 * m.hidden};
  const double fe = expert_ffn_width(m), k = m.moe.experts_per_token, shared = std::max(0.0, m.moe.shared_experts);
  return {k + (shared > 0 ? 1.0 : 0.0), (k + shared) * fe};
}

}  // namespace sizer
