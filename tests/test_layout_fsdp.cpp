// ZeRO-3 / FSDP / HSDP in the layout model (docs/planner.md, "ZeRO-3, FSDP and HSDP"): per-layer
// gathers every micro-batch with prefetch, collective latency that grows with the group and the
// nodes it spans, HSDP shard groups in memory and communication, and the published FSDP scaling
// sweeps (docs/validation/runs-fsdp.json).
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "validation_util.h"
#include "../core/src/layout/parts.h"
#include "scenario_util.h"
#include "sizer/sizer.h"

using namespace sizer;

namespace {

using testutil::scenario;

LayoutResult run(const Scenario& s, const PlanLayout& l) { return evaluate_layout(s.model, s.device, l, plan_context(s)); }

// Llama 3 70B on H100 nodes of 8, FSDP (ZeRO-3) only, 4,096-token sequences.
const char* kFsdp = R"({"model": "llama-3-70b", "device": "h100", "training": {"zero_stage": 3, "layout":
  {"tp": 1, "pp": 1, "dp": 64, "micro_batch": 1, "global_batch": 64, "seq_len": 4096, "recompute": "full",
   "sequence_parallel": false}}})";

double per_device_tokens_s(const LayoutResult& r, const PlanLayout& l) { return r.tokens_per_s / l.devices(); }

}  // namespace

TEST_CASE("ZeRO-3 at a fixed global batch: per-device throughput falls as DP grows across nodes", "[layout][fsdp]") {
  const Scenario s = scenario(kFsdp);
  double last = 1e300, last_share = -1;
  for (double dp : {16.0, 32.0, 64.0, 128.0, 256.0}) {
    PlanLayout l = plan_layout(s);
    l.dp = dp;
    l.global_batch = 128;
    l.micro_batch = 128 / dp;  // fewer tokens per device: less compute to hide each layer's gathers
    const LayoutResult r = run(s, l);
    INFO("dp " << dp);
    REQUIRE(r.valid());
    CHECK(r.dp_link == Link::scale_out);
    const double t = per_device_tokens_s(r, l);
    CHECK(t < last);
    const double share = r.dp_comm_exposed_s / r.step_s;
    CHECK(share > last_share);
    last = t, last_share = share;
  }
}

TEST_CASE("ZeRO-3 gathers every micro-batch; ZeRO-1 reduces once per step", "[layout][fsdp]") {
  const Scenario s = scenario(kFsdp);
  PlanLayout one = plan_layout(s), four = one;
  four.global_batch = 4 * one.global_batch;  // four micro-batches per step
  SECTION("ZeRO-1: exposed DP time does not depend on the micro-batch count") {
    one.zero_stage = four.zero_stage = 1;
    const LayoutResult a = run(s, one), b = run(s, four);
    CHECK(b.microbatches == 4 * a.microbatches);
    CHECK(b.dp_comm_exposed_s == Approx(a.dp_comm_exposed_s));
  }
  SECTION("ZeRO-3: the first gather and last reduce-scatter of each micro-batch are paid again") {
    const LayoutResult a = run(s, one), b = run(s, four);
    CHECK(a.dp_comm_exposed_s > 0);
    CHECK(b.dp_comm_exposed_s == Approx(4 * a.dp_comm_exposed_s));
  }
  SECTION("without overlap nothing is prefetched") {
    PlanLayout serial = one;
    serial.dp_overlap = false;
    CHECK(run(s, serial).dp_comm_exposed_s > 5 * run(s, one).dp_comm_exposed_s);
  }
}

