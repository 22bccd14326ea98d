// Layout memory against reality (docs/validation.md "Memory per device against
// published figures"): published layouts that ran are predicted to fit, and predicted memory per
// device stays close to the peaks the sources publish.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>

#include "scenario_util.h"
#include "sizer/sizer.h"
#include "sizer/formulas/low_precision.h"
#include "sizer/formulas/training_memory.h"
#include "sizer/formulas/units.h"

using namespace sizer;

namespace {

// Mean and worst |error| of predicted against published peak memory, measured 2026-12-01
// (docs/validation.md): 27% and 62%; with the recompute working set, one output layer per
// gathered pair and no DP bucket under ZeRO-3, 24% and 45%. May only go down (one point of slack).
constexpr double kMemoryMaeBound = 0.25;
constexpr double kMemoryWorstBound = 0.46;

// Every runs*.json of docs/validation except runs-pending.json (runs not yet expressible).
std::vector<ValidationRow> all_runs() {
  std::vector<ValidationRow> rows;
  const std::filesystem::path dir = std::filesystem::path(SIZER_SOURCE_DIR) / "docs" / "validation";
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("runs", 0) == 0 && e.path().extension() == ".json" && name != "runs-pending.json") {
      files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& p : files) {
    std::ifstream f(p);
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    std::vector<Issue> issues;
    const auto more = validate_runs(text, bundled_catalog(), &issues);
    INFO(p.string() << ": " << format_issues(issues));
    REQUIRE(issues.empty());
    rows.insert(rows.end(), more.begin(), more.end());
  }
  return rows;
}

// Runs that ran but are still predicted not to fit (docs/validation.md lists them): nine are
// predicted between the 90% usable fraction and the whole HBM; the GB200 three above it, 5–9% over
// published peaks that are themselves above 90%. The list may only shrink: a listed run that fits
// fails the test so that it is taken off.
const std::map<std::string, const char*> kStillNoFit = {
    // The source's own peaks are 94.7% (BF16) and 97.6% (MXFP8) of HBM, above the 90% usable
    // fraction (predicted 190 GiB, +9% and +5%); NVFP4's 60% is not modelled (FP4 activations?).
    {"ttnv-llama3-8b-gb200-4-nvfp4", "predicted like BF16; the published 111 GiB suggests FP4 activations, not modelled"},
    {"ttnv-llama3-8b-gb200-4-mxfp8", "published peak 97.6% of HBM, above the 90% usable fraction"},
    {"ttnv-llama3-8b-gb200-4-bf16", "published peak 94.7% of HBM, above the 90% usable fraction"},
    // Between the 90% usable fraction and the whole HBM: they ran, so the allocator used more than 90%.
    {"llmf-mpt-3b-h100-8-bf16-seq8k", "75.9 GB predicted: 95% of the 80 GB HBM (no recompute, 8k sequence)"},
    {"llmf-mpt-3b-h100-8-fp8-seq8k", "as above"},
    {"llmf-ws-mpt-3b-a100-40gb-64", "36.3 GB predicted: 91% of 40 GB"},
    {"llmf-ws-mpt-3b-a100-40gb-32", "36.9 GB predicted: 92% of 40 GB"},
    {"tr-llama31-8b-v6e-8", "31.7 GB predicted: 92% of the 34.4 GB HBM (fp32 state 16 GB, fp32 logits 12.6 GB)"},
    {"tr-llama31-70b-v6e-32", "31.8 GB predicted: 92% of 34.4 GB (bf16 weights, gradients and moments: 8 B/param)"},
    {"tr-llama31-70b-v6e-256", "32.8 GB predicted: 95% of 34.4 GB (fp32 logits of 5 sequences, 21 GB)"},
    {"tr-gpt3-175b-v6e-256", "31.7 GB predicted: 92% of 34.4 GB"},
    // Its custom remat policy offloads the two tensors it saves (attention output, MLP down
    // projection) and keeps the layer inputs on device (68 GB); recompute_fraction 0.73 keeps the
    // saved share on device unless offload_activations, which would move the inputs too.
    {"tr-llama31-405b-v5p-1024", "373 GB predicted against 92 GB usable (101 GB before recompute_fraction)"},
    // Ironwood (added or corrected 2026-12-05). recompute_fraction keeps its un-recomputed share of
    // every activation on device, a proxy for the tensors a MaxText custom policy names: the 70B
    // rows save q, k, v and the attention output (0.84: 92% of HBM); the 131,072-token rows also
    // keep the MLP output, and 0.28 is the recomputed share of FLOPs, not of bytes, since the
    // attention core they skip keeps only its output, so 72% of every activation is counted.
    {"iw-llama31-70b-64-bf16", "177 GiB predicted: 92% of the 192 GiB HBM (recompute_fraction 0.84, since 2026-12-05)"},
    {"iw-llama31-70b-64-fp8", "as above"},
    {"iw-llama31-70b-256-128k-bf16", "520 GiB predicted: recompute_fraction 0.28 counts 72% of each layer's activations"},
    {"iw-llama31-70b-256-128k-fp8", "as above"},
    // 20 sequences of 8,192 tokens per chip: the fp32 logits the model counts (132 GB) dominate.
    {"iw-gpt-oss-120b-64-bf16", "187 GiB predicted: 97% of the 192 GiB HBM, 132 GB of it fp32 logits"},
    {"iw-gpt-oss-120b-256-bf16", "as above"},
    // recompute_fraction 0.68 keeps 32% of each layer's activations for 8 sequences of 8,192 per
    // chip; the policy keeps two named tensors (out_proj, mlpwo) and the layer input.
    {"iw-gemma4-31b-64-bf16", "421 GB predicted: recompute_fraction 0.68 counts 32% of each layer's activations"},
};

}  // namespace

