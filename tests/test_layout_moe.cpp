// MoE terms of the layout model (core/src/layout/moe.cpp; docs/planner.md, "Mixture of experts"):
// routed-expert GEMMs at their own width, load imbalance, permute traffic, all-to-all overlap,
// expert TP and MoE parallel folding.
#include <catch2/catch.hpp>
#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>

#include "validation_util.h"
#include "../core/src/layout/parts.h"
#include "scenario_util.h"
#include "sizer/sizer.h"
#include "sizer/formulas/training_memory.h"

using namespace sizer;

namespace {

using testutil::scenario;

LayoutResult run(const Scenario& s, const PlanLayout& l) { return evaluate_layout(s.model, s.device, l, plan_context(s)); }

// A DeepSeek-V3-shaped layout on H800s: PP 16, EP 64 across nodes (the published layout).
const char* kV3 = R"({"model": "deepseek-v3", "device": "h800", "training": {"precision": "bf16", "zero_stage": 1,
  "layout": {"tp": 1, "pp": 16, "ep": 64, "dp": 2, "micro_batch": 1, "global_batch": 15360, "seq_len": 4096,
             "sequence_parallel": false}}})";

// A custom MoE model whose routed experts are `f` wide (params consistent with the shape).
Scenario custom_moe(double f, const std::string& layout) {
  const double h = 4096, layers = 32, experts = 64, k = 4;
  const double per_expert = 3 * h * f;
  const double always = 4e9;
  const std::string params = std::to_string(always + experts * per_expert * layers);
  const std::string active = std::to_string(always + k * per_expert * layers);
  return scenario(R"({"model": {"name": "moe", "params": )" + params + R"(, "active_params": )" + active +
                  R"(, "layers": 32, "hidden": 4096, "heads": 32, "vocab": 32000,
      "attention": {"type": "gqa", "kv_heads": 8, "head_dim": 128},
      "moe": {"experts": 64, "experts_per_token": 4, "shared_experts": 0, "moe_layers": 32,
              "expert_ffn_hidden": )" + std::to_string(f) + R"(}},
    "device": "h100", "training": {"layout": )" + layout + "}}");
}

const char* kCustomLayout = R"({"tp": 1, "pp": 1, "dp": 8, "ep": 8, "global_batch": 64, "seq_len": 4096})";

}  // namespace

TEST_CASE("routed experts are timed in their own term; dense models have none", "[layout][moe]") {
  const Scenario s = scenario(kV3);
  const LayoutResult r = run(s, plan_layout(s));
  CHECK(r.expert_compute_s > 0);
  CHECK(r.moe_permute_s > 0);
  CHECK(r.expert_gemm_efficiency > 0);
  CHECK(r.expert_gemm_efficiency < r.gemm_efficiency);  // 2,048-wide experts vs the 7,168-wide model
  // 4,096 tokens × 64 ranks × 8 of 256 experts = 8,192 tokens per expert, × the default imbalance.
  CHECK(r.tokens_per_expert == Approx(8192 * 1.25));
  CHECK(r.expert_imbalance == 1.25);
  const Scenario dense = scenario(R"({"model": "llama-3-70b", "device": "h100", "training": {"layout":
      {"tp": 8, "pp": 1, "dp": 8, "global_batch": 64, "seq_len": 8192}}})");
  const LayoutResult rd = run(dense, plan_layout(dense));
  CHECK(rd.expert_compute_s == 0);
  CHECK(rd.moe_permute_s == 0);
  CHECK(rd.ep_comm_s == 0);
}

