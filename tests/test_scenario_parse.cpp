// Scenario parsing: defaults, presets with overrides, and every kind of bad input.
// Bad input must produce an issue naming the JSON path, never a crash, NaN or infinity.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "result_leaves.h"
#include "sizer/sizer.h"

using namespace sizer;

namespace {

ParsedScenario parse(const std::string& text) { return parse_scenario(text, bundled_catalog()); }

// The first issue's path, or "" if the scenario parsed.
std::string first_path(const ParsedScenario& p) { return p.issues.empty() ? "" : p.issues[0].path; }

bool mentions(const ParsedScenario& p, const std::string& word) {
  for (const Issue& i : p.issues) {
    if (i.message.find(word) != std::string::npos || i.path.find(word) != std::string::npos) return true;
  }
  return false;
}

// Impossible inputs must be refused (through the public API, as a front end calls it), each with
// an issue whose JSON path names the field at fault: the scenario is refused, and some issue's
// path starts with one of `paths`.
void expect_refused(const std::string& label, const std::string& scenario, const std::vector<std::string>& paths) {
  INFO(label << "\n  scenario: " << scenario);
  const leaves::Run r = leaves::run(scenario);
  INFO("issues: " << (r.ok ? std::string("(none: accepted)") : r.issues));
  CHECK_FALSE(r.ok);
  bool named = false;
  for (const sizer::Issue& i : r.issue_list) {
    for (const std::string& p : paths) named = named || i.path.rfind(p, 0) == 0;
  }
  std::string want;
  for (const std::string& p : paths) want += (want.empty() ? "" : " or ") + p;
  INFO("an issue path must start with " << want);
  CHECK(named);
}

}  // namespace

TEST_CASE("an empty scenario gets the seed post's defaults", "[parse]") {
  const auto p = parse("{}");
  REQUIRE(p.ok());
  const Scenario& s = p.scenario;
  CHECK(s.model.id == "dense-1t");
  CHECK(s.device.id == "gb200");
  CHECK(s.training.tokens == 20e12);
  CHECK(s.training.mfu == std::vector<double>{0.38, 0.45, 0.55});
  CHECK(s.training.bytes_per_param == 16);
  CHECK(s.training.days == 90);
  CHECK(s.training.goodput == 0.9);
  CHECK(s.serving.weight_precision == Precision::fp8);
  CHECK(s.power.pue == 1.2);
  CHECK(s.power.system_w_per_device == Approx(14300.0 / 8));
}

TEST_CASE("MoE presets default to the post's MoE MFU range and published tokens", "[parse]") {
  const auto p = parse(R"({"model": "moe-1t"})");
  REQUIRE(p.ok());
  CHECK(p.scenario.training.mfu == std::vector<double>{0.25, 0.35});
  CHECK(p.scenario.training.tokens == 15.5e12);
}

TEST_CASE("presets take overrides; full objects stand alone", "[parse]") {
  SECTION("model override") {
    const auto p = parse(R"({"model": {"preset": "dense-1t", "layers": 96}})");
    REQUIRE(p.ok());
    CHECK(p.scenario.model.layers == 96);
    CHECK(p.scenario.model.hidden == 25600);
    CHECK(p.scenario.model.user_supplied);
  }
  SECTION("full model object") {
    const auto p = parse(R"({"model": {"name": "tiny", "params": 1e9, "layers": 16, "hidden": 2048,
      "heads": 16, "attention": {"type": "gqa", "kv_heads": 4, "head_dim": 128}}})");
    REQUIRE(p.ok());
    CHECK(p.scenario.model.active_params == 1e9);
    CHECK(p.scenario.training.tokens == 20e9);  // Chinchilla: 20 tokens per parameter
  }
  SECTION("device override and aliases") {
    const auto p = parse(R"({"device": {"preset": "h100-sxm", "memory_bytes": 96e9}})");
    REQUIRE(p.ok());
    CHECK(p.scenario.device.id == "h100");
    CHECK(p.scenario.device.memory_bytes == 96e9);
    CHECK(p.scenario.device.user_supplied);
  }
  SECTION("full custom device") {
    const auto p = parse(R"({"device": {"name": "X1", "memory_bytes": 256e9, "hbm_bytes_per_s": 10e12,
      "dense_flops": {"bf16": 3e15, "fp8": 6e15}, "scale_up_domain": 64, "scale_up_bytes_per_s": 1e12,
      "scale_out_bytes_per_s": 100e9, "system_w": 2000}, "training": {"usd_per_device_hour": 9.5}})");
    REQUIRE(p.ok());
    CHECK(p.scenario.device.user_supplied);
    CHECK(p.scenario.training.price.usd_per_device_hour == 9.5);
    const Estimate e = evaluate(p.scenario);
    CHECK(e.compute.cost_usd.size() == 3);
  }
  SECTION("a system sets the scale-up domain") {
    const auto p = parse(R"({"device": "b200", "system": "dge-b200"})");
    CHECK_FALSE(p.ok());
    CHECK(first_path(p) == "system");
    CHECK(mentions(p, "dgx-b200"));  // lists the valid ids
  }
}