TEST_CASE("published layouts that ran are predicted to fit", "[layout][memory][validation]") {
  const auto rows = all_runs();
  REQUIRE(rows.size() >= 53);
  std::set<std::string> ids;
  for (const auto& r : rows) {
    ids.insert(r.id);
    INFO(r.id << ": " << r.result.device_memory_bytes / kGiB << " GiB predicted, " << r.result.usable_memory_bytes / kGiB
              << " GiB usable");
    if (kStillNoFit.count(r.id)) {
      CHECK_FALSE(r.result.fits);  // fits now: take it off kStillNoFit
    } else {
      CHECK(r.result.fits);
    }
  }
  for (const auto& [id, why] : kStillNoFit) {
    INFO(id << " (" << why << ")");
    CHECK(ids.count(id) == 1);
  }
}

TEST_CASE("predicted memory per device stays near published peaks (ratchet)", "[layout][memory][validation]") {
  // Published peak memory per GPU, from each run's run_details (memory_gib_published /
  // memory_gb_published): torchtitan's, Trainy's and torchao's tables. The GB200 torchtitan rows
  // are left out while they do not fit (kStillNoFit).
  const std::pair<const char*, double> published[] = {
      {"tt24-llama31-8b-fsdp8-bf16", 77.0 * kGiB},        {"tt24-llama31-8b-fsdp8-fp8", 76.8 * kGiB},
      {"tt24-llama31-8b-fsdp128-bf16", 62.0 * kGiB},      {"tt24-llama31-8b-fsdp128-fp8", 61.8 * kGiB},
      {"tt24-llama31-70b-256-fp8-asynctp", 67.6 * kGiB},  {"tt24-llama31-405b-512-fp8-interleaved", 72.7 * kGiB},
      {"trainy-llama31-8b-h200-32-fp8", 47.96 * kGiB},    {"trainy-llama31-8b-h200-64-fp8", 46.97 * kGiB},
      {"ao-llama3-8b-b200-8-bf16", 33.71e9},              {"ao-llama3-8b-b200-8-fp8-tensorwise", 33.38e9},
      {"ao-llama3-8b-b200-8-mxfp8", 33.88e9}};
  std::map<std::string, ValidationRow> by_id;
  for (const auto& r : all_runs()) by_id[r.id] = r;
  double sum = 0, worst = 0;
  int n = 0;
  for (const auto& [id, bytes] : published) {
    REQUIRE(by_id.count(id) == 1);
    const double err = by_id[id].result.device_memory_bytes / bytes - 1;
    INFO(id << ": " << err);
    sum += std::fabs(err);
    worst = std::max(worst, std::fabs(err));
    ++n;
  }
  // Worst: torchtitan 70B, TP 8 with async TP, −45% (was the 405B with full checkpointing, −62%,
  // before the layer a recompute pass makes whole was counted).
  CHECK(sum / n <= kMemoryMaeBound);
  CHECK(worst <= kMemoryWorstBound);
}

