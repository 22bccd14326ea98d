// The scenario's serving block (docs/contract.md, "serving"), read and written back: the seed's
// ceiling inputs and price, and the serving performance model's inputs (docs/serving.md):
// serving.layout, serving.workload, serving.compute_precision, serving.spec_decode, serving.slo
// and serving.engine. Every refusal names its field and what is allowed.
#include <cmath>

#include "contract/scenario_parts.h"
#include "sizer/contract/json_object.h"
#include "sizer/formulas/format.h"
#include "sizer/planners/serve_scenario.h"
#include "sizer/serve/serve_search.h"
#include "sizer/contract/user_text.h"
#include "sizer/formulas/working.h"

namespace sizer::detail {

namespace {

const Range kServeDegree{1, 1e5, false, true};
const Range kTokens{1, 1e8, false, true};
constexpr double kMaxReplicaDevices = 1e6;  // the same bound as a training layout's devices

std::string peaks_of(const Device& d) {
  std::string have;
  for (Precision p : {Precision::fp32, Precision::bf16, Precision::fp8, Precision::fp4}) {
    if (d.dense_flops(p) > 0) have += (have.empty() ? "" : ", ") + std::string(to_string(p));
  }
  return have.empty() ? "none" : have;
}

void read_workload(Reader& r, const json& o, const std::string& path, serve::Workload* w) {
  r.only_keys(o, path,
              {"input_tokens", "output_tokens", "concurrency", "requests_per_s", "replicas"});
  r.number(o, "input_tokens", path, kTokens, &w->input_tokens);
  r.number(o, "output_tokens", path, kTokens, &w->output_tokens);
  const bool conc = r.number(o, "concurrency", path, Range{1, 1e9, false, true}, &w->concurrency);
  const bool rate = r.number(o, "requests_per_s", path, Range{0, 1e9, true}, &w->requests_per_s);
  r.number(o, "replicas", path, Range{1, 1e6, false, true}, &w->replicas);
  const bool conc_key = o.contains("concurrency"), rate_key = o.contains("requests_per_s");
  if (conc_key && rate_key) {
    r.error(path, "give concurrency (requests in flight per replica) or requests_per_s, not both");
  } else if (!conc_key && !rate_key) {
    r.error(path,
            "needs concurrency (requests in flight per replica, a whole number ≥ 1) or "
            "requests_per_s (> 0)");
  }
  if (o.contains("replicas") && conc_key && !rate_key) {
    r.error(join(path, "replicas"),
            "applies only with requests_per_s (a total rate spread over the replicas)");
  }
  (void)conc;
  (void)rate;
}

// serving.search: devices per replica (a count or [min, max]), precision lists, spec decode.
void read_serve_search(Reader& r, const json& o, const std::string& path, ServeSearchInputs* q) {
  r.only_keys(o, path, {"devices", "weight_precisions", "kv_precisions", "spec_decode", "disaggregated"});
  r.boolean(o, "disaggregated", path, &q->disaggregated);
  if (auto it = o.find("devices"); it != o.end()) {
    const std::string dp = join(path, "devices");
    const Range count{1, kMaxReplicaDevices, false, true};
    if (it->is_array()) {
      if (it->size() != 2) {
        r.error(dp, "must be a device count or [min, max]; got an array of " + std::to_string(it->size()));
      } else if (r.number_value((*it)[0], dp + "[0]", count, &q->devices_min) &&
                 r.number_value((*it)[1], dp + "[1]", count, &q->devices_max) && q->devices_max < q->devices_min) {
        r.error(dp, "must be [min, max] with min ≤ max; got [" + num(q->devices_min) + ", " + num(q->devices_max) + "]");
      }
    } else if (r.number_value(*it, dp, count, &q->devices_min)) {
      q->devices_max = q->devices_min;
    }
  }
  for (const char* key : {"weight_precisions", "kv_precisions"}) {
    auto it = o.find(key);
    if (it == o.end()) continue;
    const std::string kp = join(path, key);
    unsigned* mask = std::string(key) == "weight_precisions" ? &q->weight_precisions : &q->kv_precisions;
    if (!it->is_array() || it->empty()) {
      r.error(kp, "must be a non-empty list of bf16, fp8, fp4; got " + show(*it));
      continue;
    }
    for (std::size_t i = 0; i < it->size(); ++i) {
      const json& e = (*it)[i];
      Precision p{};
      if (!e.is_string() || !parse_precision(e.get<std::string>().c_str(), &p) ||
          (p != Precision::bf16 && p != Precision::fp8 && p != Precision::fp4)) {
        r.error(kp + "[" + std::to_string(i) + "]", "must be bf16, fp8 or fp4; got " + show(e));
        continue;
      }
      *mask |= serve::precision_bit(p);
    }
  }
  std::string spec;
  if (r.string(o, "spec_decode", path, &spec)) {
    if (spec == "both") q->spec_decode_both = true;
    else if (spec == "on") q->spec_decode_both = false;
    else r.error(join(path, "spec_decode"), "must be both (with and without serving.spec_decode) or on; got " + echo_quoted(spec));
  }
}

}  // namespace

void read_serve_model(Reader& r, const json& o, const Catalog& catalog, Scenario* s) {
  ServingInputs& v = s->serving;
  const Device& d = s->device;
  const std::string path = "serving";
  v.compute_precision = serve::default_compute_precision(d, v.weight_precision);
  std::string text;
  if (r.string(o, "compute_precision", path, &text)) {
    Precision p{};
    if (!parse_precision(text.c_str(), &p)) {
      r.error("serving.compute_precision",
              "must be one of fp32, bf16, fp16, fp8, fp4; got " + echo_quoted(text));
    } else if (d.dense_flops(p) <= 0) {
      r.error("serving.compute_precision", "device " + d.id + " has no dense " + to_string(p) +
                                               " peak; allowed: " + peaks_of(d));
    } else {
      v.compute_precision = p;
    }
  }
  if (auto it = o.find("layout"); it != o.end() && r.object(*it, "serving.layout")) {
    const std::string lp = "serving.layout";
    r.only_keys(*it, lp, {"tp", "pp", "dp", "ep"});
    r.number(*it, "tp", lp, kServeDegree, &v.layout.tp);
    r.number(*it, "pp", lp, kServeDegree, &v.layout.pp);
    r.number(*it, "dp", lp, kServeDegree, &v.layout.dp);
    r.number(*it, "ep", lp, kServeDegree, &v.layout.ep);
    v.layout_given = true;
  }
  if (auto it = o.find("workload"); it != o.end() && r.object(*it, "serving.workload")) {
    read_workload(r, *it, "serving.workload", &v.workload);
    v.workload_given = true;
  }
  if (auto it = o.find("spec_decode"); it != o.end() && r.object(*it, "serving.spec_decode")) {
    const std::string sp = "serving.spec_decode";
    r.only_keys(*it, sp, {"draft_tokens", "acceptance", "draft_step_ratio"});
    r.number(*it, "draft_tokens", sp, Range{0, 16, false, true}, &v.spec.draft_tokens);
    r.number(*it, "acceptance", sp, Range{0, 1}, &v.spec.acceptance);
    r.number(*it, "draft_step_ratio", sp, Range{0, 1, true}, &v.spec.draft_step_ratio);
    if (v.spec.draft_tokens > 0 && !it->contains("acceptance")) {
      r.error(
          sp + ".acceptance",
          "is needed with draft_tokens: the probability in [0, 1] that a draft token is accepted");
    }
  }
  if (auto it = o.find("disaggregation"); it != o.end() && r.object(*it, "serving.disaggregation")) {
    const std::string dp = "serving.disaggregation";
    r.only_keys(*it, dp, {"prefill", "decode", "prefill_utilisation"});
    for (const char* pool : {"prefill", "decode"}) {
      serve::ServeLayout& l = std::string(pool) == "prefill" ? v.disagg.prefill : v.disagg.decode;
      const std::string pp = join(dp, pool);
      auto p = it->find(pool);
      if (p == it->end()) {
        r.error(pp, "is required: the layout {tp, pp, dp, ep} of one " + std::string(pool) + " instance");
        continue;
      }
      if (!r.object(*p, pp)) continue;
      const bool prefill = std::string(pool) == "prefill";
      if (prefill) {
        r.only_keys(*p, pp, {"tp", "pp", "dp", "ep", "device"});
      } else {
        r.only_keys(*p, pp, {"tp", "pp", "dp", "ep"});
      }
      if (auto dv = p->find("device"); prefill && dv != p->end()) {
        const std::string dpath = join(pp, "device");
        if (!dv->is_string()) {
          r.error(dpath, "must be a device id from the catalog (sizer list devices); got " + show(*dv));
        } else if (const Device* d = catalog.find_device(dv->get<std::string>())) {
          v.disagg_prefill_device = *d;
          v.disagg_prefill_device_given = true;
        } else {
          r.error(dpath, "must be a device id from the catalog (sizer list devices); got " + echo_quoted(dv->get<std::string>()));
        }
      }
      r.number(*p, "tp", pp, kServeDegree, &l.tp);
      r.number(*p, "pp", pp, kServeDegree, &l.pp);
      r.number(*p, "dp", pp, kServeDegree, &l.dp);
      r.number(*p, "ep", pp, kServeDegree, &l.ep);
    }
    r.number(*it, "prefill_utilisation", dp, Range{0.01, 0.99}, &v.prefill_utilisation);
    v.disagg_given = true;
  }
  if (auto it = o.find("search"); it != o.end() && r.object(*it, "serving.search")) {
    read_serve_search(r, *it, "serving.search", &v.search);
  }
  if (auto it = o.find("slo"); it != o.end() && r.object(*it, "serving.slo")) {
    r.only_keys(*it, "serving.slo", {"ttft_s", "tpot_s"});
    r.number(*it, "ttft_s", "serving.slo", Range{0, 3600, true}, &v.slo.ttft_s);
    r.number(*it, "tpot_s", "serving.slo", Range{0, 60, true}, &v.slo.tpot_s);
  }
  if (auto it = o.find("engine"); it != o.end() && r.object(*it, "serving.engine")) {
    const std::string ep = "serving.engine";
    serve::Engine& e = v.engine;
    r.only_keys(*it, ep,
                {"step_overhead_s", "cuda_graphs", "launch_overhead_s", "kernels_per_layer",
                 "bandwidth_efficiency", "token_budget", "reserve_bytes", "expert_imbalance",
                 "kv_reservation", "max_batch", "seq_overhead_s", "layer_overhead_s", "request_overhead_s",
                 "kv_reads_per_kv_head", "mixed_input_gemm_efficiency"});
    r.number(*it, "step_overhead_s", ep, Range{0, 1}, &e.step_overhead_s);
    r.boolean(*it, "cuda_graphs", ep, &e.cuda_graphs);
    r.number(*it, "launch_overhead_s", ep, Range{0, 1e-3}, &e.launch_overhead_s);
    r.number(*it, "kernels_per_layer", ep, Range{0, 1000}, &e.kernels_per_layer);
    r.number(*it, "bandwidth_efficiency", ep, Range{0.01, 1}, &e.bandwidth_efficiency);
    r.number(*it, "token_budget", ep, Range{16, 1e7, false, true}, &e.token_budget);
    r.number(*it, "reserve_bytes", ep, Range{0, 1e13}, &e.reserve_bytes);
    r.number(*it, "expert_imbalance", ep, Range{1, 64}, &e.expert_imbalance);
    r.number(*it, "max_batch", ep, Range{1, 1e7, false, true}, &e.max_batch);
    r.number(*it, "seq_overhead_s", ep, Range{0, 1e-2}, &e.seq_overhead_s);
    r.number(*it, "layer_overhead_s", ep, Range{0, 1e-2}, &e.layer_overhead_s);
    r.number(*it, "request_overhead_s", ep, Range{0, 10}, &e.request_overhead_s);
    r.number(*it, "kv_reads_per_kv_head", ep, Range{1, 128}, &e.kv_reads_per_kv_head);
    r.number(*it, "mixed_input_gemm_efficiency", ep, Range{0.01, 1}, &e.mixed_input_gemm_efficiency);
    if (auto k = it->find("kv_reservation"); k != it->end()) {
      if (k->is_string() && (*k == "mean" || *k == "peak")) {
        e.kv_reservation = *k == "peak" ? serve::KvReservation::peak : serve::KvReservation::mean;
      } else {
        r.error(ep + ".kv_reservation", "must be \"mean\" (KV allocated as tokens arrive: vLLM, SGLang) or "
                                        "\"peak\" (prompt + whole output reserved: TensorRT-LLM); got " + show(*k));
      }
    }
  }
}

namespace {

// The serving performance model's inputs as resolved (the layout even when it was the default),
// into the serving block `out`: written when the scenario gives a workload.
void write_serve_model(const ServingInputs& v, json* out) {
  json& j = *out;
  j["compute_precision"] = to_string(v.compute_precision);
  j["layout"] = json_object(
      {{"tp", v.layout.tp}, {"pp", v.layout.pp}, {"dp", v.layout.dp}, {"ep", v.layout.ep}});
  const serve::Workload& w = v.workload;
  json wl = json_object({{"input_tokens", w.input_tokens}, {"output_tokens", w.output_tokens}});
  if (w.concurrency > 0)
    wl["concurrency"] = w.concurrency;
  else {
    wl["requests_per_s"] = w.requests_per_s;
    wl["replicas"] = w.replicas;
  }
  j["workload"] = wl;
  if (v.spec.draft_tokens > 0) {
    j["spec_decode"] =
        json_object({{"draft_tokens", v.spec.draft_tokens}, {"acceptance", v.spec.acceptance}});
    if (v.spec.draft_step_ratio > 0) j["spec_decode"]["draft_step_ratio"] = v.spec.draft_step_ratio;
  }
  if (v.slo.ttft_s > 0 || v.slo.tpot_s > 0) {
    json slo = json::object();
    if (v.slo.ttft_s > 0) slo["ttft_s"] = v.slo.ttft_s;
    if (v.slo.tpot_s > 0) slo["tpot_s"] = v.slo.tpot_s;
    j["slo"] = slo;
  }
  const serve::Engine& e = v.engine;
  j["engine"] = json_object({{"step_overhead_s", e.step_overhead_s},
                             {"cuda_graphs", e.cuda_graphs},
                             {"launch_overhead_s", e.launch_overhead_s},
                             {"kernels_per_layer", e.kernels_per_layer},
                             {"bandwidth_efficiency", e.bandwidth_efficiency},
                             {"token_budget", e.token_budget},
                             {"reserve_bytes", e.reserve_bytes},
                             {"kv_reservation", serve::to_string(e.kv_reservation)},
                             {"seq_overhead_s", e.seq_overhead_s},
                             {"layer_overhead_s", e.layer_overhead_s},
                             {"request_overhead_s", e.request_overhead_s},
                             {"kv_reads_per_kv_head", e.kv_reads_per_kv_head},
                             {"mixed_input_gemm_efficiency", e.mixed_input_gemm_efficiency}});
  if (e.max_batch > 0) j["engine"]["max_batch"] = e.max_batch;
  if (e.expert_imbalance > 0) j["engine"]["expert_imbalance"] = e.expert_imbalance;
}

}  // namespace

void read_serving(Reader& r, const json& doc, const Catalog& c, Scenario* s) {
  ServingInputs& v = s->serving;
  v.price = s->training.price;
  auto it = doc.find("serving");
  v.compute_precision = serve::default_compute_precision(s->device, v.weight_precision);
  if (it == doc.end() || !r.object(*it, "serving")) return;
  const json& o = *it;
  const std::string path = "serving";
  r.only_keys(o, path, {"weight_precision", "kv_precision", "block_scale_bytes_per_param", "context", "batch",
                        "kv_fill", "replica_devices", "tp", "hbm_usable", "prompt_tokens", "prefill_mfu",
                        "kv_link_bytes_per_s", "realised_fraction", "utilisation", "demand_tokens_per_day",
                        "collective_latency_s", "headroom_low", "headroom_high", "price",
                        "usd_per_device_hour", "layout", "workload", "compute_precision", "spec_decode", "slo",
                        "engine", "search", "disaggregation"});
  read_precision(r, o, "weight_precision", path, &v.weight_precision);
  read_precision(r, o, "kv_precision", path, &v.kv_precision);
  r.number(o, "block_scale_bytes_per_param", path, Range{0, 4}, &v.block_scale_bytes_per_param);
  r.number(o, "context", path, Range{1, 1e8, false, true}, &v.context);
  r.number(o, "batch", path, Range{1, 1e7, false, true}, &v.batch);
  r.number(o, "kv_fill", path, kFraction, &v.kv_fill);
  r.number(o, "replica_devices", path, kDegree, &v.replica_devices);
  r.number(o, "tp", path, Range{1, 1e5, false, true}, &v.tp);
  r.number(o, "hbm_usable", path, kFraction, &v.hbm_usable);
  r.number(o, "prompt_tokens", path, Range{1, 1e8, false, true}, &v.prompt_tokens);
  r.number(o, "prefill_mfu", path, kFraction, &v.prefill_mfu);
  r.number(o, "kv_link_bytes_per_s", path, kBandwidthR, &v.kv_link_bytes_per_s);
  r.number(o, "realised_fraction", path, kFraction, &v.realised_fraction);
  r.number(o, "utilisation", path, kFraction, &v.utilisation);
  r.number(o, "demand_tokens_per_day", path, Range{0, 1e18}, &v.demand_tokens_per_day);
  r.number(o, "collective_latency_s", path, Range{0, 1}, &v.collective_latency_s);
  r.number(o, "headroom_low", path, Range{0, 10}, &v.headroom_low);
  r.number(o, "headroom_high", path, Range{0, 10}, &v.headroom_high);
  read_price_choice(r, o, path, c, s->device, &v.price);
  if (v.headroom_high < v.headroom_low) {
    r.error("serving.headroom_high", "must be at least headroom_low (" + num(v.headroom_low) + ")");
  }
  read_serve_model(r, o, c, s);
}

json write_serving(const ServingInputs& v) {
  json j = json_object({{"weight_precision", to_string(v.weight_precision)},
                        {"kv_precision", to_string(v.kv_precision)},
                        {"block_scale_bytes_per_param", v.block_scale_bytes_per_param},
                        {"context", v.context},
                        {"batch", v.batch},
                        {"kv_fill", v.kv_fill},
                        {"tp", v.tp},
                        {"hbm_usable", v.hbm_usable},
                        {"prompt_tokens", v.prompt_tokens},
                        {"prefill_mfu", v.prefill_mfu},
                        {"kv_link_bytes_per_s", v.kv_link_bytes_per_s},
                        {"realised_fraction", v.realised_fraction},
                        {"utilisation", v.utilisation},
                        {"demand_tokens_per_day", v.demand_tokens_per_day},
                        {"collective_latency_s", v.collective_latency_s},
                        {"headroom_low", v.headroom_low},
                        {"headroom_high", v.headroom_high}});
  if (v.replica_devices > 0) j["replica_devices"] = v.replica_devices;
  if (v.price.usd_per_device_hour > 0) j["price"] = write_price_choice(v.price);
  if (v.workload_given) write_serve_model(v, &j);
  return j;
}

namespace {

// A replica (or pool instance) layout's rules, each refused naming its key under `lp`; when it
// `holds_requests` (not a prefill pool), the workload's concurrency must fit its KV cache. False
// when the layout cannot be evaluated.
bool check_pool(Reader& r, const Scenario& s, const serve::ServeLayout& l, const std::string& lp, bool holds_requests = true,
                const Device* on = nullptr) {
  const Model& m = s.model;
  const Device& d = on ? *on : s.device;
  const ServingInputs& v = s.serving;
  if (l.devices() > kMaxReplicaDevices) {
    r.error(lp, "gives tp × pp × dp = " + fmt::count(l.devices()) +
                    " devices per replica; at most 1,000,000 are allowed");
    return false;
  }
  const serve::ServeContext c = serve::serve_context(s);
  const serve::Performance mem = serve::evaluate_memory(m, d, l, c);
  const std::uint32_t p = mem.problems;
  for (Issue& i : serve_layout_issues(m, d, l, p, v.compute_precision, lp)) r.error(i.path, i.message);
  if (!mem.valid()) return false;
  const double request_kv_bytes = mem.kv_bytes_per_token_per_device * mem.kv_tokens_per_request;
  if ((p & serve::kServeNoFit) && holds_requests && mem.kv_capacity_bytes_per_device > 0 &&
      request_kv_bytes > mem.kv_capacity_bytes_per_device) {
    // The weights fit; one request's KV cache does not: the workload is what to change.
    r.error("serving.workload.input_tokens",
            "one request of " + num(v.workload.input_tokens) + " input and " + num(v.workload.output_tokens) +
                " output tokens needs " + fmt::bytes(request_kv_bytes) + " of KV cache per device (" +
                num(mem.kv_tokens_per_request) + " tokens × " + fmt::bytes(mem.kv_bytes_per_token_per_device) +
                ") on " + lp + ", against " + fmt::bytes(mem.kv_capacity_bytes_per_device) +
                " free after the weights; shorten serving.workload.input_tokens / output_tokens, lower "
                "serving.kv_precision, or use more devices (tp, pp)");
    return false;
  }
  if (p & serve::kServeNoFit) {
    r.error(lp, "leaves no room for one request's KV cache: weights " +
                    num(mem.weight_bytes_per_device) + " B + activations " +
                    num(mem.activation_bytes_per_device) + " B + reserve " +
                    num(mem.reserve_bytes_per_device) + " B per device against " +
                    num(d.memory_bytes * v.hbm_usable) +
                    " B usable; use more devices (tp, pp) or a lower weight_precision");
    return false;
  }
  if (holds_requests && v.workload.concurrency > mem.max_concurrency_kv) {
    r.error("serving.workload.concurrency",
            "must be at most max_concurrency_kv = " + num(mem.max_concurrency_kv) +
                " of " + lp + ": that many requests of " + num(mem.kv_tokens_per_request) +
                " KV tokens fit in the KV cache of this layout; got " +
                num(v.workload.concurrency) +
                "; lower it, add devices or use a smaller kv_precision");
  }
  return true;
}

}  // namespace

std::vector<Issue> serve_layout_issues(const Model& m, const Device& d, const serve::ServeLayout& l,
                                       std::uint32_t problems, Precision compute_precision, const std::string& path) {
  std::vector<Issue> out;
  if (problems & serve::kServeTpHeads) {
    out.push_back({path + ".tp", "must divide the " + num(m.heads) + " attention heads; got " + num(l.tp)});
  }
  if (problems & serve::kServePpLayers) {
    out.push_back({path + ".pp", "must be at most the " + num(m.layers) + " layers; got " + num(l.pp)});
  }
  if (problems & serve::kServeEp) {
    if (!m.moe.enabled()) {
      out.push_back({path + ".ep", "must be 1 for a dense model (no experts); got " + num(l.ep)});
    } else {
      out.push_back({path + ".ep", "must divide the replica's tp × dp = " + num(l.tp * l.dp) + " ranks and the " +
                                       num(m.moe.experts) + " experts; got " + num(l.ep)});
    }
  }
  if (problems & serve::kServeNoPeak) {
    out.push_back({"serving.compute_precision", "device " + d.id + " has no dense " + to_string(compute_precision) + " peak"});
  }
  return out;
}

void check_serve_model(Reader& r, Scenario* s) {
  ServingInputs& v = s->serving;
  if (v.disagg_given && !v.workload_given) {
    r.error("serving.disaggregation", "needs serving.workload: input_tokens, output_tokens and concurrency "
                                      "(requests in flight per decode instance)");
  }
  if (!v.workload_given) return;
  serve::ServeLayout& l = v.layout;
  if (!v.layout_given) l = serve::default_layout(s->model, s->device, serve::ceiling_replica_devices(s->model, s->device, v));
  check_pool(r, *s, l, v.layout_given ? "serving.layout" : "serving.layout (default)");
  if (v.disagg_given) {
    check_pool(r, *s, v.disagg.prefill, "serving.disaggregation.prefill", false,
               v.disagg_prefill_device_given ? &v.disagg_prefill_device : nullptr);
    check_pool(r, *s, v.disagg.decode, "serving.disaggregation.decode");
    if (v.workload.requests_per_s > 0) {
      r.error("serving.disaggregation", "takes serving.workload.concurrency (requests in flight per decode "
                                        "instance), not requests_per_s");
    }
  }
}

}  // namespace sizer::detail

namespace sizer {

std::vector<Issue> serve_layout_issues(const Scenario& s, const serve::ServeLayout& l, const std::string& path) {
  const serve::Performance mem = serve::evaluate_memory(s.model, s.device, l, serve::serve_context(s));
  return detail::serve_layout_issues(s.model, s.device, l, mem.problems, s.serving.compute_precision, path);
}

}  // namespace sizer
