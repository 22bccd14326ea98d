// The `training.layout`, `training.stack` and `training.search` parts of the scenario contract
// (docs/contract.md), each read and written back; and the planner's layout rules applied to a
// parsed scenario, so `eval` and `plan` accept and refuse the same layouts.
#include "contract/scenario_parts.h"

#include <cmath>

#include "sizer/contract/json_object.h"
#include "sizer/formulas/format.h"
#include "sizer/planners/planner.h"
#include "sizer/contract/user_text.h"

namespace sizer::detail {

namespace {
constexpr double kMaxLayoutDevices = 1e6;  // the same cap as the search's device counts
}  // namespace

void read_layout(Reader& r, const json& obj, const std::string& path, TrainingInputs* t) {
  Layout& l = t->layout;
  r.only_keys(obj, path, {"tp", "pp", "dp", "ep", "cp", "virtual_stages", "micro_batch", "global_batch", "seq_len",
                          "recompute", "sequence_parallel", "zero_stage", "flash_attention", "dp_overlap",
                          "tp_comm_overlap", "pp_comm_overlap", "expert_tp", "ep_folding", "ep_overlap", "expert_imbalance",
                          "fsdp_shard", "offload_activations", "einsum_dispatch", "sparsecore_gather", "pp_schedule", "ep_dispatcher", "recompute_fraction",
                          "given"});
  // "given": false marks the defaults the scenario echo writes (not the user's layout): no layout
  // prediction then, as when no layout is written.
  bool given = true;
  r.boolean(obj, "given", path, &given);
  t->layout_given = given;
  r.boolean(obj, "tp_comm_overlap", path, &l.tp_comm_overlap);
  r.boolean(obj, "pp_comm_overlap", path, &l.pp_comm_overlap);
  r.number(obj, "expert_tp", path, kDegree, &l.expert_tp);
  r.boolean(obj, "ep_folding", path, &l.ep_folding);
  r.number(obj, "ep_overlap", path, Range{0, 1}, &l.ep_overlap);
  r.number(obj, "expert_imbalance", path, Range{1, 1e3}, &l.expert_imbalance);
  r.number(obj, "fsdp_shard", path, kDegree, &l.fsdp_shard);
  r.boolean(obj, "offload_activations", path, &l.offload_activations);
  r.boolean(obj, "einsum_dispatch", path, &l.einsum_dispatch);
  r.boolean(obj, "sparsecore_gather", path, &l.sparsecore_gather);
  r.number(obj, "cp", path, kDegree, &l.cp);
  r.number(obj, "virtual_stages", path, Range{1, 1e4, false, true}, &l.virtual_stages);
  r.boolean(obj, "flash_attention", path, &l.flash_attention);
  r.boolean(obj, "dp_overlap", path, &l.dp_overlap);
  r.number(obj, "tp", path, kDegree, &l.tp);
  r.number(obj, "pp", path, kDegree, &l.pp);
  r.number(obj, "dp", path, kDegree, &l.dp);
  r.number(obj, "ep", path, kDegree, &l.ep);
  r.number(obj, "micro_batch", path, Range{1, 1e6, false, true}, &l.micro_batch);
  r.number(obj, "global_batch", path, Range{1, 1e9, false, true}, &l.global_batch);
  r.number(obj, "seq_len", path, Range{1, 1e8, false, true}, &l.seq_len);
  std::string ps;
  if (r.string(obj, "pp_schedule", path, &ps)) {
    if (ps == "1f1b") l.pp_schedule = PpSchedule::one_f_one_b;
    else if (ps == "zero_bubble") l.pp_schedule = PpSchedule::zero_bubble;
    else if (ps == "dualpipe") l.pp_schedule = PpSchedule::dualpipe;
    else r.error(detail::join(path, "pp_schedule"), "must be one of 1f1b, zero_bubble, dualpipe; got " + echo_quoted(ps));
  }
  std::string ed;
  if (r.string(obj, "ep_dispatcher", path, &ed)) {
    if (ed == "alltoall") l.ep_dispatcher = EpDispatcher::alltoall;
    else if (ed == "deepep") l.ep_dispatcher = EpDispatcher::deepep;
    else r.error(detail::join(path, "ep_dispatcher"), "must be one of alltoall, deepep; got " + echo_quoted(ed));
  }
  std::string rc;
  if (r.string(obj, "recompute", path, &rc)) {
    if (rc == "none") l.recompute = Recompute::none;
    else if (rc == "selective") l.recompute = Recompute::selective;
    else if (rc == "full") l.recompute = Recompute::full;
    else r.error(detail::join(path, "recompute"), "must be one of none, selective, full; got " + echo_quoted(rc));
  }
  // A share of the forward recomputed only means something when the forward is recomputed.
  if (r.number(obj, "recompute_fraction", path, Range{0, 1, true}, &l.recompute_fraction) &&
      l.recompute != Recompute::full) {
    r.error(detail::join(path, "recompute_fraction"),
            "applies only with recompute \"full\"; got recompute " + echo_quoted(to_string(l.recompute)) +
                " (set recompute to \"full\" or remove recompute_fraction)");
    l.recompute_fraction = 1;
  }
  r.boolean(obj, "sequence_parallel", path, &l.sequence_parallel);
  r.integer(obj, "zero_stage", path, Range{0, 3}, &t->layout.zero_stage);
}

json write_layout(const TrainingInputs& t) {
  const Layout& l = t.layout;
  json j = json_object({{"tp", l.tp},
                        {"pp", l.pp},
                        {"dp", l.dp},
                        {"ep", l.ep},
                        {"cp", l.cp},
                        {"virtual_stages", l.virtual_stages},
                        {"micro_batch", l.micro_batch},
                        {"global_batch", l.global_batch},
                        {"seq_len", l.seq_len},
                        {"recompute", to_string(l.recompute)},
                        {"sequence_parallel", l.sequence_parallel},
                        {"flash_attention", l.flash_attention},
                        {"dp_overlap", l.dp_overlap}});
  j["given"] = t.layout_given;
  j["tp_comm_overlap"] = l.tp_comm_overlap;
  j["pp_comm_overlap"] = l.pp_comm_overlap;
  j["ep_folding"] = l.ep_folding;
  j["ep_overlap"] = l.ep_overlap;
  if (l.expert_tp > 0) j["expert_tp"] = l.expert_tp;  // 0 = the default, written by omission
  if (l.expert_imbalance > 0) j["expert_imbalance"] = l.expert_imbalance;
  if (l.fsdp_shard > 0) j["fsdp_shard"] = l.fsdp_shard;
  if (l.offload_activations) j["offload_activations"] = true;  // false, the default, by omission
  if (l.recompute_fraction < 1)
    j["recompute_fraction"] = l.recompute_fraction;  // 1, the default, by omission
  if (l.einsum_dispatch) j["einsum_dispatch"] = true;
  if (l.sparsecore_gather) j["sparsecore_gather"] = true;
  if (l.pp_schedule != PpSchedule::one_f_one_b) j["pp_schedule"] = to_string(l.pp_schedule);
  if (l.ep_dispatcher != EpDispatcher::alltoall) j["ep_dispatcher"] = to_string(l.ep_dispatcher);
  return j;
}

// "megatron, pytorch, pytorch_eager or jax": the bundled stacks, for messages.
std::string stack_list() {
  const std::vector<std::string>& ids = software_stack_ids();
  std::string out;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == ids.size() ? " or " : ", ") + ids[i];
  }
  return out;
}