TEST_CASE("wrong types are reported with their path", "[parse][bad]") {
  CHECK(first_path(parse(R"({"training": {"days": "ninety"}})")) == "training.days");
  CHECK(first_path(parse(R"({"training": {"param_gather_bytes": "fp8"}})")) == "training.param_gather_bytes");
  CHECK(first_path(parse(R"({"training": {"bf16_layers": "last5"}})")) == "training.bf16_layers");
  CHECK(first_path(parse(R"({"training": {"mfu": 0.45}})")) == "training.mfu");
  CHECK(first_path(parse(R"({"training": {"mfu": [0.4, "x"]}})")) == "training.mfu[1]");
  CHECK(first_path(parse(R"({"training": {"layout": {"sequence_parallel": 1}}})")) == "training.layout.sequence_parallel");
  CHECK(first_path(parse(R"({"serving": []})")) == "serving");
  CHECK(first_path(parse(R"({"model": 42})")) == "model");
  CHECK(first_path(parse(R"({"power": {"pue": true}})")) == "power.pue");
  CHECK(first_path(parse(R"([1, 2])")) == "");
}

TEST_CASE("out-of-range numbers are refused: negative, zero, huge, fractional counts", "[parse][bad]") {
  const char* cases[][2] = {
      {R"({"training": {"days": -1}})", "training.days"},
      {R"({"training": {"days": 0}})", "training.days"},
      {R"({"training": {"goodput": 1.5}})", "training.goodput"},
      {R"({"training": {"mfu": [0]}})", "training.mfu[0]"},
      {R"({"training": {"mfu": []}})", "training.mfu"},
      {R"({"training": {"tokens": 1e308}})", "training.tokens"},
      {R"({"training": {"layout": {"tp": 2.5}}})", "training.layout.tp"},
      {R"({"training": {"layout": {"pp": 0}}})", "training.layout.pp"},
      {R"({"training": {"zero_stage": 4}})", "training.zero_stage"},
      {R"({"serving": {"batch": -32}})", "serving.batch"},
      {R"({"serving": {"kv_fill": 0}})", "serving.kv_fill"},
      {R"({"serving": {"context": 1e300}})", "serving.context"},
      {R"({"power": {"pue": 0.5}})", "power.pue"},
      {R"({"model": {"preset": "dense-1t", "params": -1}})", "model.params"},
      {R"({"model": {"preset": "dense-1t", "hidden": 1e308}})", "model.hidden"},
      {R"({"device": {"preset": "h100", "memory_bytes": 0}})", "device.memory_bytes"},
      {R"({"device": {"preset": "h100", "hbm_bytes_per_s": -5}})", "device.hbm_bytes_per_s"},
      {R"({"training": {"usd_per_device_hour": -2}})", "training.usd_per_device_hour"},
      {R"({"training": {"param_gather_bytes": 0}})", "training.param_gather_bytes"},
      {R"({"training": {"param_gather_bytes": 1e9}})", "training.param_gather_bytes"},
      {R"({"training": {"bf16_layers": -1}})", "training.bf16_layers"},
      {R"({"training": {"layout": {"recompute": "full", "recompute_fraction": 0}}})", "training.layout.recompute_fraction"},
      {R"({"training": {"layout": {"recompute": "full", "recompute_fraction": 1.5}}})", "training.layout.recompute_fraction"},
      {R"({"training": {"bf16_layers": 2.5}})", "training.bf16_layers"},
      {R"({"model": "llama-3-70b", "training": {"bf16_layers": 81}})", "training.bf16_layers"},
  };
  for (const auto& c : cases) {
    INFO(c[0]);
    const auto p = parse(c[0]);
    CHECK_FALSE(p.ok());
    CHECK(first_path(p) == c[1]);
    REQUIRE_FALSE(p.issues.empty());
    CHECK(p.issues[0].message.find("must be") != std::string::npos);
  }
}