TEST_CASE("ZeRO-1/2: a gradient reduce-scatter and a parameter all-gather, hidden per model chunk", "[layout][fsdp]") {
  // GPT-3 175B on 512 H100s, TP 4 x PP 8, DP 16, 72 micro-batches: the MLPerf v4.0 layout.
  const Scenario s = scenario(R"({"model": {"preset": "dense-1t", "params": 174.6e9, "layers": 96, "hidden": 12288,
    "heads": 96, "vocab": 50304, "ffn_hidden": 49152, "seq_len": 2048}, "device": "h100",
    "training": {"zero_stage": 1, "layout": {"tp": 4, "pp": 8, "dp": 16, "micro_batch": 2,
    "global_batch": 2304, "seq_len": 2048, "recompute": "none", "virtual_stages": 1}}})");
  PlanLayout one = plan_layout(s);
  const LayoutResult plain = run(s, one);
  REQUIRE(plain.valid());
  SECTION("without overlap the reduce-scatter and the gather are both paid") {
    PlanLayout serial = one;
    serial.dp_overlap = false;
    const LayoutResult r = run(s, serial);
    CHECK(r.dp_comm_exposed_s > plain.dp_comm_exposed_s);
    CHECK(r.dp_comm_exposed_s > 0.3);  // 5.5 G parameters: 10.9 GB of BF16 each way over 16 nodes' NICs
  }
  SECTION("interleaving hides the other chunks' reductions behind the backwards still to run") {
    PlanLayout four = one;
    four.virtual_stages = 4;
    const LayoutResult r = run(s, four);
    REQUIRE(r.valid());
    CHECK(plain.dp_comm_exposed_s > 0);
    CHECK(r.dp_comm_exposed_s < 0.5 * plain.dp_comm_exposed_s);
  }
  SECTION("ZeRO-0 all-reduces the gradients: no gather, the same bytes twice over the ring") {
    PlanLayout zero0 = one, serial1 = one;
    zero0.zero_stage = 0, zero0.dp_overlap = false;
    serial1.dp_overlap = false;
    CHECK(run(s, zero0).dp_comm_exposed_s == Approx(run(s, serial1).dp_comm_exposed_s).epsilon(0.02));
  }
  SECTION("FP8 parameter gathers move half the bytes") {
    PlanLayout serial = one;
    serial.dp_overlap = false;
    PlanContext c = plan_context(s), fp8 = c;
    fp8.param_gather_bytes = 1;
    const double bf16_s = evaluate_layout(s.model, s.device, serial, c).dp_comm_exposed_s;
    const double fp8_s = evaluate_layout(s.model, s.device, serial, fp8).dp_comm_exposed_s;
    CHECK(fp8_s < bf16_s);
    CHECK(fp8_s > 0.7 * bf16_s);  // the reduce-scatter stays BF16: about three quarters
    CHECK(fp8_s < 0.8 * bf16_s);
  }
}

TEST_CASE("hidden data-parallel collectives cost the SMs they share on a GPU, not on a TPU", "[layout][fsdp]") {
  // Llama 3.1 8B on one node of 8 H100s: the gradient reduce-scatter and parameter gather over
  // NVLink hide wholly behind a micro-batch of 4 × 8,192 tokens.
  const Scenario s = scenario(R"({"model": "llama-3.1-8b", "device": "h100", "training": {"zero_stage": 1,
    "layout": {"tp": 1, "pp": 1, "dp": 8, "micro_batch": 4, "global_batch": 32, "seq_len": 8192,
    "recompute": "selective", "sequence_parallel": false}}})");
  const PlanContext c = plan_context(s);
  Device tpu_like = s.device;  // the same chip, with its collectives off the compute cores
  tpu_like.vendor = "Google";
  const auto exposed = [&](const Device& d, int zero, bool overlap) {
    PlanLayout l = plan_layout(s);
    l.zero_stage = zero, l.dp_overlap = overlap;
    const LayoutResult r = evaluate_layout(s.model, d, l, c);
    REQUIRE(r.valid());
    return r.dp_comm_exposed_s;
  };
  SECTION("ZeRO-1: wholly hidden, so a tenth of the collectives' time remains on the GPU") {
    const double all = exposed(s.device, 1, false);
    REQUIRE(all > 0);
    CHECK(exposed(tpu_like, 1, true) == 0);
    CHECK(exposed(s.device, 1, true) == Approx(layout::kOverlapContention * all));
  }
  SECTION("ZeRO-3: the first gather and last reduce-scatter wait; the rest costs a tenth on the GPU") {
    const double all = exposed(s.device, 3, false), waits = exposed(tpu_like, 3, true);
    REQUIRE(waits > 0);
    REQUIRE(all > waits);
    CHECK(exposed(s.device, 3, true) == Approx(waits + layout::kOverlapContention * (all - waits)));
  }
  SECTION("without overlap nothing is hidden, so nothing more is charged") {
    CHECK(exposed(s.device, 3, false) == Approx(exposed(tpu_like, 3, false)));
  }
}

