// Layout model and planner: the step-time terms behave as their sources say, bad layouts are
// explained rather than refused, and the search finds valid, fitting, ranked layouts.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <string>

#include "validation_util.h"
#include "scenario_util.h"
#include "sizer/sizer.h"

using namespace sizer;

namespace {

using testutil::scenario;

LayoutResult run(const Scenario& s, const PlanLayout& l) { return evaluate_layout(s.model, s.device, l, plan_context(s)); }

const char* kMegatron = R"({"model": "megatron-1t", "device": "a100", "training": {"layout":
  {"tp": 8, "pp": 64, "dp": 6, "global_batch": 3072, "micro_batch": 1, "seq_len": 2048}}})";

}  // namespace

TEST_CASE("model FLOPs per token are 6N plus the attention term 12·L·s·w", "[layout]") {
  const Scenario s = scenario(kMegatron);
  CHECK(model_flops_per_token(s.model, 2048) ==
        Approx(6 * s.model.active_params + 12.0 * 128 * 2048 * 25600));
  SECTION("w is heads × head size, not the model width") {
    // PaLM 540B: 48 heads of 256 (PaLM Table 1), 12,288 of the 18,432 width.
    CHECK(attention_width(scenario(R"({"model": "palm-540b"})").model) == 48 * 256);
    // DeepSeek-V3 MLA: 128 heads, query/key 128 + 64 rotary, value 128.
    CHECK(attention_width(scenario(R"({"model": "deepseek-v3"})").model) == 128 * (192 + 128) / 2.0);
  }
}

TEST_CASE("sliding-window layers attend to at most their window", "[layout][model]") {
  // A Mistral-7B-like shape: 32 layers, 32 heads of 128, GQA 8.
  const std::string shape = R"("params": 7.24e9, "layers": 32, "hidden": 4096, "heads": 32, "vocab": 32000,
      "ffn_hidden": 14336, "attention": {"type": "gqa", "kv_heads": 8, "head_dim": 128)";
  const Scenario full = scenario(R"({"model": {"name": "full", )" + shape + R"(}}, "device": "h100"})");
  const Scenario all = scenario(R"({"model": {"name": "swa", )" + shape + R"(, "window": 1024}}, "device": "h100"})");
  const Scenario mix =
      scenario(R"({"model": {"name": "mix", )" + shape + R"(, "window": 1024, "window_layers": 24}}, "device": "h100"})");
  const double s = 8192, w = 1024;
  // By hand: a causal window of w keys attends on average w − w²/(2s) keys, which is 2w − w²/s in
  // the convention where full causal attention counts s.
  CHECK(attention_span(full.model, s) == s);
  CHECK(attention_span(all.model, s) == Approx(2 * w - w * w / s));
  CHECK(attention_span(mix.model, s) == Approx((8 * s + 24 * (2 * w - w * w / s)) / 32));
  CHECK(attention_span(all.model, 1024) == 1024);  // a window as long as the sequence changes nothing
  CHECK(attention_span(all.model, 512) == 512);
  CHECK(windowed_layers(all.model) == 32);
  CHECK(windowed_layers(mix.model) == 24);
  // Model FLOPs: 6N + 12·L·span·w.
  CHECK(model_flops_per_token(mix.model, s) ==
        Approx(6 * 7.24e9 + 12.0 * 32 * attention_span(mix.model, s) * 32 * 128));
  // The layout model's attention time shrinks by the span; the GEMMs stay.
  const char* layout = R"({"tp": 1, "pp": 1, "dp": 8, "micro_batch": 1, "global_batch": 8, "seq_len": 8192})";
  Scenario a = full, b = mix;
  a.training.layout = scenario(std::string(R"({"training": {"layout": )") + layout + "}}").training.layout;
  b.training.layout = a.training.layout;
  // Kernels without blocks (every computed key attended): the span alone. The stack's tiles add
  // what whole blocks compute past the window (test_attention_blocks.cpp).
  a.training.stack.attention_blocks = b.training.stack.attention_blocks = AttentionBlocks{};
  const LayoutResult ra = run(a, plan_layout(a)), rb = run(b, plan_layout(b));
  REQUIRE(ra.attention_s > 0);
  CHECK(rb.attention_s == Approx(ra.attention_s * attention_span(mix.model, s) / s));
  CHECK(rb.compute_s - rb.attention_s == Approx(ra.compute_s - ra.attention_s));
  CHECK(rb.step_s < ra.step_s);
  // The result echoes the window; serving is warned that it still caches the whole context.
  const ParsedScenario p = parse_scenario(
      R"({"model": {"name": "mix", )" + shape + R"(, "window": 1024, "window_layers": 24}}})", bundled_catalog());
  REQUIRE(p.ok());
  CHECK(std::any_of(p.warnings.begin(), p.warnings.end(),
                    [](const Issue& i) { return i.path == "model.attention.window"; }));
  // Refused, naming the field: layers without a window, more windowed layers than layers, negative.
  for (const auto& [text, path] : std::vector<std::pair<std::string, std::string>>{
           {R"(, "window_layers": 24)", "model.attention.window_layers"},
           {R"(, "window": 1024, "window_layers": 33)", "model.attention.window_layers"},
           {R"(, "window": -1)", "model.attention.window"},
           {R"(, "window": "wide")", "model.attention.window"}}) {
    const ParsedScenario bad = parse_scenario(R"({"model": {"name": "bad", )" + shape + text + "}}}", bundled_catalog());
    INFO(text);
    REQUIRE(!bad.ok());
    CHECK(bad.issues.front().path == path);
  }
}