TEST_CASE("einsum dispatch costs GShard's dispatch and combine einsums over the capacity buffers", "[layout][moe]") {
  // Mixtral-8x7B-shaped, FSDP over 8 devices, capacity factor 1.25: MaxText's token-dropping path.
  const char* layout = R"({"tp": 1, "pp": 1, "dp": 8, "micro_batch": 2, "global_batch": 16, "seq_len": 4096,
      "recompute": "selective", "expert_imbalance": 1.25)";
  const std::string model = R"({"name": "Mixtral 8x7B", "params": 46702792704, "active_params": 12879925248,
      "layers": 32, "hidden": 4096, "heads": 32, "vocab": 32000, "attention": {"type": "gqa", "kv_heads": 8, "head_dim": 128},
      "ffn_hidden": 14336, "moe": {"experts": 8, "experts_per_token": 2, "shared_experts": 0, "moe_layers": 32,
      "expert_ffn_hidden": 14336}})";
  Scenario s = scenario(R"({"model": )" + model + R"(, "device": "h100", "training": {"zero_stage": 3, "layout": )" +
                        layout + R"(, "einsum_dispatch": true}}})");
  REQUIRE(s.training.layout.einsum_dispatch);
  const LayoutResult e = run(s, plan_layout(s));
  Scenario p = scenario(R"({"model": )" + model + R"(, "device": "h100", "training": {"zero_stage": 3, "layout": )" +
                        layout + "}}}");
  const LayoutResult q = run(p, plan_layout(p));
  REQUIRE(e.valid());
  // By hand: C = ⌈4096·2/8⌉·1.25 = 1,280 slots per expert per sequence; 2·E·C·h FLOPs per einsum
  // per token, 2 einsums forward and 3 backward (selective recompute repeats none of them), every
  // MoE layer, 2·4096 tokens per micro-batch, one micro-batch, at the H100's GEMM curve at
  // min(S, h, E·C) = 4096.
  const Model& m = s.model;
  const double h = m.hidden, experts = m.moe.experts, capacity = 1024 * 1.25;
  const double flops = (2 + 3) * 2 * experts * capacity * h * m.moe.moe_layers * 2 * 4096;
  const double eff = s.device.gemm_efficiency * 4096 / (4096 + s.device.gemm_half_width);
  CHECK(e.moe_permute_s == Approx(flops / (s.device.dense_flops(Precision::bf16) * eff)).epsilon(1e-9));
  // It replaces the permute copies (a memory-bound term) and costs more at this sequence length.
  CHECK(q.moe_permute_s > 0);
  CHECK(e.moe_permute_s > 2 * q.moe_permute_s);
  CHECK(e.step_s > q.step_s);
  // Everything else is the same step.
  CHECK(e.expert_compute_s == q.expert_compute_s);
  CHECK(e.compute_s == q.compute_s);
  // Quadratic in the sequence: the buffers grow with it, per token.
  Scenario s2 = s;
  s2.training.layout.seq_len = 8192;
  s2.training.layout.global_batch = 8;
  s2.training.layout.micro_batch = 1;
  const LayoutResult e2 = run(s2, plan_layout(s2));
  CHECK(e2.moe_permute_s == Approx(2 * e.moe_permute_s).epsilon(1e-9));
  // Not a boolean: refused, naming the field.
  const ParsedScenario bad =
      parse_scenario(R"({"model": "moe-1t", "training": {"layout": {"einsum_dispatch": "yes"}}})", bundled_catalog());
  REQUIRE(!bad.ok());
  CHECK(bad.issues.front().path == "training.layout.einsum_dispatch");
}

TEST_CASE("the expert FFN width is stored, or derived from the parameter counts", "[layout][moe]") {
  CHECK(scenario(R"({"model": "deepseek-v3"})").model.moe.expert_ffn_hidden == 2048);
  CHECK(expert_ffn_width(scenario(R"({"model": "deepseek-v3"})").model) == 2048);
  // Without the key: p_e ÷ 3h, (671B − 37B)/(256 − 8) per expert over 58 layers ÷ (3 × 7,168) ≈ 2,050.
  Model m = scenario(R"({"model": "deepseek-v3"})").model;
  m.moe.expert_ffn_hidden = 0;
  CHECK(expert_ffn_width(m) == Approx(2048).epsilon(0.01));
}

TEST_CASE("wider experts take longer; narrower experts run at a lower efficiency", "[layout][moe]") {
  const Scenario narrow = custom_moe(1024, kCustomLayout), wide = custom_moe(4096, kCustomLayout);
  const LayoutResult rn = run(narrow, plan_layout(narrow)), rw = run(wide, plan_layout(wide));
  REQUIRE(rn.valid());
  CHECK(rw.expert_compute_s > 3 * rn.expert_compute_s);  // 4× the expert FLOPs ...
  CHECK(rw.expert_compute_s < 4 * rn.expert_compute_s);  // ... at a better efficiency
  CHECK(rw.expert_gemm_efficiency > rn.expert_gemm_efficiency);
  CHECK(rw.step_s > rn.step_s);
}