TEST_CASE("MoE runs: predicted memory against the published peaks (a known gap, ratchet)", "[layout][memory][moe][validation]") {
  // torchtitan's DeepEP README publishes memory per GPU for its Qwen3-30B-A3B runs (B200, FSDP +
  // EP 8, full AC, local batch 8 or 10 of 4,096). The model predicts far less: measured 2026-12-03
  // −39%, −64%, −73%, −74% (docs/validation.md). The published numbers, less 16 bytes per
  // parameter sharded over the ranks, are the same ~111 GiB at 8 and 128 GPUs, and going from 8 to
  // 10 sequences per GPU costs ~13.8 GiB per sequence against the model's 3.1: per-token activation
  // memory of this MoE stack that the model does not count. Reported, not fixed; may only get better.
  const std::pair<const char*, double> published[] = {{"tt-qwen3-30b-a3b-b200-8-deepep", 167.93 * kGiB},
                                                      {"tt-qwen3-30b-a3b-b200-32-deepep", 124.58 * kGiB},
                                                      {"tt-qwen3-30b-a3b-b200-128-deepep", 114.78 * kGiB},
                                                      {"tt-qwen3-30b-a3b-b200-128-deepep-lbs10", 142.21 * kGiB}};
  std::map<std::string, ValidationRow> by_id;
  for (const auto& r : all_runs()) by_id[r.id] = r;
  double sum = 0, worst = 0;
  for (const auto& [id, bytes] : published) {
    REQUIRE(by_id.count(id) == 1);
    const double err = by_id[id].result.device_memory_bytes / bytes - 1;
    INFO(id << ": " << err);
    CHECK(by_id[id].result.fits);  // they ran
    sum += std::fabs(err);
    worst = std::max(worst, std::fabs(err));
  }
  CHECK(sum / 4 <= 0.63 + 0.01);
  CHECK(worst <= 0.74 + 0.01);
  // The marginal sequence: two more per GPU at 128 GPUs, published +27.4 GiB.
  const double per_seq = (by_id["tt-qwen3-30b-a3b-b200-128-deepep-lbs10"].result.device_memory_bytes -
                          by_id["tt-qwen3-30b-a3b-b200-128-deepep"].result.device_memory_bytes) / 2;
  INFO("predicted per sequence " << per_seq / kGiB << " GiB against ~13.7 published");
  CHECK(per_seq > 0);
  CHECK(per_seq <= 13.7 * kGiB);
}

TEST_CASE("the planner accepts the layouts real teams ran", "[layout][memory][search]") {
  // Llama 3 405B on 8,192 H100: TP 8, PP 16, DP 64, selective recompute (Grattafiori et al. 2024,
  // Table 4). Before gated/GQA activations and per-op selective recompute it "needed" 114 GiB.
  Scenario s = testutil::scenario(R"({"model": "llama-3.1-405b", "device": "h100", "training": {"zero_stage": 1,
      "layout": {"tp": 8, "pp": 16, "dp": 64, "virtual_stages": 2, "micro_batch": 1, "global_batch": 2048,
                 "seq_len": 8192, "recompute": "selective", "sequence_parallel": true, "flash_attention": true},
      "search": {"devices": 8192, "top": 5}}})");
  const LayoutResult r = evaluate_layout(s.model, s.device, plan_layout(s), plan_context(s));
  CHECK(r.valid());
  CHECK(r.fits);
  CHECK(r.device_memory_bytes < 70 * kGiB);
  SECTION("the search finds fitting layouts at the published scale") {
    const SearchResult found = search_layouts(s);
    REQUIRE_FALSE(found.top.empty());
    for (const auto& x : found.top) CHECK(x.result.fits);
  }
  SECTION("an explicit fragmentation allowance is added on top and can reject a layout") {
    PlanContext c = plan_context(s);
    c.memory_overhead_fraction = 0.5;
    const LayoutResult big = evaluate_layout(s.model, s.device, plan_layout(s), c);
    CHECK(big.overhead_bytes == Approx(0.5 * (r.device_memory_bytes - r.overhead_bytes)));
    CHECK(big.device_memory_bytes == Approx(r.device_memory_bytes - r.overhead_bytes + big.overhead_bytes));
    CHECK_FALSE(big.fits);
  }
}