TEST_CASE("a chip with no calibrate run says its GEMM efficiency is assumed", "[layout]") {
  const char* layout = R"(, "training": {"layout": {"tp": 8, "pp": 1, "dp": 1, "global_batch": 8, "seq_len": 4096}}})";
  auto notes_of = [&](const std::string& device) {
    const Scenario s = scenario(R"({"model": "llama-3-70b", "device": )" + device + layout);
    const PlanLayout l = plan_layout(s);
    return std::make_pair(s.device.gemm_basis, explain_layout(s.model, s.device, l, evaluate_layout(s.model, s.device, l, plan_context(s))));
  };
  auto says_assumed = [](const std::vector<std::string>& notes) {
    return std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
      return n.find("GEMM efficiency") != std::string::npos && n.find("assumed") != std::string::npos;
    });
  };
  // Fitted on published runs of the chip (docs/validation.md): no note.
  for (const char* d : {"\"a100\"", "\"h100\"", "\"b200\"", "\"gb200\"", "\"tpu-v5p\"", "\"tpu-v6e\"", "\"tpu-v5e\"", "\"mi355x\"",
                        "\"tpu-ironwood\"", "\"gb300\""}) {
    INFO(d);
    const auto [basis, notes] = notes_of(d);
    CHECK(basis == EfficiencyBasis::fitted);
    CHECK_FALSE(says_assumed(notes));
  }
  // No calibrate run: assumed, and the plan says so.
  for (const char* d : {"\"mi300x\"", "\"mi325x\""}) {
    INFO(d);
    const auto [basis, notes] = notes_of(d);
    CHECK(basis == EfficiencyBasis::assumed);
    CHECK(says_assumed(notes));
  }
  // No calibrate run but the same silicon as a fitted chip: that chip's values, and the plan says
  // whose they are.
  for (const char* d : {"\"h200\"", "\"a100-40gb\"", "\"b300\""}) {
    INFO(d);
    const auto [basis, notes] = notes_of(d);
    CHECK(basis == EfficiencyBasis::same_die);
    CHECK_FALSE(says_assumed(notes));
    CHECK(std::any_of(notes.begin(), notes.end(),
                      [](const std::string& n) { return n.find("'s fit, the same silicon") != std::string::npos; }));
  }
  // Fitted on one publication's stack: the plan says on what, so H800 against H100 is read right.
  {
    const auto [basis, notes] = notes_of("\"h800\"");
    CHECK(basis == EfficiencyBasis::fitted);
    CHECK_FALSE(says_assumed(notes));
    CHECK(std::any_of(notes.begin(), notes.end(),
                      [](const std::string& n) { return n.find("is fitted on one published run, DeepSeek-V2") != std::string::npos; }));
    const auto [given, given_notes] = notes_of(R"({"preset": "h800", "id": "my-h800", "efficiency": {"gemm": 0.6549}})");
    CHECK(given == EfficiencyBasis::given);
    CHECK(std::none_of(given_notes.begin(), given_notes.end(),
                       [](const std::string& n) { return n.find("is fitted on") != std::string::npos; }));
  }
  // The Ironwood is fitted on five runs of one source (sixteenth, twenty-first and twenty-second
  // passes): the plan says which.
  {
    const auto [basis, notes] = notes_of("\"tpu-ironwood\"");
    CHECK(basis == EfficiencyBasis::fitted);
    CHECK(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
      return n.find("is fitted on five published MaxText runs (tpu-recipes): three of one model") != std::string::npos;
    }));
  }
  // The GB300 is fitted on two MLPerf runs (twentieth pass of docs/validation.md): the plan says which.
  {
    const auto [basis, notes] = notes_of("\"gb300\"");
    CHECK(basis == EfficiencyBasis::fitted);
    CHECK(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
      return n.find("is fitted on two published MLPerf Training v5.1 Llama 3.1 8B runs") != std::string::npos;
    }));
  }
  // A custom device inherits its preset's basis; stating efficiency.gemm makes it the user's.
  CHECK(notes_of(R"({"preset": "h200", "id": "my-h200"})").first == EfficiencyBasis::same_die);
  CHECK(notes_of(R"({"preset": "mi300x", "id": "my-mi"})").first == EfficiencyBasis::assumed);
  const auto [given, given_notes] = notes_of(R"({"preset": "h200", "id": "my-h200", "efficiency": {"gemm": 0.7}})");
  CHECK(given == EfficiencyBasis::given);
  CHECK_FALSE(says_assumed(given_notes));
  // An unknown basis is refused, naming the field.
  const ParsedScenario bad = parse_scenario(
      R"({"device": {"preset": "h100", "id": "x", "efficiency": {"gemm_basis": "guessed"}}})", bundled_catalog());
  REQUIRE(!bad.ok());
  CHECK(bad.issues.front().path == "device.efficiency.gemm_basis");
  // same_die needs the chip it copies.
  const ParsedScenario orphan = parse_scenario(
      R"({"device": {"preset": "mi355x", "id": "x", "efficiency": {"gemm_basis": "same_die"}}})", bundled_catalog());
  REQUIRE(!orphan.ok());
  CHECK(orphan.issues.front().path == "device.efficiency.same_die_as");
}