// The attention kernel's blocks, in tokens: whole numbers 16 … 1,048,576 (splash attention and
// FlashAttention tile sizes), or 0 for the forward's in a backward key, or for none (every key
// computed is an attended key). Keys left out keep the stack's values.
void read_attention_blocks(Reader& r, const json& v, const std::string& path, AttentionBlocks* out) {
  if (!v.is_object()) {
    r.error(path, "must be an object with q_tokens, kv_tokens, q_bwd_tokens and kv_bwd_tokens (tokens per block); got " +
                      detail::show(v));
    return;
  }
  r.only_keys(v, path, {"q_tokens", "kv_tokens", "q_bwd_tokens", "kv_bwd_tokens"});
  AttentionBlocks b = *out;
  const char* keys[] = {"q_tokens", "kv_tokens", "q_bwd_tokens", "kv_bwd_tokens"};
  double* slots[] = {&b.q_tokens, &b.kv_tokens, &b.q_bwd_tokens, &b.kv_bwd_tokens};
  bool ok = true;
  for (int i = 0; i < 4; ++i) {
    double x = *slots[i];
    if (!r.number(v, keys[i], path, Range{0, 1048576, false, true}, &x)) {
      if (v.contains(keys[i])) ok = false;
      continue;
    }
    if (x != 0 && x < 16) {
      r.error(detail::join(path, keys[i]), "must be 0 (none) or a block of 16 to 1,048,576 tokens; got " + detail::show(v[keys[i]]));
      ok = false;
      continue;
    }
    *slots[i] = x;
  }
  if (ok) *out = b;
}

