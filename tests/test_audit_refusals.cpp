// Impossible inputs that must be refused, and counts that must never round short (issue 8 items
// 8, 9, 12, 14). Each refusal must come with an issue whose JSON path names the field at fault.
#include <cmath>
#include <string>
#include <vector>

#include "audit_util.h"

using audit::json;

namespace {

// The scenario is refused, and some issue's path starts with one of `paths`.
void expect_refused(const std::string& label, const std::string& scenario, const std::vector<std::string>& paths) {
  INFO(label << "\n  scenario: " << scenario);
  const audit::Run r = audit::run(scenario);
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

TEST_CASE("Audit refusals: impossible model shapes (issue 8 item 8)", "[audit][refusals]") {
  // Item 8: MHA means one KV head per query head.
  expect_refused("MHA with kv_heads != heads",
                 R"({"model": {"preset": "llama-3-70b", "attention": {"type": "mha", "kv_heads": 8, "head_dim": 128}}})",
                 {"model.attention.kv_heads", "model.attention.type"});
  // Item 8: grouped-query attention groups the query heads evenly.
  expect_refused("GQA with heads not divisible by kv_heads",
                 R"({"model": {"preset": "llama-3-70b", "attention": {"type": "gqa", "kv_heads": 6, "head_dim": 128}}})",
                 {"model.attention.kv_heads", "model.heads"});
  // Item 8: more heads than model width leaves a head dimension below 1 (64/4096 = 0.0156).
  expect_refused("heads > hidden",
                 R"({"model": {"params": 1e9, "layers": 16, "hidden": 64, "heads": 4096, "attention": {"type": "mha"}}})",
                 {"model.heads", "model.hidden", "model.attention.head_dim"});
  // Item 8: with every expert active, every parameter is active, so active ≪ total is impossible.
  expect_refused("MoE with every expert active but active << total",
                 R"({"model": {"params": 1e12, "active_params": 1e11, "layers": 61, "hidden": 7168, "heads": 64,
                     "attention": {"type": "gqa", "kv_heads": 8, "head_dim": 128},
                     "moe": {"experts": 8, "experts_per_token": 8, "moe_layers": 61}}})",
                 {"model.moe", "model.active_params"});
  // Item 8: fractional shapes.
  expect_refused("fractional hidden", R"({"model": {"preset": "llama-3-70b", "hidden": 8192.5}})", {"model.hidden"});
  expect_refused("fractional heads", R"({"model": {"preset": "llama-3-70b", "heads": 63.5}})", {"model.heads"});
}

TEST_CASE("Audit refusals: impossible layouts in eval (issue 8 item 9)", "[audit][refusals]") {
  // Item 9: 10^18 devices and 0.003 micro-batches; `plan` refuses the same layout, so must `eval`.
  expect_refused("tp = pp = dp = 1e6", R"({"model": "dense-1t", "device": "gb200",
                 "training": {"layout": {"tp": 1000000, "pp": 1000000, "dp": 1000000}}})",
                 {"training.layout"});
}

TEST_CASE("Audit refusals: empty ids and derived token counts (issue 8 item 14)", "[audit][refusals]") {
  // Item 14: `system: ""` is refused like `device: ""` already is.
  expect_refused("device \"\" (already refused)", R"({"device": ""})", {"device"});
  expect_refused("system \"\"", R"({"model": "dense-1t", "device": "gb200", "system": ""})", {"system"});
  // Item 14: tokens = tokens_per_param × params = 10^22 is outside the contract's 1 … 10^18.
  expect_refused("derived tokens above 1e18", R"({"model": {"params": 1e16, "layers": 128, "hidden": 25600,
                 "heads": 160, "attention": {"type": "gqa", "kv_heads": 16, "head_dim": 160}},
                 "training": {"tokens_per_param": 1e6}})",
                 {"training.tokens_per_param", "training.tokens", "model.params"});
}

TEST_CASE("Audit rounding: counts above 1e12 never come out short (issue 8 item 12)", "[audit][rounding]") {
  // A slow custom device (1 MFLOP/s) on a 1-day schedule at 100% goodput and MFU needs
  // X = 6·N·D ÷ (10^6 × 3600 × 24) devices; D is chosen so X ≈ 10^13 + 0.5. The seed rounds
  // cluster sizes up (ceil), so the answer is ⌈X⌉ = 10^13 + 1; a relative epsilon of 10^-12 gives
  // 10^13 − 9.
  const double params = 12.0 * 128 * 25600 * 25600;  // a self-consistent 12·L·h² shape
  const long double target = 1e13L + 0.5L;
  const double tokens = static_cast<double>(target * 864e8L / (6.0L * params));
  const long double x = 6.0L * params * tokens / 864e8L;  // what the scenario really needs
  const long double frac = x - std::floor(x);
  REQUIRE(frac > 0.05L);
  REQUIRE(frac < 0.95L);
  const double need = static_cast<double>(std::ceil(x));
  json s = json::parse(R"({"device": {"name": "slow", "memory_bytes": 80e9, "hbm_bytes_per_s": 1e12,
      "dense_flops": {"bf16": 1e6}, "scale_up_domain": 8, "scale_up_bytes_per_s": 1e11},
    "model": {"layers": 128, "hidden": 25600, "heads": 160, "attention": {"type": "gqa", "kv_heads": 16, "head_dim": 160}},
    "training": {"mfu": [1.0], "days": 1, "goodput": 1, "price": null}})");
  s["model"]["params"] = params;
  s["training"]["tokens"] = tokens;
  const audit::Run r = audit::run(s.dump());
  INFO(r.issues);
  REQUIRE(r.ok);
  const double got = r.result["training"]["compute"]["cluster_devices"][0];
  INFO("needs " << audit::Expect::fmt(static_cast<double>(x)) << " devices; got " << audit::Expect::fmt(got));
  CHECK(got >= need);
  CHECK(got == need);
  const double domains = r.result["training"]["compute"]["scale_up_domains"][0];
  CHECK(domains * 8 >= need);
}

TEST_CASE("Audit rounding: memory floors above 1e12 never come out short (issue 8 item 12)", "[audit][rounding]") {
  // The memory floor at the same scale: 16 B × (10^15 + 31.25) params on 1 kB devices is exactly
  // 1.6·10^13 + 0.5 devices (every step exact in binary), so ⌈⌉ = 1.6·10^13 + 1.
  json m = json::parse(R"({"device": {"name": "tiny", "memory_bytes": 1000, "hbm_bytes_per_s": 1e12,
      "dense_flops": {"bf16": 1e15}, "scale_up_domain": 8, "scale_up_bytes_per_s": 1e11},
    "model": {"params": 1000000000000031.25, "layers": 128, "hidden": 25600, "heads": 160,
              "attention": {"type": "gqa", "kv_heads": 16, "head_dim": 160}},
    "training": {"tokens": 1e12, "hbm_usable": 1, "price": null}})");
  const audit::Run rm = audit::run(m.dump());
  INFO(rm.issues);
  REQUIRE(rm.ok);
  CHECK(rm.result["training"]["memory"]["min_devices_full"] == 16000000000001.0);
  CHECK(rm.result["training"]["memory"]["min_devices_usable"] == 16000000000001.0);
}