TEST_CASE("ZeRO-3 gathers in param_gather_bytes: FP8 all-gathers halve the gather time", "[layout][fsdp]") {
  const Scenario s = scenario(kFsdp);
  PlanLayout serial = plan_layout(s);
  serial.dp_overlap = false;
  PlanContext c = plan_context(s), fp8 = c;
  fp8.param_gather_bytes = 1;
  const double bf16_s = evaluate_layout(s.model, s.device, serial, c).dp_comm_exposed_s;
  const double fp8_s = evaluate_layout(s.model, s.device, serial, fp8).dp_comm_exposed_s;
  // two gathers (forward, backward) and one BF16 reduce-scatter per layer: (1 + 1 + 2) / (2 + 2 + 2)
  CHECK(fp8_s == Approx(bf16_s * 4.0 / 6.0).epsilon(0.05));
}

TEST_CASE("ZeRO-3 under pipeline parallelism gathers once per step and keeps the stage's weights", "[layout][fsdp]") {
  const Scenario s = scenario(R"({"model": "llama-3.1-405b", "device": "h100", "training": {"zero_stage": 3,
    "layout": {"tp": 8, "pp": 8, "dp": 8, "micro_batch": 2, "global_batch": 256, "seq_len": 8192,
               "recompute": "full"}}})");
  PlanLayout l = plan_layout(s), more = l;
  more.global_batch = 2 * l.global_batch;
  const LayoutResult a = run(s, l), b = run(s, more);
  REQUIRE(a.valid());
  CHECK(b.microbatches == 2 * a.microbatches);
  CHECK(b.dp_comm_exposed_s == Approx(a.dp_comm_exposed_s));  // not per micro-batch
  PlanLayout flat = l;
  flat.pp = 1, flat.dp = 64;  // same devices, no PP: weights and gradients sharded 64 ways
  const LayoutResult f = run(s, flat);
  CHECK(a.weight_bytes == Approx(f.weight_bytes * 64 / 8));  // the stage's 1/8 of the weights, unsharded
  CHECK(a.optimizer_bytes == Approx(f.optimizer_bytes));      // optimizer state still sharded
}

