// Record readers and writers (see records.h). Ranges are generous but finite: they reject typos
// such as 1e308 or negative sizes while allowing any real or hypothetical hardware and model.
#include "contract/records.h"

#include <cmath>

#include "contract/json_leaves.h"
#include "sizer/contract/result_json.h"
#include "sizer/contract/user_text.h"
#include "sizer/formulas/working.h"

namespace sizer::detail {

namespace {
const Range kBytes{1e3, 1e16};              // memory sizes
const Range kBandwidth{1e3, 1e16};          // bytes per second per device
const Range kFlops{1e6, 1e19};              // FLOP/s per device (0 or null = no such path)
const Range kDomain{1, 1e7, false, true};   // devices per domain
const Range kWatts{1, 1e7};
const Range kParams{1e3, 1e16};
const Range kCount{1, 1e7, false, true};
const Range kCount0{0, 1e7, false, true};
const Range kUsd{1e-6, 1e6};
constexpr double kShapeTolerance = 0.02;  // published totals are rounded; norms and biases are small
const Range kTokens{0, 1e18};

void read_id_text(Reader& r, const json& obj, const std::string& path, std::string* id,
                  std::string* name) {
  r.string(obj, "id", path, id);
  r.string(obj, "name", path, name);
}
}  // namespace

void read_device_fields(Reader& r, const json& obj, const std::string& path, Device* d,
                        std::vector<std::string>* aliases) {
  r.only_keys(obj, path,
              {"preset", "id", "aliases", "name", "vendor", "kind", "memory_bytes", "memory_stated_as",
               "hbm_bytes_per_s", "dense_flops", "headline_is_sparse", "scale_up_name",
               "scale_up_domain", "scale_up_bytes_per_s", "scale_out_bytes_per_s", "tdp_w", "power_limit_w", "system_w",
               "default_system", "default_price", "price_note", "sources", "note", "notes",
               "efficiency", "cores_per_device"});
  read_id_text(r, obj, path, &d->id, &d->name);
  r.number(obj, "cores_per_device", path, Range{1, 64}, &d->cores_per_device);
  r.string(obj, "vendor", path, &d->vendor);
  r.number(obj, "memory_bytes", path, kBytes, &d->memory_bytes);
  r.number(obj, "hbm_bytes_per_s", path, kBandwidth, &d->hbm_bytes_per_s);
  if (auto it = obj.find("dense_flops"); it != obj.end()) {
    const std::string fp = join(path, "dense_flops");
    if (r.object(*it, fp)) {
      r.only_keys(*it, fp, {"fp32", "bf16", "fp16", "fp8", "fp4", "int8"});
      struct Slot { const char* key; double* out; };
      const Slot slots[] = {{"fp32", &d->dense_flops_fp32}, {"bf16", &d->dense_flops_bf16},
                            {"fp8", &d->dense_flops_fp8}, {"fp4", &d->dense_flops_fp4}};
      for (const Slot& s : slots) {
        auto v = it->find(s.key);
        if (v == it->end()) continue;
        if (v->is_null() || (v->is_number() && v->get<double>() == 0)) *s.out = 0;
        else r.number_value(*v, join(fp, s.key), kFlops, s.out);
      }
    }
  }
  r.number(obj, "scale_up_domain", path, kDomain, &d->scale_up_domain);
  r.number(obj, "scale_up_bytes_per_s", path, kBandwidth, &d->scale_up_bytes_per_s);
  if (auto it = obj.find("scale_out_bytes_per_s"); it != obj.end() && it->is_null()) {
    d->scale_out_bytes_per_s = 0;
  } else {
    r.number(obj, "scale_out_bytes_per_s", path, kBandwidth, &d->scale_out_bytes_per_s);
  }
  if (auto it = obj.find("system_w"); it != obj.end() && it->is_null()) {
    d->system_w = 0;  // unknown: power results need power.system_w_per_device
  } else {
    r.number(obj, "system_w", path, kWatts, &d->system_w);
  }
  if (auto it = obj.find("tdp_w"); it != obj.end() && it->is_null()) {
    d->tdp_w = 0;  // not published (TPUs, Trainium): no power cap can be applied
  } else {
    r.number(obj, "tdp_w", path, kWatts, &d->tdp_w);
  }
  if (r.number(obj, "power_limit_w", path, kWatts, &d->power_limit_w) && !(d->tdp_w > 0)) {
    r.error(join(path, "power_limit_w"), "needs the device's tdp_w (the rated power the cap is measured against)");
  }
  if (auto it = obj.find("default_system"); it != obj.end() && !it->is_null()) {
    r.string(obj, "default_system", path, &d->default_system);
  }
  if (auto it = obj.find("default_price"); it != obj.end() && !it->is_null()) {
    r.string(obj, "default_price", path, &d->default_price);
  }
  if (auto it = obj.find("price_note"); it != obj.end() && !it->is_null()) {
    const std::string pp = join(path, "price_note");
    if (r.object(*it, pp)) {
      r.only_keys(*it, pp, {"text", "date"});
      r.string(*it, "text", pp, &d->price_note);
    }
  }
  if (auto it = obj.find("efficiency"); it != obj.end()) {
    const std::string ep = join(path, "efficiency");
    if (r.object(*it, ep)) {
      r.only_keys(*it, ep, {"gemm", "gemm_half_width", "memory_bound_factor", "link", "collective_latency_s",
                            "fp8_gemm_vs_bf16", "fp4_gemm_vs_bf16", "layer_overhead_s", "attention",
                            "scale_out_latency_s", "gemm_basis", "same_die_as", "fitted_on", "flash_attention_vs_h100",
                            "dispatch_vs_stack", "sparsecore_gather_vs_stack"});
      r.number(*it, "flash_attention_vs_h100", ep, Range{0.1, 10}, &d->flash_attention_vs_h100);
      r.number(*it, "dispatch_vs_stack", ep, Range{0.01, 10}, &d->dispatch_vs_stack);
      r.number(*it, "sparsecore_gather_vs_stack", ep, Range{0.01, 10}, &d->sparsecore_gather_vs_stack);
      r.number(*it, "attention", ep, Range{0, 1}, &d->attention_efficiency);
      r.number(*it, "layer_overhead_s", ep, Range{0, 1e-2}, &d->layer_overhead_s);
      r.number(*it, "fp8_gemm_vs_bf16", ep, Range{0.01, 1}, &d->fp8_gemm_vs_bf16);
      r.number(*it, "fp4_gemm_vs_bf16", ep, Range{0.01, 1}, &d->fp4_gemm_vs_bf16);
      if (r.number(*it, "gemm", ep, Range{0.01, 1}, &d->gemm_efficiency)) d->gemm_basis = EfficiencyBasis::given;
      std::string basis;
      if (r.string(*it, "gemm_basis", ep, &basis)) {
        if (basis == "fitted") d->gemm_basis = EfficiencyBasis::fitted;
        else if (basis == "assumed") d->gemm_basis = EfficiencyBasis::assumed;
        else if (basis == "given") d->gemm_basis = EfficiencyBasis::given;
        else if (basis == "same_die") d->gemm_basis = EfficiencyBasis::same_die;
        else r.error(join(ep, "gemm_basis"), "must be one of fitted, same_die, assumed, given; got " + show((*it)["gemm_basis"]));
      }
      r.string(*it, "same_die_as", ep, &d->gemm_same_die);
      r.string(*it, "fitted_on", ep, &d->gemm_fitted_on);
      if (d->gemm_basis == EfficiencyBasis::same_die && d->gemm_same_die.empty()) {
        r.error(join(ep, "same_die_as"), "is required with gemm_basis same_die: the fitted chip of the same silicon");
      }
      r.number(*it, "gemm_half_width", ep, Range{0, 1e6}, &d->gemm_half_width);
      r.number(*it, "memory_bound_factor", ep, Range{0, 100}, &d->memory_bound_factor);
      r.number(*it, "link", ep, Range{0.01, 1}, &d->link_efficiency);
      r.number(*it, "collective_latency_s", ep, Range{0, 1}, &d->collective_latency_s);
      r.number(*it, "scale_out_latency_s", ep, Range{0, 1}, &d->scale_out_latency_s);
    }
  }
  if (aliases) {
    if (auto it = obj.find("aliases"); it != obj.end() && it->is_array()) {
      for (const auto& a : *it) {
        if (a.is_string()) aliases->push_back(a.get<std::string>());
      }
    }
  }
}

bool validate_device(Reader& r, const Device& d, const std::string& path) {
  bool ok = true;
  auto need = [&](bool present, const char* key, const char* what) {
    if (!present) {
      r.error(join(path, key), std::string("is required: ") + what);
      ok = false;
    }
  };
  need(d.memory_bytes > 0, "memory_bytes", "HBM capacity per device in bytes, e.g. 80e9");
  need(d.hbm_bytes_per_s > 0, "hbm_bytes_per_s", "HBM bandwidth per device in bytes/s, e.g. 3.35e12");
  need(d.dense_flops_bf16 > 0 || d.dense_flops_fp8 > 0 || d.dense_flops_fp4 > 0 ||
           d.dense_flops_fp32 > 0,
       "dense_flops", "at least one dense peak in FLOP/s, e.g. {\"bf16\": 989.5e12}");
  need(d.scale_up_bytes_per_s > 0, "scale_up_bytes_per_s", "per-device scale-up bandwidth, bytes/s per direction");
  return ok;
}

void read_model_fields(Reader& r, const json& obj, const std::string& path, Model* m) {
  r.only_keys(obj, path,
              {"preset", "id", "name", "kind", "params", "active_params", "layers", "hidden", "heads",
               "ffn_hidden", "vocab", "attention", "moe", "training_tokens", "seq_len", "sources",
               "note", "notes"});
  read_id_text(r, obj, path, &m->id, &m->name);
  const bool had_params = r.number(obj, "params", path, kParams, &m->params);
  if (!r.number(obj, "active_params", path, kParams, &m->active_params) && had_params &&
      !m->moe.enabled() && obj.find("moe") == obj.end()) {
    m->active_params = m->params;  // dense: every parameter is active
  }
  r.number(obj, "layers", path, kCount, &m->layers);
  r.number(obj, "hidden", path, kCount, &m->hidden);
  r.number(obj, "heads", path, kCount, &m->heads);
  if (auto it = obj.find("vocab"); it != obj.end() && !it->is_null()) {
    r.number(obj, "vocab", path, kCount, &m->vocab);
  }
  if (auto it = obj.find("ffn_hidden"); it != obj.end() && !it->is_null()) {
    r.number(obj, "ffn_hidden", path, kCount, &m->ffn_hidden);
  }
  if (auto it = obj.find("training_tokens"); it != obj.end() && !it->is_null()) {
    r.number(obj, "training_tokens", path, kTokens, &m->training_tokens);
  }
  if (auto it = obj.find("seq_len"); it != obj.end() && !it->is_null()) {
    r.number(obj, "seq_len", path, kCount, &m->seq_len);
  }
  if (auto it = obj.find("attention"); it != obj.end()) {
    const std::string ap = join(path, "attention");
    if (r.object(*it, ap)) {
      r.only_keys(*it, ap, {"type", "kv_heads", "head_dim", "kv_latent", "rope_dim", "window", "window_layers"});
      std::string type;
      if (r.string(*it, "type", ap, &type)) {
        if (type == "mha") m->attention.kind = AttentionKind::mha;
        else if (type == "gqa") m->attention.kind = AttentionKind::gqa;
        else if (type == "mla") m->attention.kind = AttentionKind::mla;
        else r.error(join(ap, "type"), "must be one of mha, gqa, mla; got " + show((*it)["type"]));
      }
      r.number(*it, "kv_heads", ap, kCount, &m->attention.kv_heads);
      r.number(*it, "head_dim", ap, kCount, &m->attention.head_dim);
      r.number(*it, "kv_latent", ap, kCount, &m->attention.kv_latent);
      r.number(*it, "rope_dim", ap, kCount0, &m->attention.rope_dim);
      r.number(*it, "window", ap, kCount0, &m->attention.window);
      r.number(*it, "window_layers", ap, kCount0, &m->attention.window_layers);
    }
  }
  if (auto it = obj.find("moe"); it != obj.end()) {
    const std::string mp = join(path, "moe");
    if (it->is_null()) {
      m->moe = MoeShape{};
    } else if (r.object(*it, mp)) {
      r.only_keys(*it, mp, {"experts", "experts_per_token", "shared_experts", "moe_layers", "expert_ffn_hidden", "expert_bias"});
      r.number(*it, "experts", mp, kCount, &m->moe.experts);
      r.number(*it, "experts_per_token", mp, kCount, &m->moe.experts_per_token);
      r.number(*it, "shared_experts", mp, kCount0, &m->moe.shared_experts);
      r.number(*it, "moe_layers", mp, kCount, &m->moe.moe_layers);
      r.number(*it, "expert_ffn_hidden", mp, kCount, &m->moe.expert_ffn_hidden);
      r.boolean(*it, "expert_bias", mp, &m->moe.expert_bias);
    }
  }
}

bool validate_model(Reader& r, Model* m, const std::string& path) {
  bool ok = true;
  auto fail = [&](const std::string& key, const std::string& msg) {
    r.error(join(path, key.c_str()), msg);
    ok = false;
  };
  if (!(m->params > 0)) fail("params", "is required: total parameters, e.g. 1e12");
  if (!(m->layers > 0)) fail("layers", "is required: number of transformer layers, e.g. 128");
  if (!(m->hidden > 0)) fail("hidden", "is required: model width, e.g. 25600");
  if (!(m->heads > 0)) fail("heads", "is required: attention heads, e.g. 160");
  if (!ok) return false;
  if (m->heads > m->hidden) {
    fail("heads", "must not exceed hidden (" + num(m->hidden) + "): each head needs at least one dimension; got " +
                      num(m->heads));
    return false;
  }
  if (!(m->active_params > 0)) m->active_params = m->params;
  if (m->active_params > m->params) {
    fail("active_params", "must not exceed params (" + num(m->params) + "); got " + num(m->active_params));
  }
  Attention& a = m->attention;
  if (a.kind == AttentionKind::mha) {
    if (!(a.kv_heads > 0)) a.kv_heads = m->heads;
    if (!(a.head_dim > 0)) a.head_dim = m->hidden / m->heads;
    if (a.kv_heads != m->heads) {
      fail("attention.kv_heads", "must equal heads (" + num(m->heads) + ") for mha, one key-value head per query "
                                 "head; got " + num(a.kv_heads) + " (fewer key-value heads is gqa)");
    }
  } else if (a.kind == AttentionKind::gqa) {
    if (!(a.kv_heads > 0)) fail("attention.kv_heads", "is required for gqa: key-value heads, e.g. 8");
    if (!(a.head_dim > 0)) a.head_dim = m->hidden / m->heads;
    if (a.kv_heads > m->heads) fail("attention.kv_heads", "must not exceed heads (" + num(m->heads) + ")");
    else if (a.kv_heads > 0 && std::fmod(m->heads, a.kv_heads) != 0) {
      fail("attention.kv_heads", "must divide heads (" + num(m->heads) + ") so query heads group evenly; got " +
                                     num(a.kv_heads));
    }
  } else {
    if (!(a.kv_latent > 0)) fail("attention.kv_latent", "is required for mla: compressed KV width, e.g. 512");
  }
  if (a.window_layers > 0 && !(a.window > 0)) {
    fail("attention.window_layers", "needs attention.window (the tokens a windowed layer attends to, e.g. 4096)");
  } else if (a.window_layers > m->layers) {
    fail("attention.window_layers", "must not exceed layers (" + num(m->layers) + "); got " + num(a.window_layers));
  }
  const MoeShape& e = m->moe;
  if (e.enabled()) {
    if (!(e.experts_per_token > 0) || e.experts_per_token > e.experts) {
      fail("moe.experts_per_token", "must be a whole number in [1, experts=" + num(e.experts) + "]");
    }
    if (!(e.moe_layers > 0) || e.moe_layers > m->layers) {
      fail("moe.moe_layers", "must be a whole number in [1, layers=" + num(m->layers) + "]");
    }
    // total − active = (E − k)·p_e·L_moe: with every expert active nothing is left out per token.
    if (e.experts_per_token >= e.experts && m->active_params < m->params * (1 - kShapeTolerance)) {
      fail("moe.experts_per_token", "is " + num(e.experts_per_token) + " of " + num(e.experts) +
                                        " experts, so every parameter is active, but active_params (" +
                                        num(m->active_params) + ") is below params (" + num(m->params) +
                                        "); lower experts_per_token or raise active_params");
    }
  } else if (m->active_params < m->params) {
    fail("active_params", "may differ from params only for a mixture-of-experts model (give model.moe)");
  }
  return ok;
}

bool read_system(Reader& r, const json& obj, const std::string& path, System* s) {
  r.only_keys(obj, path,
              {"id", "name", "kind", "device", "devices", "scale_up_domain", "scale_up_bytes_per_s",
               "scale_out_bytes_per_s", "power_w", "system_w_per_device", "hbm_bytes_total", "sources",
               "note", "notes", "hbm_bytes_per_s_total", "host_memory_bytes", "max_slice_devices",
               "scale_out_nics", "scale_up_total_bytes_per_s"});
  bool ok = true;
  if (!r.string(obj, "id", path, &s->id)) {
    r.error(join(path, "id"), "is required: a short id such as \"my-server\"");
    ok = false;
  }
  r.string(obj, "name", path, &s->name);
  r.string(obj, "kind", path, &s->kind);
  if (!r.string(obj, "device", path, &s->device)) {
    r.error(join(path, "device"), "is required: the device id this system holds");
    ok = false;
  }
  r.number(obj, "devices", path, kCount, &s->devices);
  r.number(obj, "scale_up_domain", path, kDomain, &s->scale_up_domain);
  r.number(obj, "scale_up_bytes_per_s", path, kBandwidth, &s->scale_up_bytes_per_s);
  if (auto it = obj.find("scale_out_bytes_per_s"); it != obj.end() && !it->is_null()) {
    r.number(obj, "scale_out_bytes_per_s", path, kBandwidth, &s->scale_out_bytes_per_s);
  }
  if (auto it = obj.find("power_w"); it != obj.end() && !it->is_null()) {
    r.number(obj, "power_w", path, kWatts, &s->power_w);
  }
  if (auto it = obj.find("system_w_per_device"); it != obj.end() && !it->is_null()) {
    r.number(obj, "system_w_per_device", path, kWatts, &s->system_w_per_device);
  }
  if (auto it = obj.find("hbm_bytes_total"); it != obj.end() && !it->is_null()) {
    r.number(obj, "hbm_bytes_total", path, kBytes, &s->hbm_bytes_total);
  }
  return ok;
}

bool read_price(Reader& r, const json& obj, const std::string& path, PriceOffer* p) {
  r.only_keys(obj, path,
              {"id", "device", "provider", "offer", "offer_kind", "region", "usd_per_device_hour",
               "date_checked", "source", "note", "notes"});
  bool ok = true;
  if (!r.string(obj, "id", path, &p->id)) {
    r.error(join(path, "id"), "is required: a short id such as \"my-cloud-h100\"");
    ok = false;
  }
  r.string(obj, "device", path, &p->device);
  r.string(obj, "provider", path, &p->provider);
  r.string(obj, "offer", path, &p->offer);
  if (r.string(obj, "offer_kind", path, &p->offer_kind)) {
    static const char* kKinds[] = {"on_demand", "capacity_block", "commit_1y", "commit_3y",
                                   "spot", "reserved", "marketplace"};
    bool known = false;
    for (const char* k : kKinds) known = known || p->offer_kind == k;
    if (!known) {
      r.error(join(path, "offer_kind"),
              "must be one of on_demand, capacity_block, commit_1y, commit_3y, spot, reserved, "
              "marketplace; got " + echo_quoted(p->offer_kind));
      ok = false;
    }
  }
  r.string(obj, "region", path, &p->region);
  r.string(obj, "date_checked", path, &p->date_checked);
  r.string(obj, "source", path, &p->source);
  if (!r.number(obj, "usd_per_device_hour", path, kUsd, &p->usd_per_device_hour)) {
    if (obj.find("usd_per_device_hour") == obj.end()) {
      r.error(join(path, "usd_per_device_hour"), "is required: USD per device-hour, e.g. 5.97");
    }
    ok = false;
  }
  return ok;
}

json price_json(const PriceOffer& p) {
  if (p.usd_per_device_hour <= 0) return nullptr;
  json j = json_object({{"id", p.id},
                        {"provider", p.provider},
                        {"offer", p.offer},
                        {"offer_kind", p.offer_kind},
                        {"region", p.region},
                        {"usd_per_device_hour", p.usd_per_device_hour},
                        {"date_checked", p.date_checked},
                        {"source", p.source}});
  if (!p.device.empty()) j["device"] = p.device;
  if (p.user_supplied) j["user_supplied"] = true;
  return j;
}

}  // namespace sizer::detail