TEST_CASE("same-die chips carry their fitted sibling's values exactly (assets/devices.json)", "[layout][assets]") {
  int seen = 0;
  for (const Device& d : bundled_catalog().devices) {
    if (d.gemm_basis != EfficiencyBasis::same_die) continue;
    INFO(d.id << " from " << d.gemm_same_die);
    const Device* p = bundled_catalog().find_device(d.gemm_same_die);
    REQUIRE(p != nullptr);
    CHECK(p->gemm_basis == EfficiencyBasis::fitted);  // copied from a fit, never from another copy
    CHECK(d.gemm_efficiency == p->gemm_efficiency);
    CHECK(d.fp8_gemm_vs_bf16 == p->fp8_gemm_vs_bf16);
    CHECK(d.fp4_gemm_vs_bf16 == p->fp4_gemm_vs_bf16);
    CHECK(d.flash_attention_vs_h100 == p->flash_attention_vs_h100);  // the same tensor cores
    ++seen;
  }
  CHECK(seen == 4);  // h200, h20 (GH100), a100-40gb (GA100) and b300 (Blackwell Ultra, from gb300's fit since
                     // 2026-12-06); h800 has its own fit since 2026-12-03
}

TEST_CASE("a stack's flash-attention efficiency scales by the chip's FlashAttention-2 ratio to the H100", "[layout]") {
  const char* text = R"({"model": "llama-3.1-8b", "device": %s, "training": {"stack": "pytorch",
      "layout": {"tp": 1, "pp": 1, "dp": 8, "global_batch": 8, "seq_len": 8192}}})";
  auto attention = [&](const std::string& device) {
    std::string t = text;
    t.replace(t.find("%s"), 2, device);
    const Scenario s = scenario(t);
    return run(s, plan_layout(s)).attention_efficiency;
  };
  const double h100 = attention("\"h100\""), a100 = attention("\"a100\"");
  CHECK(h100 == Approx(0.2306));                  // the stack's value, fitted on H100 runs
  CHECK(a100 == Approx(0.2306 * 1.76).epsilon(1e-9));  // 61.5% ÷ 35% (Dao 2023; Shah et al. 2024)
  CHECK(attention("\"a100-40gb\"") == Approx(a100));
  CHECK(attention(R"({"preset": "a100", "id": "x", "efficiency": {"flash_attention_vs_h100": 9}})") == 1.0);  // capped at the peak
}