TEST_CASE("expert load imbalance slows the busiest device", "[layout][moe]") {
  const Scenario s = scenario(kV3);
  PlanLayout even = plan_layout(s), skewed = even;
  even.expert_imbalance = 1.0;
  skewed.expert_imbalance = 1.5;
  const LayoutResult re = run(s, even), rs = run(s, skewed);
  CHECK(rs.step_s > re.step_s);
  CHECK(rs.ep_comm_s == Approx(1.5 * re.ep_comm_s).epsilon(0.01));  // bytes received scale
  // 1.5× the expert work; the GEMMs are already as wide as the 2,048-wide experts allow.
  CHECK(rs.expert_compute_s == Approx(1.5 * re.expert_compute_s));
  SECTION("where tokens per expert are few, the fuller GEMMs of the busiest device recover some") {
    const Scenario c = custom_moe(4096, R"({"tp": 1, "pp": 1, "dp": 8, "ep": 8, "global_batch": 64, "seq_len": 256})");
    PlanLayout a = plan_layout(c), z = a;
    a.expert_imbalance = 1.0;
    z.expert_imbalance = 1.5;
    const LayoutResult ra = run(c, a), rz = run(c, z);
    CHECK(rz.expert_compute_s > 1.1 * ra.expert_compute_s);  // 1.5 × (128/384) ÷ (192/448) = 1.17
    CHECK(rz.expert_compute_s < 1.5 * ra.expert_compute_s);
  }
  SECTION("without expert parallelism the default is 1; a given value (capacity padding) applies") {
    const Scenario c = custom_moe(1024, R"({"tp": 1, "pp": 1, "dp": 64, "ep": 1, "global_batch": 64, "seq_len": 4096})");
    PlanLayout l = plan_layout(c);
    const LayoutResult r1 = run(c, l);
    CHECK(r1.expert_imbalance == 1.0);
    l.expert_imbalance = 1.25;  // a token-dropping router with capacity factor 1.25
    const LayoutResult r2 = run(c, l);
    CHECK(r2.expert_imbalance == 1.25);
    CHECK(r2.expert_compute_s > r1.expert_compute_s);
  }
}

TEST_CASE("ep_overlap hides that fraction of the all-to-all behind compute, less the SMs it takes", "[layout][moe]") {
  const Scenario s = scenario(kV3);
  PlanLayout none = plan_layout(s), half = none, full = none;
  half.ep_overlap = 0.5;
  full.ep_overlap = 1.0;
  const LayoutResult r0 = run(s, none), rh = run(s, half), rf = run(s, full);
  REQUIRE(r0.ep_comm_s > 0);
  CHECK(r0.ep_comm_hidden_s == 0);
  const double a2a = r0.ep_comm_s, compute = r0.compute_s + r0.expert_compute_s;
  // At most the compute can hide it; the hidden part still costs the SM share of its time: an
  // NCCL all-to-all 10% (as the TP overlap), DeepEP 20 of 132 SMs (DeepSeek-V3 §3.2.2).
  const double hidden_f = std::min(a2a, compute), hidden_h = 0.5 * std::min(a2a, compute);
  CHECK(rf.ep_comm_hidden_s == Approx(hidden_f));
  CHECK(rf.ep_comm_s == Approx(a2a - hidden_f + 0.1 * hidden_f));
  CHECK(rh.ep_comm_s == Approx(a2a - hidden_h + 0.1 * hidden_h));
  CHECK(rf.step_s < rh.step_s);
  CHECK(rh.step_s < r0.step_s);
  SECTION("DeepEP's kernels take 20 of 132 SMs") {
    PlanLayout d0 = none, df = full;
    d0.ep_dispatcher = df.ep_dispatcher = EpDispatcher::deepep;
    const LayoutResult q0 = run(s, d0), qf = run(s, df);
    const double a2a_d = q0.ep_comm_s, hidden_d = std::min(a2a_d, q0.compute_s + q0.expert_compute_s);
    REQUIRE(hidden_d > 0);
    CHECK(qf.ep_comm_s == Approx(a2a_d - hidden_d + 20.0 / 132.0 * hidden_d));
    CHECK(qf.step_s < q0.step_s);
    // The working says what the hidden part costs and why.
    const auto notes = explain_layout(s.model, s.device, df, qf);
    CHECK(std::any_of(notes.begin(), notes.end(), [](const std::string& n) { return n.find("20 of 132 SMs") != std::string::npos; }));
    const auto none_notes = explain_layout(s.model, s.device, d0, q0);
    CHECK_FALSE(std::any_of(none_notes.begin(), none_notes.end(), [](const std::string& n) { return n.find("SMs") != std::string::npos; }));
  }
}

