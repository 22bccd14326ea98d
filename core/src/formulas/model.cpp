// Model-only formulas (see model.h for sources).
#include "sizer/model.h"

#include <algorithm>

namespace sizer {

namespace {
constexpr double kDenseBlockParamsPerH2 = 12.0;  // 4h² attention + 8h² MLP (Kaplan et al. 2020)
constexpr double kKeyAndValue = 2.0;             // one key and one value vector per head
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