void read_stack(Reader& r, const json& v, const std::string& path, SoftwareStack* out) {
  std::string id;
  const bool is_object = v.is_object();
  if (!is_object && !v.is_string()) {
    r.error(path, "must be a stack id (" + stack_list() + ") or an object with \"id\"; got " + detail::show(v));
    return;
  }
  if (is_object) {
    r.only_keys(v, path, {"id", "memory_bound_scale", "attention", "layer_overhead_s", "cast_scale", "permute_scale",
                          "gathers_expert_bias", "gmm_tile_rows", "attention_blocks", "embedding_matmul",
                          "vocab_tiles"});
    if (!r.string(v, "id", path, &id)) {
      r.error(detail::join(path, "id"), "is required: " + stack_list());
      return;
    }
  } else {
    id = v.get<std::string>();
  }
  SoftwareStack st;
  if (!software_stack_defaults(id, &st)) {
    r.error(is_object ? detail::join(path, "id") : path, "must be " + stack_list() + "; got " + echo_quoted(id));
    return;
  }
  if (is_object) {
    r.number(v, "memory_bound_scale", path, Range{0.1, 100}, &st.memory_bound_scale);
    r.number(v, "attention", path, Range{0, 1, true}, &st.attention_efficiency);
    r.number(v, "layer_overhead_s", path, Range{0, 1e-2}, &st.layer_overhead_s);
    r.number(v, "cast_scale", path, Range{0.1, 100}, &st.cast_scale);
    r.number(v, "permute_scale", path, Range{0.1, 100}, &st.permute_scale);
    r.boolean(v, "gathers_expert_bias", path, &st.gathers_expert_bias);
    r.number(v, "gmm_tile_rows", path, Range{0, 65536}, &st.gmm_tile_rows);
    if (auto it = v.find("attention_blocks"); it != v.end()) read_attention_blocks(r, *it, detail::join(path, "attention_blocks"), &st.attention_blocks);
    r.boolean(v, "embedding_matmul", path, &st.embedding_matmul);
    r.number(v, "vocab_tiles", path, Range{1, 1048576, false, true}, &st.vocab_tiles);
  }
  *out = st;
}