TEST_CASE("the all-to-all splits over the links it crosses; DeepEP sends a token once per other domain", "[layout][moe]") {
  // EP 16 on H800s (8 per NVLink domain): of each token's k = 8 routed copies, 8 × 7/16 stay in the
  // domain and 8 × 8/16 cross InfiniBand; the two run at once, so the slower link paces the step.
  Scenario s = scenario(kV3);
  PlanLayout l = plan_layout(s);
  l.pp = 16, l.ep = 16, l.dp = 8;
  const LayoutResult flat = run(s, l);
  REQUIRE(flat.valid());
  CHECK(flat.ep_copies_scale_up == Approx(8.0 * 7 / 16));
  CHECK(flat.ep_copies_scale_out == Approx(8.0 * 8 / 16));
  // Every rank's copy bytes (dispatch and combine) × imbalance, per MoE layer and pass: the IB part
  // over the scale-out link paces it (50 GB/s against NVLink's 200 GB/s per direction).
  const Device& d = s.device;
  const PlanContext c = plan_context(s);
  const double tokens = l.micro_batch * l.seq_len, h = s.model.hidden;
  const double copy = tokens * h * (c.alltoall_dispatch_bytes + c.alltoall_combine_bytes) * flat.expert_imbalance;
  const double out_bw = d.scale_out_bytes_per_s * d.link_efficiency;
  const double up_bw = d.scale_up_bytes_per_s * d.link_efficiency;
  REQUIRE(flat.ep_copies_scale_out * copy / out_bw > flat.ep_copies_scale_up * copy / up_bw);
  const double per = flat.ep_copies_scale_out * copy / out_bw + d.collective_latency_s;
  const double mb = l.global_batch / (l.dp * l.ep * l.micro_batch);
  CHECK(flat.ep_comm_s + flat.ep_comm_hidden_s == Approx(2.0 * s.model.moe.moe_layers / l.pp * mb * per));
  // Before the split every copy that left the device was charged to the slower link: 15/16 of 8.
  CHECK(flat.ep_copies_scale_out < 8.0 * 15 / 16);

  // DeepEP: D = 2 domains, each token reaches the other one with probability 1 − (1/2)^8 and is
  // sent once; its copies there are forwarded over NVLink, 7/8 of them off the receiving rank.
  PlanLayout dl = l;
  dl.ep_dispatcher = EpDispatcher::deepep;
  const LayoutResult deep = run(s, dl);
  CHECK(deep.ep_copies_scale_out == Approx(1.0 - std::pow(0.5, 8)));
  CHECK(deep.ep_copies_scale_up == Approx(8.0 * 7 / 16 + 8.0 * 8 / 16 * 7 / 8));
  CHECK(deep.ep_comm_s < flat.ep_comm_s);
  CHECK(deep.step_s < flat.step_s);

  // Inside one domain (EP 8) nothing crosses the scale-out network and the dispatcher changes nothing.
  PlanLayout in = l, in_deep = l;
  in.ep = in_deep.ep = 8, in.dp = in_deep.dp = 16;
  in_deep.ep_dispatcher = EpDispatcher::deepep;
  const LayoutResult ri = run(s, in), rid = run(s, in_deep);
  CHECK(ri.ep_copies_scale_out == 0);
  CHECK(ri.ep_copies_scale_up == Approx(8.0 * 7 / 8));
  CHECK(rid.step_s == Approx(ri.step_s));
  // One EP rank per domain (EP strided past the domain): every copy that leaves goes over the network.
  PlanLayout strided = l;
  strided.tp = 8, strided.ep = 4, strided.dp = 4, strided.pp = 4;
  const LayoutResult rs = run(s, strided);
  CHECK(rs.ep_copies_scale_up == 0);
  CHECK(rs.ep_copies_scale_out == Approx(8.0 * 3 / 4));
}