TEST_CASE("collective latency grows with the group and with the nodes it spans (NCCL's tuner)", "[layout][fsdp]") {
  const Device d = scenario(kFsdp).device;  // h100: 5 µs per NVLink step, 9.6 µs per network step
  using sizer::Coll;
  using sizer::collective_latency_s;
  CHECK(collective_latency_s(d, Coll::all_gather, 1, 8) == 0);
  // Ring: n − 1 steps, nodes − 1 of them across the network.
  CHECK(collective_latency_s(d, Coll::all_gather, 8, 8) == Approx(7 * 5e-6));
  CHECK(collective_latency_s(d, Coll::all_gather, 64, 8) == Approx(56 * 5e-6 + 7 * 9.6e-6));
  double last = 0;
  for (double n : {2.0, 8.0, 16.0, 64.0, 512.0, 4096.0}) {
    const double t = collective_latency_s(d, Coll::reduce_scatter, n, 8);
    CHECK(t > last);
    last = t;
  }
  // The same 16 ranks cost more when they span 16 nodes than when they share 2.
  CHECK(collective_latency_s(d, Coll::all_gather, 16, 1) > collective_latency_s(d, Coll::all_gather, 16, 8));
  // All-reduce takes NCCL's tree across many nodes: log2(nodes), not nodes − 1, network steps.
  const double ar = collective_latency_s(d, Coll::all_reduce, 1024 * 8, 8);
  CHECK(ar == Approx(2 * (7 * 5e-6 + 10 * 9.6e-6)));
  CHECK(ar < collective_latency_s(d, Coll::all_gather, 1024 * 8, 8));
  SECTION("the bandwidth term is the hierarchical ring's") {
    const double bytes = 1e9;
    const double up = d.scale_up_bytes_per_s * d.link_efficiency, out = d.scale_out_bytes_per_s * d.link_efficiency;
    CHECK(sizer::collective_s(d, Coll::all_gather, 64, 8, 1, bytes) ==
          Approx(collective_latency_s(d, Coll::all_gather, 64, 8) + 7.0 / 8 * bytes / up + 7.0 / 8 * bytes / 8 / out));
    CHECK(sizer::collective_s(d, Coll::all_reduce, 64, 8, 3, bytes) ==
          Approx(3 * (collective_latency_s(d, Coll::all_reduce, 64, 8) + 2 * (7.0 / 8 * bytes / up + 7.0 / 8 * bytes / 8 / out))));
  }
}

TEST_CASE("HSDP: sharding within fsdp_shard ranks", "[layout][fsdp]") {
  const Scenario s = scenario(kFsdp);
  PlanLayout full = plan_layout(s), hsdp = full;
  hsdp.fsdp_shard = 8;  // shard inside a node, replicate across the 8 nodes
  const LayoutResult rf = run(s, full), rh = run(s, hsdp);
  REQUIRE(rh.valid());
  SECTION("weights, gradients and optimizer state divide by the shard group, not the DP group") {
    const double ratio = full.dp / hsdp.fsdp_shard;
    CHECK(rh.weight_bytes == Approx(rf.weight_bytes * ratio));
    CHECK(rh.grad_bytes == Approx(rf.grad_bytes * ratio));
    CHECK(rh.optimizer_bytes == Approx(rf.optimizer_bytes * ratio));
    CHECK(rh.activation_bytes == Approx(rf.activation_bytes));
  }
  SECTION("gathers stay on NVLink: less exposed communication than sharding across nodes") {
    CHECK(rh.dp_comm_exposed_s < rf.dp_comm_exposed_s);
    // ... while each device's optimizer step updates 8× more state (the price of replication).
    CHECK(rh.optimizer_s == Approx(8 * rf.optimizer_s));
  }
  SECTION("fsdp_shard equal to the DP group is plain full sharding") {
    PlanLayout same = full;
    same.fsdp_shard = full.dp;
    const LayoutResult r = run(s, same);
    CHECK(r.dp_comm_exposed_s == Approx(rf.dp_comm_exposed_s));
    CHECK(r.device_memory_bytes == Approx(rf.device_memory_bytes));
  }
  SECTION("a shard group that does not divide the DP group is explained and refused") {
    PlanLayout bad = full;
    bad.fsdp_shard = 24;
    const LayoutResult r = run(s, bad);
    CHECK((r.problems & kFsdpShard) != 0);
    CHECK_FALSE(r.valid());
    bool said = false;
    for (const auto& w : explain_layout(s.model, s.device, bad, r)) said = said || w.find("does not divide the 64") != std::string::npos;
    CHECK(said);
    const auto p = parse_scenario(R"({"model": "llama-3-70b", "device": "h100", "training": {"zero_stage": 3,
      "layout": {"tp": 1, "pp": 1, "dp": 64, "global_batch": 64, "fsdp_shard": 24}}})", bundled_catalog());
    REQUIRE_FALSE(p.ok());
    CHECK(p.issues[0].path == "training.layout.fsdp_shard");
  }
}