json write_stack(const SoftwareStack& st) {
  json j = json_object({{"id", st.id},
                        {"memory_bound_scale", st.memory_bound_scale},
                        {"layer_overhead_s", st.layer_overhead_s},
                        {"cast_scale", st.cast_scale},
                        {"permute_scale", st.permute_scale},
                        {"gathers_expert_bias", st.gathers_expert_bias},
                        {"gmm_tile_rows", st.gmm_tile_rows}});
  if (st.attention_efficiency > 0) j["attention"] = st.attention_efficiency;
  const AttentionBlocks& ab = st.attention_blocks;
  j["embedding_matmul"] = st.embedding_matmul;
  j["vocab_tiles"] = st.vocab_tiles;
  j["attention_blocks"] = json_object({{"q_tokens", ab.q_tokens},
                                       {"kv_tokens", ab.kv_tokens},
                                       {"q_bwd_tokens", ab.q_bwd_tokens},
                                       {"kv_bwd_tokens", ab.kv_bwd_tokens}});
  return j;
}

void read_search(Reader& r, const json& o, const std::string& path, SearchInputs* s) {
  r.only_keys(o, path, {"devices", "objective", "top", "allow"});
  if (auto it = o.find("devices"); it != o.end()) {
    const std::string dp = detail::join(path, "devices");
    const Range kCountR{1, 1e6, false, true};
    if (it->is_array()) {
      if (it->size() != 2) {
        r.error(dp, "must be a device count or a [min, max] range; got a list of " + std::to_string(it->size()));
      } else if (r.number_value((*it)[0], detail::index(dp, 0), kCountR, &s->devices_min) &&
                 r.number_value((*it)[1], detail::index(dp, 1), kCountR, &s->devices_max) &&
                 s->devices_max < s->devices_min) {
        r.error(dp, "range must be [min, max] with min ≤ max");
      }
    } else if (r.number_value(*it, dp, kCountR, &s->devices_min)) {
      s->devices_max = s->devices_min;
    }
  }
  if (r.string(o, "objective", path, &s->objective) && s->objective != "time" && s->objective != "cost" &&
      s->objective != "time_to_train") {
    r.error(detail::join(path, "objective"), "must be time, cost or time_to_train; got " + echo_quoted(s->objective));
  }
  r.number(o, "top", path, Range{1, 1000, false, true}, &s->top);
  if (auto it = o.find("allow"); it != o.end() && r.object(*it, detail::join(path, "allow"))) {
    const std::string ap = detail::join(path, "allow");
    r.only_keys(*it, ap, {"tp", "pp", "dp", "cp", "ep", "ep_folding", "flash_attention", "tp_comm_overlap"});
    r.boolean(*it, "flash_attention", ap, &s->allow_flash_attention);
    r.boolean(*it, "tp_comm_overlap", ap, &s->allow_tp_comm_overlap);
    r.boolean(*it, "tp", ap, &s->allow_tp);
    r.boolean(*it, "pp", ap, &s->allow_pp);
    r.boolean(*it, "dp", ap, &s->allow_dp);
    r.boolean(*it, "cp", ap, &s->allow_cp);
    r.boolean(*it, "ep", ap, &s->allow_ep);
    r.boolean(*it, "ep_folding", ap, &s->allow_ep_folding);
  }
}

json write_search(const SearchInputs& q) {
  if (!(q.devices_min > 0 || q.objective != "time" || q.top != 10 || !q.allow_tp || !q.allow_pp || !q.allow_dp ||
        q.allow_cp || !q.allow_ep || !q.allow_ep_folding || !q.allow_flash_attention || !q.allow_tp_comm_overlap)) {
    return nullptr;  // the defaults, written by omission
  }
  json j = json_object({{"objective", q.objective},
                        {"top", q.top},
                        {"allow", json_object({{"tp", q.allow_tp},
                                               {"pp", q.allow_pp},
                                               {"dp", q.allow_dp},
                                               {"cp", q.allow_cp},
                                               {"ep", q.allow_ep},
                                               {"ep_folding", q.allow_ep_folding},
                                               {"flash_attention", q.allow_flash_attention},
                                               {"tp_comm_overlap", q.allow_tp_comm_overlap}})}});
  if (q.devices_min > 0) {
    j["devices"] = q.devices_min == q.devices_max ? json(q.devices_min) : json::array({q.devices_min, q.devices_max});
  }
  return j;
}