TEST_CASE("ep_dispatcher is read, echoed and refused when unknown", "[layout][moe][contract]") {
  const Scenario s = scenario(R"({"model": "deepseek-v3", "device": "h800", "training": {"layout":
      {"tp": 1, "pp": 16, "ep": 64, "dp": 2, "global_batch": 15360, "seq_len": 4096, "ep_dispatcher": "deepep"}}})");
  CHECK(s.training.layout.ep_dispatcher == EpDispatcher::deepep);
  CHECK(plan_layout(s).ep_dispatcher == EpDispatcher::deepep);
  CHECK(scenario(kV3).training.layout.ep_dispatcher == EpDispatcher::alltoall);  // the default
  const ParsedScenario bad = parse_scenario(R"({"training": {"layout": {"ep_dispatcher": "nccl"}}})", bundled_catalog());
  REQUIRE(bad.issues.size() == 1);
  CHECK(bad.issues[0].path == "training.layout.ep_dispatcher");
  CHECK(bad.issues[0].message.find("alltoall, deepep") != std::string::npos);
  const ParsedScenario wrong_type = parse_scenario(R"({"training": {"layout": {"ep_dispatcher": 2}}})", bundled_catalog());
  REQUIRE(wrong_type.issues.size() == 1);
  CHECK(wrong_type.issues[0].path == "training.layout.ep_dispatcher");
  // The echo writes it back only when it is not the default, and it round-trips.
  const ParsedScenario again = parse_scenario(scenario_to_json(s).dump(), bundled_catalog());
  REQUIRE(again.ok());
  CHECK(again.scenario.training.layout.ep_dispatcher == EpDispatcher::deepep);
}

TEST_CASE("MoE parallel folding counts devices as tp·pp·dp·cp", "[layout][moe]") {
  // TP 2, PP 8, EP 32 with expert TP 1 on 256 GPUs, folded: the shape of published Megatron-Core
  // folded layouts on 256 H100s, used here only as a layout that must be accepted (no result).
  const Scenario s = scenario(R"({"model": "deepseek-v3", "device": "h100", "training": {"zero_stage": 1,
      "layout": {"tp": 2, "pp": 8, "dp": 16, "ep": 32, "expert_tp": 1, "ep_folding": true,
                 "global_batch": 1024, "seq_len": 4096}}})");
  const PlanLayout l = plan_layout(s);
  CHECK(l.devices() == 256);
  CHECK(s.training.layout.devices() == 256);
  CHECK(layout_devices(2, 8, 16, 1, 32, true) == 256);
  CHECK(layout_devices(2, 8, 16, 1, 32, false) == 8192);
  CHECK(layout_batch_ranks(16, 32, true) == 16);
  CHECK(layout_expert_dp(2, 1, 16, 32, 1) == 1);
  const LayoutResult r = run(s, l);
  CHECK((r.problems & kEpFolding) == 0);
  CHECK(r.valid());
  CHECK(r.microbatches == 1024 / 16);
  SECTION("expert TP × EP must divide TP × CP × DP") {
    const auto p = parse_scenario(R"({"model": "deepseek-v3", "device": "h100", "training": {"layout":
        {"tp": 2, "pp": 8, "dp": 16, "ep": 32, "expert_tp": 2, "ep_folding": true, "global_batch": 1024,
         "seq_len": 4096}}})", bundled_catalog());
    REQUIRE(!p.ok());
    const auto it = std::find_if(p.issues.begin(), p.issues.end(),
                                 [](const Issue& i) { return i.path == "training.layout.expert_tp"; });
    REQUIRE(it != p.issues.end());
    CHECK(it->message.find("does not divide the TP × CP × DP = 32 ranks") != std::string::npos);
  }
  SECTION("the same degrees unfolded need 32 times the devices") {
    PlanLayout unfolded = l;
    unfolded.ep_folding = false;
    unfolded.expert_tp = 0;
    CHECK(unfolded.devices() == 8192);
  }
}