TEST_CASE("zero-bubble and DualPipe schedules shrink the bubble; DualPipe keeps two weight copies", "[layout]") {
  const Scenario s = scenario(kMegatron);  // PP 64, 3072 / (6 × 1) = 512 micro-batches
  PlanLayout l = plan_layout(s);
  const LayoutResult base = run(s, l);
  const double t_mb = (base.step_s - base.pp_bubble_s - base.dp_comm_exposed_s - base.optimizer_s) / base.microbatches;
  // ZB-H1 (Qi et al. 2023): (p − 1)(T_F + T_B − T_W) with the three passes equal = a third of 1F1B's.
  l.pp_schedule = PpSchedule::zero_bubble;
  const LayoutResult zb = run(s, l);
  CHECK(zb.valid());
  CHECK(zb.pp_bubble_s == Approx(63 * t_mb / 3));
  CHECK(zb.weight_bytes == base.weight_bytes);
  // DualPipe (DeepSeek-V3 Table 2): (p/2 − 1)(F&B + B − 3W) = 0 with equal passes; two parameter copies.
  l.pp_schedule = PpSchedule::dualpipe;
  const LayoutResult dual = run(s, l);
  CHECK(dual.valid());
  CHECK(dual.pp_bubble_s == 0);
  CHECK(dual.weight_bytes == Approx(2 * base.weight_bytes));
  CHECK(dual.step_s < zb.step_s);
  CHECK(zb.step_s < base.step_s);
  // DualPipe needs an even PP, an even number of micro-batches and no interleaving.
  l.virtual_stages = 2;
  const LayoutResult bad = run(s, l);
  CHECK((bad.problems & kPpSchedule) != 0);
  CHECK(explain_problem(s.model, s.device, l, bad, kPpSchedule).find("DualPipe") != std::string::npos);
  // The contract: parsed, echoed, refused by name.
  const ParsedScenario p = parse_scenario(
      R"({"model": "megatron-1t", "device": "a100", "training": {"layout": {"tp": 8, "pp": 63, "dp": 6,
          "global_batch": 3072, "pp_schedule": "dualpipe"}}})", bundled_catalog());
  REQUIRE(!p.ok());
  CHECK(p.issues.front().path == "training.layout.pp_schedule");
  const ParsedScenario unknown =
      parse_scenario(R"({"training": {"layout": {"pp_schedule": "gpipe"}}})", bundled_catalog());
  REQUIRE(!unknown.ok());
  CHECK(unknown.issues.front().path == "training.layout.pp_schedule");
}

TEST_CASE("the pipeline bubble is (p − 1)/v micro-batch times", "[layout]") {
  const Scenario s = scenario(kMegatron);
  PlanLayout l = plan_layout(s);
  const LayoutResult r1 = run(s, l);
  const double t_mb = (r1.step_s - r1.pp_bubble_s - r1.dp_comm_exposed_s - r1.optimizer_s) / r1.microbatches;
  CHECK(r1.pp_bubble_s == Approx(63 * t_mb));
  l.virtual_stages = 2;
  const LayoutResult r2 = run(s, l);
  CHECK(r2.valid());
  CHECK(r2.pp_bubble_s < r1.pp_bubble_s);
  SECTION("more micro-batches shrink the bubble's share") {
    PlanLayout big = plan_layout(s);
    big.global_batch = 6144;
    const LayoutResult r3 = run(s, big);
    CHECK(r3.pp_bubble_s / r3.step_s < r1.pp_bubble_s / r1.step_s);
  }
}

TEST_CASE("placement: groups that outgrow the scale-up domain cross the network", "[layout]") {
  const Scenario s = scenario(kMegatron);  // A100: 8-GPU NVLink domain
  PlanLayout l = plan_layout(s);
  LayoutResult r = run(s, l);
  CHECK(r.tp_link == Link::scale_up);
  CHECK(r.pp_link == Link::scale_out);
  CHECK(r.dp_link == Link::scale_out);
  l.tp = 16;
  l.pp = 32;
  r = run(s, l);
  CHECK(r.tp_link == Link::scale_out);
  const auto why = explain_layout(s.model, s.device, l, r);
  bool said = false;
  for (const auto& w : why) said = said || w.find("crosses the scale-out network") != std::string::npos;
  CHECK(said);
  SECTION("a slow TP link costs time") {
    PlanLayout fast = plan_layout(s);
    PlanLayout slow = fast;
    slow.tp = 16, slow.pp = 32;
    CHECK(run(s, slow).tp_comm_s > 5 * run(s, fast).tp_comm_s);
  }
  SECTION("on an NVL72 rack a 72-wide group stays on NVLink") {
    const Scenario g = scenario(R"({"model": "moe-1t", "device": "gb200", "training": {"layout":
      {"tp": 1, "pp": 8, "ep": 64, "dp": 2, "global_batch": 1024}}})");
    const LayoutResult m = run(g, plan_layout(g));
    CHECK(m.ep_link == Link::scale_up);
    CHECK(m.ep_comm_s > 0);
  }
}