TEST_CASE("unknown ids list the valid ones", "[parse][bad]") {
  auto p = parse(R"({"device": "h1000"})");
  CHECK(first_path(p) == "device");
  CHECK(mentions(p, "h100"));
  p = parse(R"({"model": "gpt-5"})");
  CHECK(first_path(p) == "model");
  CHECK(mentions(p, "dense-1t"));
  p = parse(R"({"device": "h100", "training": {"price": "aws-cb-gb200"}})");
  CHECK(first_path(p) == "training.price");
  CHECK(mentions(p, "aws-cb-h100"));
  p = parse(R"({"training": {"precision": "fp7"}})");
  CHECK(first_path(p) == "training.precision");
  CHECK(mentions(p, "bf16"));
}

TEST_CASE("unknown fields are typos, not silently ignored", "[parse][bad]") {
  const auto p = parse(R"({"trainig": {"days": 30}})");
  CHECK(first_path(p) == "trainig");
  CHECK(mentions(p, "training"));
  CHECK(first_path(parse(R"({"training": {"layout": {"tpp": 8}}})")) == "training.layout.tpp");
}

TEST_CASE("inconsistent shapes are refused", "[parse][bad]") {
  CHECK(first_path(parse(R"({"model": {"preset": "dense-1t", "active_params": 2e12}})")) == "model.active_params");
  CHECK(first_path(parse(R"({"model": {"preset": "dense-1t", "active_params": 1e11}})")) == "model.active_params");
  CHECK(first_path(parse(R"({"model": {"preset": "moe-1t", "moe": {"experts": 4, "experts_per_token": 8}}})")) ==
        "model.moe.experts_per_token");
  CHECK(first_path(parse(R"({"model": {"params": 1e9, "layers": 4, "hidden": 64}})")) == "model.heads");
  CHECK(first_path(parse(R"({"model": {"preset": "dense-1t", "attention": {"type": "sparse"}}})")) ==
        "model.attention.type");
  CHECK(first_path(parse(R"({"device": "a100", "training": {"precision": "fp8"}})")) == "training.precision");
}

TEST_CASE("malformed JSON and oversized input are refused whole", "[parse][bad]") {
  for (const char* text : {"", "{", "{\"model\": }", "nul", "{\"a\":1,}", "\xff\xfe", "{\"training\": {\"days\": NaN}}",
                           "{\"training\": {\"days\": Infinity}}"}) {
    INFO(text);
    const auto p = parse(text);
    CHECK_FALSE(p.ok());
  }
  const std::string big(kMaxScenarioBytes + 1, ' ');
  const auto p = parse(big);
  CHECK_FALSE(p.ok());
  CHECK(p.issues[0].message.find("too large") != std::string::npos);
}

TEST_CASE("eval refuses the layouts plan refuses; uneven stages only warn", "[parse]") {
  SECTION("TP 7 does not divide 160 heads: refused, naming training.layout.tp") {
    const auto p = parse(R"({"training": {"layout": {"tp": 7, "pp": 64, "dp": 6}}})");
    REQUIRE_FALSE(p.ok());
    CHECK(p.issues[0].path == "training.layout.tp");
    CHECK(p.issues[0].message.find("160 attention heads") != std::string::npos);
  }
  SECTION("10^18 devices and 0.003 micro-batches: refused before anything is computed") {
    const auto p = parse(R"({"training": {"layout": {"tp": 1e6, "pp": 1e6, "dp": 1e6}}})");
    REQUIRE_FALSE(p.ok());
    CHECK(p.issues[0].path == "training.layout");
    CHECK(p.issues[0].message.find("at most 1,000,000") != std::string::npos);
  }
  SECTION("fewer sequences than data-parallel ranks: refused, naming the global batch") {
    const auto p = parse(R"({"training": {"layout": {"tp": 8, "pp": 64, "dp": 6, "global_batch": 3}}})");
    REQUIRE_FALSE(p.ok());
    CHECK(p.issues[0].path == "training.layout.global_batch");
  }
  SECTION("PP 5 on 128 layers is legal but uneven: a warning") {
    const auto p = parse(R"({"training": {"layout": {"tp": 8, "pp": 5, "dp": 6, "global_batch": 3072}}})");
    REQUIRE(p.ok());
    bool pp = false;
    for (const Issue& w : p.warnings) pp = pp || w.path == "training.layout.pp";
    CHECK(pp);
  }
}