TEST_CASE("the search tries ZeRO-3 as HSDP within a scale-up domain", "[layout][fsdp][search]") {
  // A Llama-3-8B shape with data parallelism only on 256 H100s (32 nodes of 8): ZeRO-3 over all
  // 256, or sharded over the 8 GPUs of a node and replicated across nodes (16 GB of state each).
  Scenario s = testutil::scenario(R"({"model": {"name": "8B", "params": 8.03e9, "layers": 32, "hidden": 4096,
    "heads": 32, "vocab": 128256, "ffn_hidden": 14336, "attention": {"type": "gqa", "kv_heads": 8, "head_dim": 128}},
    "device": "h100", "training": {"zero_stage": 3,
    "layout": {"tp": 1, "pp": 1, "dp": 256, "micro_batch": 1, "global_batch": 1024, "seq_len": 4096},
    "search": {"devices": 256, "top": 200, "allow": {"tp": false, "pp": false, "cp": false}}}})");
  const SearchResult r = search_layouts(s);
  bool hsdp = false, full = false;
  for (const auto& x : r.top) {
    if (x.layout.zero_stage != 3) continue;
    INFO("fsdp_shard " << x.layout.fsdp_shard);
    CHECK((x.layout.fsdp_shard == 0 || x.layout.fsdp_shard == 8));  // the whole DP group, or one node
    CHECK(x.result.valid());
    hsdp = hsdp || x.layout.fsdp_shard == 8;
    full = full || x.layout.fsdp_shard == 0;
  }
  CHECK(hsdp);
  CHECK(full);
  // HSDP holds 256 ÷ 8 = 32 times the weight shard of full sharding: the memory it costs is real.
  for (const auto& x : r.top) {
    if (x.layout.zero_stage != 3 || x.layout.fsdp_shard != 8) continue;
    PlanLayout whole = x.layout;
    whole.fsdp_shard = 0;
    const LayoutResult w = evaluate_layout(s.model, s.device, whole, plan_context(s));
    CHECK(x.result.weight_bytes == Approx(32 * w.weight_bytes));
    break;
  }
}

TEST_CASE("published FSDP/HSDP scaling sweeps (docs/validation/runs-fsdp.json)", "[layout][validation][fsdp]") {
  const auto rows = testutil::published_runs({"runs-fsdp.json"});
  REQUIRE(rows.size() >= 40);
  // Level: mean absolute error 17.1% when the file was added (all held out; H100 BF16 efficiency
  // and TPU v5e TP 16 dominate it); 12.9% after the FP8-recipe/power-cap refit (2026-12-01). May
  // only go down.
  CHECK(mean_abs_error(rows) <= 0.129 + 0.005);
  // Shape: per-device throughput at the largest device count of each sweep over that at the
  // smallest, predicted ÷ published. 8.3% mean when added (the model is flat; MaxText's HSDP
  // sweeps lose 7–16% over 1→32 slices, LLM Foundry's weak-scaling sweeps 0–5%).
  std::map<std::string, std::vector<const ValidationRow*>> series;
  for (const auto& r : rows) {
    std::string id = r.id;
    id = id.substr(0, id.rfind('-'));  // the id without its device count is the sweep
    series[id].push_back(&r);
  }
  double sum = 0;
  int n = 0;
  for (auto& [name, runs] : series) {
    if (runs.size() < 3) continue;
    std::sort(runs.begin(), runs.end(), [](auto* a, auto* b) { return a->devices < b->devices; });
    const auto per = [](const ValidationRow* r) { return r->metric == "mfu" ? 1.0 : r->devices; };
    const ValidationRow *lo = runs.front(), *hi = runs.back();
    const double published = (hi->observed / per(hi)) / (lo->observed / per(lo));
    const double predicted = (hi->predicted / per(hi)) / (lo->predicted / per(lo));
    INFO(name << ": published ×" << published << ", predicted ×" << predicted);
    CHECK(std::fabs(predicted / published - 1) < 0.20);
    sum += std::fabs(predicted / published - 1), ++n;
  }
  REQUIRE(n >= 8);
  CHECK(sum / n <= 0.083 + 0.005);
}