TEST_CASE("bad layouts get explanations, not errors", "[layout]") {
  const Scenario s = scenario(kMegatron);
  struct Case {
    double tp, pp, dp, ep, cp, v, b;
    std::uint32_t flag;
    const char* words;
  };
  const Case cases[] = {
      {7, 64, 6, 1, 1, 1, 1, kTpHeads, "does not divide the 160 attention heads"},
      {8, 256, 1, 1, 1, 1, 1, kPpLayers, "exceeds the 128 layers"},
      {8, 64, 7, 1, 1, 1, 1, kBatchSplit, "does not split into whole micro-batches"},
      {8, 64, 6, 2, 1, 1, 1, kEpExperts, "needs a mixture-of-experts model"},
      {8, 64, 6, 1, 3, 1, 1, kCpSeq, "does not divide the sequence length"},
      {8, 64, 6, 1, 1, 3, 1, kInterleave, "needs PP > 1 and micro-batches"},
  };
  for (const Case& c : cases) {
    PlanLayout l = plan_layout(s);
    l.tp = c.tp, l.pp = c.pp, l.dp = c.dp, l.ep = c.ep, l.cp = c.cp, l.virtual_stages = c.v, l.micro_batch = c.b;
    if (c.flag == kInterleave) l.global_batch = 3072 + 6;  // 513 micro-batches, not a multiple of 64
    const LayoutResult r = run(s, l);
    INFO(c.words);
    CHECK((r.problems & c.flag) != 0);
    CHECK_FALSE(r.valid());
    bool said = false;
    for (const auto& w : explain_layout(s.model, s.device, l, r)) said = said || w.find(c.words) != std::string::npos;
    CHECK(said);
  }
  SECTION("a layout that does not fit is evaluated and says by how much") {
    PlanLayout l = plan_layout(s);
    l.tp = 8, l.pp = 1, l.dp = 384;
    const LayoutResult r = run(s, l);
    CHECK_FALSE(r.fits);
    CHECK(r.valid());  // valid, just too big
    CHECK(r.step_s > 0);
    CHECK(explain_layout(s.model, s.device, l, r).front().find("more than the usable") != std::string::npos);
  }
}

TEST_CASE("ZeRO stages shrink memory per device in order", "[layout]") {
  const Scenario s = scenario(R"({"model": "dense-1t", "device": "h100", "training": {"layout":
    {"tp": 8, "pp": 16, "dp": 32, "global_batch": 1024}}})");
  double last = 1e30;
  for (int z = 0; z <= 3; ++z) {
    PlanLayout l = plan_layout(s);
    l.zero_stage = z;
    const LayoutResult r = run(s, l);
    if (z == 3) {
      // Under PP, ZeRO-3 keeps the stage's gathered weights and unsharded gradients through the
      // step (torchtitan's default, layout/data_parallel.cpp): about ZeRO-1's memory. Without PP
      // it is the smallest.
      CHECK(r.device_memory_bytes > last);
      PlanLayout flat = l;
      flat.pp = 1, flat.dp = l.dp * l.pp;
      CHECK(run(s, flat).weight_bytes < r.weight_bytes / 10);
      continue;
    }
    CHECK(r.device_memory_bytes < last);
    last = r.device_memory_bytes;
  }
}

TEST_CASE("recompute trades memory for hardware FLOPs", "[layout]") {
  const Scenario s = scenario(kMegatron);
  PlanLayout none = plan_layout(s), full = plan_layout(s);
  none.recompute = Recompute::none;
  none.flash_attention = false;
  full.recompute = Recompute::full;
  const LayoutResult a = run(s, none), b = run(s, full);
  CHECK(b.activation_bytes < a.activation_bytes);
  CHECK(b.hardware_flops_per_step > a.hardware_flops_per_step);
  CHECK(b.model_flops_per_step == Approx(a.model_flops_per_step));
  CHECK(b.hfu_predicted > b.mfu_predicted);
}