// [SECTION] The records as JSON (sizer/contract/result_json.h): what the readers above read back
namespace sizer {

using detail::num_or_null;
using nlohmann::json;

namespace {

json flops_json(const Device& d) {
  auto f = [](double v) { return v > 0 ? json(v) : json(nullptr); };
  return json_object({{"fp32", f(d.dense_flops_fp32)},
                      {"bf16", f(d.dense_flops_bf16)},
                      {"fp8", f(d.dense_flops_fp8)},
                      {"fp4", f(d.dense_flops_fp4)}});
}

}  // namespace

json device_to_json(const Device& d) {
  json j = json_object(
      {{"id", d.id},
       {"name", d.name},
       {"vendor", d.vendor},
       {"memory_bytes", d.memory_bytes},
       {"hbm_bytes_per_s", d.hbm_bytes_per_s},
       {"dense_flops", flops_json(d)},
       {"scale_up_domain", d.scale_up_domain},
       {"scale_up_bytes_per_s", d.scale_up_bytes_per_s},
       {"scale_out_bytes_per_s", num_or_null(d.scale_out_bytes_per_s, d.scale_out_bytes_per_s > 0)},
       {"system_w", num_or_null(d.system_w, d.system_w > 0)},
       {"efficiency", json_object({{"gemm", d.gemm_efficiency},
                                   {"gemm_basis", to_string(d.gemm_basis)},
                                   {"gemm_half_width", d.gemm_half_width},
                                   {"memory_bound_factor", d.memory_bound_factor},
                                   {"link", d.link_efficiency},
                                   {"collective_latency_s", d.collective_latency_s},
                                   {"layer_overhead_s", d.layer_overhead_s},
                                   {"scale_out_latency_s", d.scale_out_latency_s}})}});
  if (!d.gemm_same_die.empty()) j["efficiency"]["same_die_as"] = d.gemm_same_die;
  if (!d.gemm_fitted_on.empty()) j["efficiency"]["fitted_on"] = d.gemm_fitted_on;
  if (d.tdp_w > 0) j["tdp_w"] = d.tdp_w;
  if (d.power_limit_w > 0) j["power_limit_w"] = d.power_limit_w;
  if (d.attention_efficiency > 0) j["efficiency"]["attention"] = d.attention_efficiency;
  if (d.flash_attention_vs_h100 != 1)
    j["efficiency"]["flash_attention_vs_h100"] = d.flash_attention_vs_h100;
  if (d.cores_per_device != 1) j["cores_per_device"] = d.cores_per_device;
  if (d.dispatch_vs_stack != 1) j["efficiency"]["dispatch_vs_stack"] = d.dispatch_vs_stack;
  if (d.sparsecore_gather_vs_stack > 0)
    j["efficiency"]["sparsecore_gather_vs_stack"] = d.sparsecore_gather_vs_stack;
  if (d.fp8_gemm_vs_bf16 > 0) j["efficiency"]["fp8_gemm_vs_bf16"] = d.fp8_gemm_vs_bf16;
  if (d.fp4_gemm_vs_bf16 > 0) j["efficiency"]["fp4_gemm_vs_bf16"] = d.fp4_gemm_vs_bf16;
  if (!d.default_system.empty()) j["default_system"] = d.default_system;
  if (!d.default_price.empty()) j["default_price"] = d.default_price;
  if (d.user_supplied) j["user_supplied"] = true;
  return j;
}

json system_to_json(const System& s) {
  json j = json_object(
      {{"id", s.id},
       {"name", s.name},
       {"kind", s.kind},
       {"device", s.device},
       {"devices", s.devices},
       {"scale_up_domain", s.scale_up_domain},
       {"scale_up_bytes_per_s", s.scale_up_bytes_per_s},
       {"scale_out_bytes_per_s", num_or_null(s.scale_out_bytes_per_s, s.scale_out_bytes_per_s > 0)},
       {"power_w", num_or_null(s.power_w, s.power_w > 0)},
       {"system_w_per_device", num_or_null(s.system_w_per_device, s.system_w_per_device > 0)},
       {"hbm_bytes_total", num_or_null(s.hbm_bytes_total, s.hbm_bytes_total > 0)}});
  if (s.user_supplied) j["user_supplied"] = true;
  return j;
}

json price_to_json(const PriceOffer& p) {
  json j = detail::price_json(p);
  return j.is_null() ? json_object({{"id", p.id}}) : j;
}

json model_to_json(const Model& m) {
  json att = json_object({{"type", to_string(m.attention.kind)}});
  if (m.attention.kind == AttentionKind::mla) {
    att["kv_latent"] = m.attention.kv_latent;
    att["rope_dim"] = m.attention.rope_dim;
    if (m.attention.head_dim > 0) att["head_dim"] = m.attention.head_dim;
  } else {
    att["kv_heads"] = m.attention.kv_heads;
    att["head_dim"] = m.attention.head_dim;
  }
  if (m.attention.window > 0) {
    att["window"] = m.attention.window;
    att["window_layers"] = windowed_layers(m);
  }
  json j = json_object({{"id", m.id},
                        {"name", m.name},
                        {"params", m.params},
                        {"active_params", m.active_params},
                        {"layers", m.layers},
                        {"hidden", m.hidden},
                        {"heads", m.heads},
                        {"attention", att}});
  j["moe"] = m.moe.enabled() ? json_object({{"experts", m.moe.experts},
                                            {"experts_per_token", m.moe.experts_per_token},
                                            {"shared_experts", m.moe.shared_experts},
                                            {"moe_layers", m.moe.moe_layers}})
                             : json(nullptr);
  if (m.moe.enabled() && m.moe.expert_ffn_hidden > 0)
    j["moe"]["expert_ffn_hidden"] = m.moe.expert_ffn_hidden;
  if (m.moe.enabled() && m.moe.expert_bias) j["moe"]["expert_bias"] = true;
  if (m.vocab > 0) j["vocab"] = m.vocab;
  if (m.ffn_hidden > 0)
    j["ffn_hidden"] = m.ffn_hidden;  // so the echoed scenario re-reads the same shape
  if (m.training_tokens > 0) j["training_tokens"] = m.training_tokens;
  if (m.seq_len > 0) j["seq_len"] = m.seq_len;
  if (m.user_supplied) j["user_supplied"] = true;
  return j;
}

}  // namespace sizer