TEST_CASE("Refusals: impossible model shapes", "[parse][refusals]") {
  // MHA means one KV head per query head.
  expect_refused("MHA with kv_heads != heads",
                 R"({"model": {"preset": "llama-3-70b", "attention": {"type": "mha", "kv_heads": 8, "head_dim": 128}}})",
                 {"model.attention.kv_heads", "model.attention.type"});
  // Grouped-query attention groups the query heads evenly.
  expect_refused("GQA with heads not divisible by kv_heads",
                 R"({"model": {"preset": "llama-3-70b", "attention": {"type": "gqa", "kv_heads": 6, "head_dim": 128}}})",
                 {"model.attention.kv_heads", "model.heads"});
  // More heads than model width leaves a head dimension below 1 (64/4096 = 0.0156).
  expect_refused("heads > hidden",
                 R"({"model": {"params": 1e9, "layers": 16, "hidden": 64, "heads": 4096, "attention": {"type": "mha"}}})",
                 {"model.heads", "model.hidden", "model.attention.head_dim"});
  // With every expert active, every parameter is active, so active ≪ total is impossible.
  expect_refused("MoE with every expert active but active << total",
                 R"({"model": {"params": 1e12, "active_params": 1e11, "layers": 61, "hidden": 7168, "heads": 64,
                     "attention": {"type": "gqa", "kv_heads": 8, "head_dim": 128},
                     "moe": {"experts": 8, "experts_per_token": 8, "moe_layers": 61}}})",
                 {"model.moe", "model.active_params"});
  // Fractional shapes.
  expect_refused("fractional hidden", R"({"model": {"preset": "llama-3-70b", "hidden": 8192.5}})", {"model.hidden"});
  expect_refused("fractional heads", R"({"model": {"preset": "llama-3-70b", "heads": 63.5}})", {"model.heads"});
}

TEST_CASE("Refusals: impossible layouts in eval", "[parse][refusals]") {
  // 10^18 devices and 0.003 micro-batches; `plan` refuses the same layout, so must `eval`.
  expect_refused("tp = pp = dp = 1e6", R"({"model": "dense-1t", "device": "gb200",
                 "training": {"layout": {"tp": 1000000, "pp": 1000000, "dp": 1000000}}})",
                 {"training.layout"});
}

TEST_CASE("Refusals: empty ids and derived token counts", "[parse][refusals]") {
  // `system: ""` is refused like `device: ""` already is.
  expect_refused("device \"\" (already refused)", R"({"device": ""})", {"device"});
  expect_refused("system \"\"", R"({"model": "dense-1t", "device": "gb200", "system": ""})", {"system"});
  // Derived tokens = tokens_per_param × params = 10^22 is outside the contract's 1 … 10^18.
  expect_refused("derived tokens above 1e18", R"({"model": {"params": 1e16, "layers": 128, "hidden": 25600,
                 "heads": 160, "attention": {"type": "gqa", "kv_heads": 16, "head_dim": 160}},
                 "training": {"tokens_per_param": 1e6}})",
                 {"training.tokens_per_param", "training.tokens", "model.params"});
}

TEST_CASE("a shape that disagrees with the stated parameters warns", "[parse]") {
  auto warns_params = [](const std::string& text) {
    const auto p = parse_scenario(text, bundled_catalog());
    REQUIRE(p.ok());
    for (const Issue& w : p.warnings) {
      if (w.path == "model.params") return true;
    }
    return false;
  };
  // Doubling Llama 3 70B's layers doubles 12·L·h² while params stays at 70.6B.
  CHECK(warns_params(R"({"model": {"preset": "llama-3-70b", "layers": 160}})"));
  CHECK_FALSE(warns_params(R"({"model": {"preset": "llama-3-70b"}})"));
  CHECK_FALSE(warns_params(R"({"model": {"preset": "llama-3-70b", "layers": 160, "params": 1.35e11}})"));
  // A custom dense model: 12·32·8192² = 25.8B is far from a stated 7B.
  CHECK(warns_params(R"({"model": {"params": 7e9, "layers": 32, "hidden": 8192, "heads": 64, "attention": {"type": "mha"}}})"));
  // Llama 3 8B as published: 12·L·h² + 2·V·h = 7.49B against 8.03B stated, within the tolerance.
  CHECK_FALSE(warns_params(R"({"model": {"params": 8.03e9, "layers": 32, "hidden": 4096, "heads": 32, "vocab": 128256,
                                         "attention": {"type": "gqa", "kv_heads": 8}}})"));
}