TEST_CASE("expert TP shards the routed experts' weights", "[layout][moe]") {
  const Scenario s = scenario(R"({"model": "deepseek-v3", "device": "h100", "training": {"zero_stage": 1,
      "layout": {"tp": 8, "pp": 8, "dp": 2, "ep": 8, "global_batch": 1024, "seq_len": 4096}}})");
  PlanLayout by_tp = plan_layout(s), etp1 = by_tp;
  etp1.expert_tp = 1;
  const LayoutResult r8 = run(s, by_tp), r1 = run(s, etp1);
  CHECK(r8.valid());
  CHECK(r1.valid());
  const double routed = routed_expert_params(s.model);
  CHECK(memory::model_parallel_shard_params(s.model.params, routed, 8, 8, 8, 1) -
            memory::model_parallel_shard_params(s.model.params, routed, 8, 8, 8, 0) ==
        Approx(routed / (8 * 8) - routed / (8 * 8 * 8)));
  CHECK(r1.weight_bytes > 4 * r8.weight_bytes);  // routed experts are ~97% of DeepSeek-V3
  // Expert TP 8 gathers the TP group's tokens: 8× the tokens per expert on 1/8 of its width.
  CHECK(r8.tokens_per_expert == Approx(8 * r1.tokens_per_expert));
  SECTION("without folding expert TP must divide TP") {
    PlanLayout bad = by_tp;
    bad.expert_tp = 3;
    const LayoutResult rb = run(s, bad);
    CHECK((rb.problems & kEpFolding) != 0);
    CHECK(explain_problem(s.model, s.device, bad, rb, kEpFolding).find("does not divide TP 8") != std::string::npos);
  }
}

TEST_CASE("expert TP behind an all-to-all gathers and scatters the routed copies inside its group", "[layout][moe]") {
  // Mixtral 8x22B on 128 H100 as the MoE Parallel Folding paper's Table 3 lays it out: TP 2 × PP 8
  // with EP 4 × expert TP 2 (MCore) or EP 8 × expert TP 1 (folding), EP drawn from TP × DP.
  auto mixtral = [](int ep, int etp, bool overlap = true) {
    return scenario(std::string(R"({"model": "mixtral-8x22b", "device": "h100", "training": {"stack": "megatron",
      "layout": {"tp": 2, "pp": 8, "dp": 8, "ep": )") + std::to_string(ep) + R"(, "expert_tp": )" + std::to_string(etp) +
                    R"(, "ep_folding": true, "expert_imbalance": 1.0, "micro_batch": 1, "global_batch": 256,
      "seq_len": 4096, "sequence_parallel": true, "tp_comm_overlap": )" + (overlap ? "true" : "false") + "}}}");
  };
  const Scenario s2 = mixtral(4, 2), s1 = mixtral(8, 1);
  const PlanLayout l2 = plan_layout(s2), l1 = plan_layout(s1);
  const LayoutResult r2 = run(s2, l2), r1 = run(s1, l1);
  REQUIRE(r2.valid());
  REQUIRE(r1.valid());
  // One all-gather and one reduce-scatter per MoE layer and pass of ETP × tokens per rank × k
  // hidden vectors (2 × 2,048 × 2 × 6,144 × 2 bytes), over 2 ranks of one NVLink domain; 7 MoE
  // layers on a stage, 32 micro-batches, forward and backward.
  const double gathered = 2.0 * 2048 * 2 * 6144 * 2;
  const double count = 2.0 * 7 * 32;
  const double expect = sizer::collective_s(s2.device, sizer::Coll::all_gather, 2, 2, count, gathered) +
                        sizer::collective_s(s2.device, sizer::Coll::reduce_scatter, 2, 2, count, gathered);
  CHECK(r2.etp_comm_s == Approx(expect).epsilon(1e-9));
  CHECK(r2.etp_comm_s > 0.1);            // about 0.12 s of a 5 s step: not negligible
  CHECK(r2.ep_comm_s > r2.etp_comm_s);   // it is part of the EP row, beside the all-to-all
  CHECK(r1.etp_comm_s == 0);             // expert TP 1: the copies need no gathering
  // Without an all-to-all (EP 1, experts sharded by TP only) no such gather is charged.
  const Scenario s0 = scenario(R"({"model": "mixtral-8x22b", "device": "h100", "training": {"stack": "megatron",
      "layout": {"tp": 2, "pp": 8, "dp": 8, "ep": 1, "micro_batch": 1, "global_batch": 256, "seq_len": 4096,
                 "sequence_parallel": true, "tp_comm_overlap": true}}})");
  CHECK(run(s0, plan_layout(s0)).etp_comm_s == 0);
  // The MoE layers behind the all-to-all keep their input sequence-parallel: only the attention's
  // TP collectives remain, half of what the dense-MLP layout (EP 1) charges.
  const Scenario n2 = mixtral(4, 2, false), n0 = scenario(R"({"model": "mixtral-8x22b",
      "device": "h100", "training": {"stack": "megatron", "layout": {"tp": 2, "pp": 8, "dp": 8, "ep": 1, "micro_batch": 1,
      "global_batch": 256, "seq_len": 4096, "sequence_parallel": true, "tp_comm_overlap": false}}})");
  CHECK(run(n2, plan_layout(n2)).tp_comm_s == Approx(0.5 * run(n0, plan_layout(n0)).tp_comm_s).epsilon(1e-9));
  // The plan reports it.
  CHECK(plan_to_json(s2)["result"]["step"]["etp_comm_s"].get<double>() == Approx(r2.etp_comm_s));
}