// The planner's validity rules applied to the scenario's layout, so `eval` and `plan` accept and
// refuse the same layouts: errors when the scenario gives training.layout, warnings when the
// default layout does not suit the model.
void check_layout(const Scenario& s, bool layout_given, std::vector<Issue>* errors, std::vector<Issue>* warnings) {
  const Layout l = s.training.layout;
  std::vector<Issue>* out = layout_given ? errors : warnings;
  if (l.devices() > kMaxLayoutDevices) {
    out->push_back({"training.layout", std::string(l.ep_folding ? "gives tp × pp × dp × cp = " : "gives tp × pp × dp × cp × ep = ") +
                                           fmt::count(l.devices()) + " devices; at most 1,000,000 are allowed"});
    return;
  }
  const LayoutResult r = evaluate_layout(s.model, s.device, l, s.training);
  struct Rule { LayoutProblem bit; const char* path; };
  const Rule rules[] = {{kTpHeads, "training.layout.tp"}, {kPpLayers, "training.layout.pp"},
                        {kBatchSplit, "training.layout.global_batch"}, {kEpExperts, "training.layout.ep"},
                        {kCpSeq, "training.layout.cp"}, {kInterleave, "training.layout.virtual_stages"},
                        {kEpFolding, "training.layout.expert_tp"},
                        {kFsdpShard, "training.layout.fsdp_shard"}, {kPpSchedule, "training.layout.pp_schedule"}};
  for (const Rule& rule : rules) {
    if (r.problems & rule.bit) out->push_back({rule.path, explain_problem(s.model, s.device, l, r, rule.bit)});
  }
}

namespace {
bool layout_suits(const Scenario& s, const Layout& l) {
  Scenario trial = s;
  trial.training.layout = l;
  const Layout pl = trial.training.layout;
  const LayoutResult r = evaluate_layout(trial.model, trial.device, pl, trial.training);
  return r.problems == 0 && r.fits && std::fmod(trial.model.layers, l.pp) == 0;
}
}  // namespace

// The default training layout when the scenario writes none (docs/contract.md, training.layout):
// the seed's (TP 8 inside the node, PP 64, DP 6) while it suits the model (the stages divide its
// layers, and it fits), else the seed's rule on
// its 3,072 devices: the widest TP of 8, 4, 2, 1 that divides the heads and the scale-up domain,
// the fewest pipeline stages (a divisor of the layers) at which the model fits, data parallel over
// the rest (the most replicas on those devices that split the global batch evenly). A model that
// fits nowhere keeps the seed's layout, and its warnings say why.
Layout default_training_layout(const Scenario& s) {
  const Layout seed = s.training.layout;
  // Capped at the model's layers (read_training), the seed's 64 stages are one layer each: no longer its layout.
  if (seed_layout().pp <= s.model.layers && layout_suits(s, seed)) return seed;
  const double heads = s.model.heads, layers = s.model.layers;
  const double seed_devices = seed_layout().devices();  // the seed's cluster: 3,072 devices
  for (double tp : {8.0, 4.0, 2.0, 1.0}) {
    if (heads <= 0 || std::fmod(heads, tp) != 0) continue;
    if (s.device.scale_up_domain > 0 && tp > s.device.scale_up_domain) continue;
    for (double pp = 1; pp <= layers && pp <= seed_devices / tp; ++pp) {
      if (std::fmod(layers, pp) != 0) continue;
      // The most replicas on the seed's devices that split the global batch evenly.
      double dp = std::floor(seed_devices / (tp * pp));
      while (dp > 1 && std::fmod(seed.global_batch, dp * seed.micro_batch) != 0) --dp;
      Layout l = seed;
      l.tp = tp;
      l.pp = pp;
      l.dp = dp;
      l.virtual_stages = 1;
      l.sequence_parallel = seed.sequence_parallel && tp > 1;
      if (layout_suits(s, l)) return l;
    }
  }
  return seed;
}


}  // namespace sizer::detail