TEST_CASE("param_gather_bytes is optional, echoed when given and round-trips", "[parse]") {
  const auto unset = parse(R"({"model": "llama-3-70b", "device": "h100"})");
  REQUIRE(unset.ok());
  CHECK(scenario_to_json(unset.scenario)["training"].count("param_gather_bytes") == 0);  // old scenarios: as before
  CHECK(plan_context(unset.scenario).param_gather_bytes == 2);                        // activation_bytes
  const auto fp8 = parse(R"({"model": "llama-3-70b", "device": "h100", "training": {"param_gather_bytes": 1}})");
  REQUIRE(fp8.ok());
  CHECK(plan_context(fp8.scenario).param_gather_bytes == 1);
  const auto again = parse(scenario_to_json(fp8.scenario).dump());
  REQUIRE(again.ok());
  CHECK(scenario_to_json(again.scenario)["training"]["param_gather_bytes"] == 1);
}

TEST_CASE("bf16_layers is optional, bounded by the model's layers, echoed when given and round-trips", "[parse]") {
  const auto unset = parse(R"({"model": "llama-3-70b", "device": "h100"})");
  REQUIRE(unset.ok());
  CHECK(scenario_to_json(unset.scenario)["training"].count("bf16_layers") == 0);  // old scenarios: as before
  CHECK(plan_context(unset.scenario).bf16_layers == 0);
  const auto five = parse(R"({"model": "llama-3-70b", "device": "h100", "training": {"precision": "fp8", "bf16_layers": 5}})");
  REQUIRE(five.ok());
  CHECK(plan_context(five.scenario).bf16_layers == 5);
  const auto again = parse(scenario_to_json(five.scenario).dump());
  REQUIRE(again.ok());
  CHECK(scenario_to_json(again.scenario)["training"]["bf16_layers"] == 5);
  const auto all = parse(R"({"model": "llama-3-70b", "device": "h100", "training": {"bf16_layers": 80}})");
  CHECK(all.ok());  // every layer in BF16 is allowed (an FP8 run whose only FP8 is elsewhere)
  const auto over = parse(R"({"model": "llama-3-70b", "device": "h100", "training": {"bf16_layers": 81}})");
  REQUIRE_FALSE(over.ok());
  CHECK(mentions(over, "at most the model's 80 layers; got 81"));
}

TEST_CASE("recompute_fraction needs full recompute, is echoed when below 1 and round-trips", "[parse]") {
  const auto unset = parse(R"({"model": "llama-3-70b", "device": "h100", "training": {"layout": {"recompute": "full"}}})");
  REQUIRE(unset.ok());
  CHECK(scenario_to_json(unset.scenario)["training"]["layout"].count("recompute_fraction") == 0);
  CHECK(plan_layout(unset.scenario).recompute_fraction == 1);
  const auto part = parse(R"({"model": "llama-3-70b", "device": "h100",
      "training": {"layout": {"recompute": "full", "recompute_fraction": 0.73}}})");
  REQUIRE(part.ok());
  CHECK(plan_layout(part.scenario).recompute_fraction == 0.73);
  const auto again = parse(scenario_to_json(part.scenario).dump());
  REQUIRE(again.ok());
  CHECK(scenario_to_json(again.scenario)["training"]["layout"]["recompute_fraction"] == 0.73);
  const auto sel = parse(R"({"model": "llama-3-70b", "device": "h100",
      "training": {"layout": {"recompute": "selective", "recompute_fraction": 0.5}}})");
  REQUIRE_FALSE(sel.ok());
  CHECK(first_path(sel) == "training.layout.recompute_fraction");
  CHECK(mentions(sel, "applies only with recompute \"full\"; got recompute \"selective\""));
  CHECK(first_path(parse(R"({"training": {"layout": {"recompute": "full", "recompute_fraction": "most"}}})")) ==
        "training.layout.recompute_fraction");
}

TEST_CASE("the resolved scenario round-trips through its JSON", "[parse]") {
  const auto p = parse(R"({"model": "moe-1t", "device": "h100", "training": {"mfu": [0.3]},
                           "serving": {"batch": 512, "context": 8192}})");
  REQUIRE(p.ok());
  const std::string again = scenario_to_json(p.scenario).dump();
  const auto q = parse(again);
  INFO(format_issues(q.issues));
  REQUIRE(q.ok());
  CHECK(scenario_to_json(q.scenario) == scenario_to_json(p.scenario));
  CHECK(result_to_json(q.scenario, evaluate(q.scenario)) == result_to_json(p.scenario, evaluate(p.scenario)));
}
