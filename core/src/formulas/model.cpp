// Model-only formulas (see model.h for sources).
#include "sizer/formulas/model.h"

#include <algorithm>
#include <cmath>
#include <numeric>

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

namespace {
// The mean over layers: full layers span the sequence, windowed ones `local_span`.
double mix_layers(const Model& m, double seq_len, double local_span) {
  const double local = windowed_layers(m);
  return ((m.layers - local) * seq_len + local * local_span) / m.layers;
}
}  // namespace

double attention_span(const Model& m, double seq_len) {
  const double w = m.attention.window;
  if (!(windowed_layers(m) > 0) || !(m.layers > 0) || w >= seq_len) return seq_len;
  return mix_layers(m, seq_len, 2 * w - w * w / seq_len);
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
  // Too many blocks to count (a pathological shape): the expected count at a random alignment,
  // (w + bq − 2)/bkv + 1 blocks of bkv keys.
  const double spread = std::min(static_cast<double>(S), static_cast<double>(W + Q - 2 + K));
  // Blocks before the window is full, and the last (possibly short) block, one by one; between
  // them the count repeats every P = bkv ÷ gcd(bq, bkv) query blocks.
  const I i0 = std::min(n, (W - 1 + Q - 1) / Q);
  const I end = std::max(i0, n - 1);
  if (i0 > kMaxBlockLoop) return spread;
  auto sum = [&](I from, I count) {
    double t = 0;
    for (I i = from; i < from + count; ++i) t += static_cast<double>(blocks(i)) * K * queries(i);
    return t;
  };
  double keys = sum(0, i0) + sum(end, n - end);
  const I P = K / std::gcd(Q, K), steady = end - i0;
  if (std::min(P, steady) > kMaxBlockLoop) {
    keys += spread * Q * steady;
  } else if (steady > 0) {
    const I periods = steady / P;
    keys += (periods > 0 ? periods * sum(i0, P) : 0.0) + sum(i0, steady % P);
  }
  return keys / S;
}

double attention_span_computed(const Model& m, double seq_len, const AttentionBlocks& blocks, bool backward) {
  const double w = m.attention.window;
  if (!blocks.any() || !(windowed_layers(m) > 0) || !(m.layers > 0) || w >= seq_len) return attention_span(m, seq_len);
  double bq = blocks.q_tokens, bkv = blocks.kv_tokens;
  if (backward) {
    if (blocks.q_bwd_tokens > 0) bq = blocks.q_bwd_tokens;
    if (blocks.kv_bwd_tokens > 0) bkv = blocks.kv_bwd_tokens;
  }
  if (!(bq > 0)) bq = bkv;
  if (!(bkv > 0)) bkv = bq;
  return mix_layers(m, seq_len, 2 * block_keys_per_query(seq_len, w, bq, bkv));
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

// QKᵀ runs over query heads × the query/key head size, AV over query heads × the value head size
// (both h for a GPT block; PaLM 48 × 256 = 12,288 of 18,432; MLA's query/key heads carry the
// decoupled rotary part too). KV heads do not change it.
double attention_width(const Model& m) {
  const double head = m.attention.head_dim;
  if (!(head > 0) || !(m.heads > 0)) return m.hidden;
  const double qk = m.attention.kind == AttentionKind::mla ? head + m.attention.rope_dim : head;
  return m.heads * (qk + head) / 2;  // the mean of the QKᵀ and AV widths
}

}  // namespace sizer