TEST_CASE("published MoE runs (docs/validation/runs-moe.json) do not get worse", "[layout][moe][validation]") {
  const auto rows = testutil::published_runs({"runs-moe.json"});
  REQUIRE(rows.size() >= 15);
  for (const auto& r : rows) {
    INFO(r.id);
    CHECK(r.group == "moe");
    CHECK(r.result.valid());
  }
  // Measured 2026-12-01 when the file was written (the MoE terms in place, nothing
  // fitted to these runs): all 60.0%, calibrate (MaxText Mixtral, 2 runs) 11.0%, held out
  // (torchtitan Qwen3-30B-A3B on B200, 5 runs) 79.6%. After the stack/chip fit, FP8 recipes and
  // power caps (2026-12-01): all 17.2%, calibrate 4.1%, held out 22.5%. Einsum dispatch on the
  // MaxText Mixtral runs (their token-dropping path; nothing refitted, docs/validation.md): the two
  // calibrate runs +4.8%/+3.3% → −5.2%/−5.5% (calibrate 5.4%; their custom remat, written as full,
  // over-charges the recomputed attention projections), while tpu-recipes' held-out Mixtral run of
  // the same layout in runs-chips.json went −24.8% → −1.5%. 2026-12-05: eight held-out
  // Megatron-Core runs on H100 (the MoE Parallel Folding paper) and expert TP's gather of the routed
  // copies: all 11.5% (15 runs), held out 12.4% (13). 2026-12-06: each run's all-to-all dispatch
  // element as its framework sends it (BF16; the seed's FP8 default had applied unrecorded): all
  // 9.2%, held out 9.8%; in sample 5.4% → 5.7% (the v6e not refitted). Each may only go down (half
  // a point of slack).
  const auto groups = group_errors(rows);
  const auto moe = std::find_if(groups.begin(), groups.end(), [](const GroupError& g) { return g.group == "moe"; });
  REQUIRE(moe != groups.end());
  CHECK(moe->mae <= 0.092 + 0.005);
  CHECK(moe->in_sample_mae <= 0.057 + 0.005);
  CHECK(moe->out_of_sample_mae <= 0.098 + 0.005);
}

TEST_CASE("MoE on the jax stack's sparse path says how far its dispatch cost is validated (docs/validation.md)", "[layout][moe]") {
  auto notes = [](const std::string& model, const std::string& device, bool einsum, const char* stack = "jax") {
    const Scenario s = scenario(R"({"model": ")" + model + R"(", "device": ")" + device +
                                R"(", "training": {"stack": ")" + stack + R"(", "zero_stage": 3, "layout": {"tp": 1, "pp": 1, "dp": 256,
        "micro_batch": 8, "global_batch": 2048, "seq_len": 4096, "recompute": "full", "einsum_dispatch": )" +
                                (einsum ? "true" : "false") + "}}}");
    const PlanLayout l = plan_layout(s);
    const auto out = explain_layout(s.model, s.device, l, run(s, l));
    return std::any_of(out.begin(), out.end(), [](const std::string& n) { return n.find("MoE runs on TPU7x took from 9% less to 10% more time than predicted") != std::string::npos; });
  };
  CHECK(notes("deepseek-v3", "tpu-ironwood", false));
  CHECK(notes("mixtral-8x7b", "tpu-v6e", false));
  CHECK_FALSE(notes("mixtral-8x7b", "tpu-v6e", true));   // GShard's einsum dispatch: validated within 6%
  CHECK_FALSE(notes("llama-3.1-70b", "tpu-ironwood", false));  // dense
  CHECK(notes("deepseek-v3", "h100", false));                   // the jax stack's dispatch, wherever it runs
  CHECK_FALSE(notes("deepseek-v3", "h100", false, "pytorch"));  // copy kernels: validated on torchtitan and DeepSeek-V3
}