TEST_CASE("GPT blocks keep Korthikanti's Table 2; gated GQA blocks count their own tensors", "[memory]") {
  Model gpt;
  gpt.params = 175e9, gpt.layers = 96, gpt.hidden = 12288, gpt.heads = 96, gpt.vocab = 50257;
  gpt.attention.kind = AttentionKind::mha, gpt.attention.kv_heads = 96, gpt.attention.head_dim = 128;
  const memory::LayerShape g = memory::layer_shape(gpt);
  CHECK(g.gpt);
  for (bool sp : {false, true}) {
    for (Recompute rc : {Recompute::none, Recompute::selective}) {
      CHECK(memory::activation_bytes_per_layer(g, 2048, 1, 12288, 96, 8, sp, memory::keep_policy(g, rc, false)) ==
            Approx(memory::activation_bytes_per_layer(2048, 1, 12288, 96, 8, sp, rc)));
    }
  }
  // Llama 3.1 8B: SwiGLU 14,336, 8 KV heads of 32. No recompute, flash attention: norms 8 +
  // Q 2 + K, V 1 + output 2 + gate/up 14 + down input 7 = 34 bytes per s·b·h (no dropout).
  Model llama;
  llama.params = 8.03e9, llama.layers = 32, llama.hidden = 4096, llama.heads = 32, llama.vocab = 128256;
  llama.ffn_hidden = 14336, llama.attention.kv_heads = 8, llama.attention.head_dim = 128;
  const memory::LayerShape l = memory::layer_shape(llama);
  CHECK_FALSE(l.gpt);
  CHECK(l.gated);
  const double sbh = 8192.0 * 4096;
  CHECK(memory::activation_bytes_per_layer(l, 8192, 1, 4096, 32, 1, false, memory::Keep::no_scores) == Approx(34 * sbh));
  // torchtitan per-op selective: input 2 + Q 2 + V 0.5 + attention output 2 + gate 7 + down output 2.
  CHECK(memory::keep_policy(l, Recompute::selective, true) == memory::Keep::per_op);
  CHECK(memory::activation_bytes_per_layer(l, 8192, 1, 4096, 32, 1, false, memory::Keep::per_op) == Approx(15.5 * sbh));
  // Saved linear inputs at 1 byte (Transformer Engine, FP8): the two norm outputs 2 + 2, the
  // attention output 2 and the down projection's input 7 each halve: 34 − 6.5 = 27.5.
  CHECK(memory::activation_bytes_per_layer(l, 8192, 1, 4096, 32, 1, false, memory::Keep::no_scores, 1.0) ==
        Approx(27.5 * sbh));
  CHECK(memory::activation_bytes_per_layer(l, 8192, 1, 4096, 32, 1, false, memory::Keep::no_scores, 2.0) ==
        Approx(34 * sbh));
  CHECK(saved_gemm_input_bytes(Precision::fp8) == 1.0);
  CHECK(saved_gemm_input_bytes(Precision::fp4) == Approx(0.5625));
  CHECK(saved_gemm_input_bytes(Precision::bf16) == 2.0);
}

TEST_CASE("Transformer Engine FP8/FP4 runs keep quantized linear inputs; other stacks keep 16-bit ones",
          "[memory][layout]") {
  auto activations = [](const char* precision, const char* stack, const char* extra) {
    const Scenario s = testutil::scenario(std::string(R"({"model": {"params": 8.03e9, "layers": 32, "hidden": 4096,
        "heads": 32, "vocab": 128256, "ffn_hidden": 14336, "attention": {"type": "gqa", "kv_heads": 8, "head_dim": 128}},
        "device": "b200", "training": {"precision": ")") + precision + R"(", "stack": ")" + stack + "\"" + extra +
                                          R"(, "layout": {"tp": 1, "pp": 1, "dp": 8, "micro_batch": 1, "global_batch": 8,
        "seq_len": 8192, "recompute": "none", "sequence_parallel": false}}})");
    return evaluate_layout(s.model, s.device, plan_layout(s), plan_context(s)).activation_bytes;
  };
  const double bf16 = activations("bf16", "megatron", "");
  const double fp8 = activations("fp8", "megatron", "");
  const double logits = 8192.0 * (4 * 128256 + 4 * 4096);  // fp32 logits and the head's inputs, unchanged
  const double sbh = 8192.0 * 4096;
  CHECK(bf16 - logits == Approx(32 * 34 * sbh));
  CHECK(fp8 - logits == Approx(32 * 27.5 * sbh));
  CHECK(activations("fp8", "pytorch", "") == Approx(bf16));  // torchao keeps the 16-bit inputs
  CHECK(activations("fp4", "megatron", "") < fp8);
  // Layers kept in BF16 keep 16-bit inputs: 16 of 32 layers halfway between.
  CHECK(activations("fp8", "megatron", R"(, "bf16_layers": 16)") - logits == Approx(32 * (27.5 + 34) / 2 * sbh));
}