TEST_CASE("the search returns valid, fitting layouts ranked by the objective", "[layout][search]") {
  Scenario s = scenario(R"({"model": "dense-1t", "device": "gb200", "training": {"layout": {"global_batch": 4608},
    "search": {"devices": 4096, "top": 5}}})");
  const SearchResult r = search_layouts(s);
  CHECK(r.layouts_evaluated > 1000);
  REQUIRE(r.top.size() == 5);
  for (std::size_t i = 0; i < r.top.size(); ++i) {
    CHECK(r.top[i].result.valid());
    CHECK(r.top[i].result.fits);
    CHECK(r.top[i].layout.devices() == 4096);
    if (i > 0) CHECK(r.top[i].result.step_s >= r.top[i - 1].result.step_s);
  }
  SECTION("the best layout beats the seed's hand layout scaled to 4096 devices") {
    PlanLayout hand = plan_layout(s);
    hand.tp = 8, hand.pp = 64, hand.dp = 8;
    CHECK(r.top[0].result.step_s <= run(s, hand).step_s);
  }
  SECTION("a device range yields a Pareto front: more devices, less time") {
    s.training.search.devices_min = 512;
    s.training.search.devices_max = 8192;
    const SearchResult range = search_layouts(s);
    REQUIRE(range.pareto.size() >= 2);
    for (std::size_t i = 1; i < range.pareto.size(); ++i) {
      CHECK(range.pareto[i].layout.devices() > range.pareto[i - 1].layout.devices());
      CHECK(range.pareto[i].result.train_days < range.pareto[i - 1].result.train_days);
    }
  }
  SECTION("disallowed kinds stay at 1") {
    s.training.search.allow_pp = false;
    for (const auto& x : search_layouts(s).top) CHECK(x.layout.pp == 1);
  }
}

TEST_CASE("search device counts cover powers of two, 1.5× steps and both ends", "[search]") {
  CHECK(search_device_counts(512, 2048) == std::vector<double>{512, 768, 1024, 1536, 2048});
  CHECK(search_device_counts(100, 100) == std::vector<double>{100});
  CHECK(search_device_counts(0, 10).empty());
}

TEST_CASE("a pipeline runs at the pace of its slowest stage", "[layout]") {
  const Scenario s = scenario(kMegatron);
  PlanLayout even = plan_layout(s), uneven = even;
  even.pp = 32;    // 128 layers: 4 per stage
  even.dp = 12;
  uneven.pp = 24;  // 128 layers: some stages hold 6, not 5.33
  uneven.dp = 16;
  const LayoutResult a = run(s, even), b = run(s, uneven);
  // Same 3,072 devices and FLOPs. The last device also runs the output head, H layers' worth of
  // FLOPs (V·h against one layer's parameters): the even pipeline's last device holds 4 + H
  // layers; the uneven one's 6-layer stages are slower than its last device's 2 + H. Each runs at
  // its slowest device: 6 × 24 against (4 + H) × 32 of the same total.
  const Model& m = s.model;
  const double head = m.vocab * m.hidden / ((m.active_params - 2 * m.vocab * m.hidden) / m.layers);
  REQUIRE(head > 0);
  REQUIRE(head < 1);
  REQUIRE(even.devices() == uneven.devices());
  CHECK(b.compute_s == Approx(a.compute_s * (6.0 * 24) / ((4 + head) * 32)).epsilon(1e-9));
}

TEST_CASE("activation memory: flash attention stores no scores; full recompute shards by TP under SP", "[layout][memory]") {
  const Scenario s = scenario(kMegatron);
  PlanLayout l = plan_layout(s);
  l.recompute = Recompute::none;
  l.flash_attention = false;
  const double with_scores = run(s, l).activation_bytes;
  l.flash_attention = true;
  const double flash = run(s, l).activation_bytes;
  l.recompute = Recompute::selective;
  const double selective = run(s, l).activation_bytes;
  // Korthikanti Table 2: the 5·a·s/h score term is what selective recompute drops; flash
  // attention never stores it either.
  CHECK(flash == Approx(selective));
  CHECK(with_scores > flash);
  l.recompute = Recompute::full;
  const LayoutResult fr = run(s, l);
  // 2·s·b·h per layer, ÷ t = 8 with sequence parallelism; 34/t for selective. On top, the layer
  // being recomputed is whole once: 34/t less the 2/t its input already holds, per layer.
  const double selective_layer = selective / (s.model.layers / l.pp) / std::min(l.pp, l.global_batch / (l.dp * l.micro_batch));
  CHECK(fr.working_bytes == Approx(selective_layer * 32.0 / 34.0));
  CHECK(fr.activation_bytes - fr.working_bytes == Approx(selective * 2.0 / 34.0));
}