TEST_CASE("training.memory_overhead_fraction is read, ranged and reaches the layout model", "[memory][scenario]") {
  const Scenario s = testutil::scenario(R"({"model": "llama-3-70b", "device": "h100",
      "training": {"memory_overhead_fraction": 0.15}})");
  CHECK(s.training.memory_overhead_fraction == 0.15);
  CHECK(plan_context(s).memory_overhead_fraction == 0.15);
  CHECK(testutil::scenario(R"({"model": "llama-3-70b"})").training.memory_overhead_fraction == kMemoryOverheadFraction);
  for (const char* bad : {"-0.1", "1.5", "\"a lot\""}) {
    const auto p = parse_scenario(std::string(R"({"training": {"memory_overhead_fraction": )") + bad + "}}",
                                  bundled_catalog());
    REQUIRE_FALSE(p.ok());
    CHECK(format_issues(p.issues).find("training.memory_overhead_fraction") != std::string::npos);
  }
}

TEST_CASE("layout.offload_activations is read, checked and moves layer inputs to the host", "[memory][scenario]") {
  const char* base = R"({"model": "llama-3-70b", "device": "tpu-v6e", "training": {"zero_stage": 3, "stack": "jax",
      "layout": {"tp": 1, "pp": 1, "dp": 256, "micro_batch": 2, "global_batch": 512, "seq_len": 8192,
                 "recompute": "full", "sequence_parallel": false)";
  const Scenario on = testutil::scenario(std::string(base) + R"(, "offload_activations": true}}})");
  const Scenario off = testutil::scenario(std::string(base) + "}}}");
  CHECK(on.training.layout.offload_activations);
  CHECK_FALSE(off.training.layout.offload_activations);
  CHECK(plan_layout(on).offload_activations);
  const LayoutResult a = evaluate_layout(on.model, on.device, plan_layout(on), plan_context(on));
  const LayoutResult b = evaluate_layout(off.model, off.device, plan_layout(off), plan_context(off));
  // Full recompute keeps 2·s·b·h per layer; offloaded, none stays, and the layer being recomputed
  // is whole either way (its input fetched back from the host).
  const double input = 2.0 * 8192 * 2 * on.model.hidden;
  CHECK(a.working_bytes == Approx(b.working_bytes + input));
  CHECK(b.activation_bytes - a.activation_bytes >= input * (on.model.layers - 1) * 0.999);
  CHECK(b.activation_bytes - a.activation_bytes <= input * on.model.layers * 1.001);
  CHECK(a.device_memory_bytes < b.device_memory_bytes);
  const auto bad = parse_scenario(std::string(base) + R"(, "offload_activations": "yes"}}})", bundled_catalog());
  REQUIRE_FALSE(bad.ok());
  CHECK(format_issues(bad.issues).find("training.layout.offload_activations") != std::string::npos);
}

TEST_CASE("training.dropout drops Korthikanti's dropout masks for models trained without dropout", "[memory][scenario]") {
  const char* base = R"({"model": "gpt-3-175b", "device": "h100", "training": {"zero_stage": 1%s,
      "layout": {"tp": 8, "pp": 8, "dp": 4, "micro_batch": 1, "global_batch": 256, "seq_len": 2048,
                 "recompute": "none", "sequence_parallel": true, "flash_attention": true}}})";
  auto with = [&](const std::string& extra) {
    std::string text = base;
    text.replace(text.find("%s"), 2, extra);
    return testutil::scenario(text);
  };
  const Scenario unset = with(""), off = with(R"(, "dropout": false)"), on = with(R"(, "dropout": true)");
  CHECK(unset.training.dropout == -1);
  CHECK(off.training.dropout == 0);
  CHECK(on.training.dropout == 1);
  const auto act = [](const Scenario& s) {
    return evaluate_layout(s.model, s.device, plan_layout(s), plan_context(s)).activation_bytes;
  };
  // A GPT block keeps its two 1-byte masks per element by default (Table 2: 34 = 32 + 2).
  CHECK(act(unset) == Approx(act(on)));
  CHECK(act(off) < act(unset));
  const auto bad = parse_scenario(R"({"training": {"dropout": 0.1}})", bundled_catalog());
  REQUIRE_FALSE(bad.ok());
  CHECK(format_issues(bad.issues).find("training.dropout") != std::string::npos);
}
