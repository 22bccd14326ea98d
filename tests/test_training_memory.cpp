// Training memory: ZeRO accounting and Korthikanti et al. 2022 activation memory; memory floors
// above 10^12 devices that never come out short.
#include <catch2/catch.hpp>

#include "result_leaves.h"
#include "sizer/formulas/training_memory.h"

using namespace sizer;
using leaves::json;

TEST_CASE("ZeRO accounting keeps 2 + 2 + 12 bytes per parameter for mixed-precision Adam", "[memory]") {
  const auto acc = memory::accounting(Optimizer::adam_mixed);
  CHECK(acc.weight_bytes == 2);
  CHECK(acc.grad_bytes == 2);
  CHECK(acc.optimizer_bytes == 12);
  CHECK(acc.total() == 16);
  SECTION("the FP8 recipe keeps somewhat less than 16") {
    const auto fp8 = memory::accounting(Optimizer::adam_fp8);
    CHECK(fp8.total() < 16);
    CHECK(fp8.total() > 8);
  }
}

TEST_CASE("minimum devices round up, and exact multiples do not", "[memory]") {
  CHECK(memory::min_devices(16e12, 80e9, 1.0) == 200);   // exactly 200
  CHECK(memory::min_devices(16e12, 80e9, 0.9) == 223);   // 222.2 → 223
  CHECK(memory::min_devices(1, 80e9, 0.9) == 1);
}

TEST_CASE("ZeRO stages shard optimizer, then gradients, then weights over data parallelism", "[memory]") {
  const auto acc = memory::accounting(Optimizer::adam_mixed);
  const double n = 1e12;
  const double s0 = memory::state_bytes_per_device(n, 0, acc, 8, 64, 6, 1, 0);
  const double s1 = memory::state_bytes_per_device(n, 0, acc, 8, 64, 6, 1, 1);
  const double s2 = memory::state_bytes_per_device(n, 0, acc, 8, 64, 6, 1, 2);
  const double s3 = memory::state_bytes_per_device(n, 0, acc, 8, 64, 6, 1, 3);
  CHECK(s0 == Approx(16e12 / 512));
  CHECK(s1 == Approx(n / 512 * (2 + 2 + 12.0 / 6)));
  CHECK(s2 == Approx(n / 512 * (2 + 14.0 / 6)));
  CHECK(s3 == Approx(16e12 / 512 / 6));
  CHECK(s3 < s2);
  CHECK(s2 < s1);
  CHECK(s1 < s0);
  SECTION("stage 1 tends to 4Ψ of model state when the data-parallel degree is large") {
    const double big = memory::state_bytes_per_device(n, 0, acc, 1, 1, 1e6, 1, 1);
    CHECK(big == Approx(4 * n).epsilon(1e-4));
  }
  SECTION("expert parallelism shards only the routed experts") {
    const double dense_part = memory::state_bytes_per_device(n, 0.9e12, acc, 1, 1, 1, 1, 0);
    const double ep8 = memory::state_bytes_per_device(n, 0.9e12, acc, 1, 1, 1, 8, 0);
    CHECK(ep8 == Approx(16 * (0.1e12 + 0.9e12 / 8)));
    CHECK(dense_part == Approx(16e12));
  }
}

TEST_CASE("activation memory per layer follows Korthikanti et al. Table 2", "[memory]") {
  const double s = 2048, b = 1, h = 25600, a = 160, sbh = s * b * h;
  SECTION("no parallelism, no recompute: sbh(34 + 5as/h)") {
    CHECK(memory::activation_bytes_per_layer(s, b, h, a, 1, false, Recompute::none) ==
          Approx(sbh * (34 + 5 * a * s / h)));
  }
  SECTION("tensor parallel without sequence parallel: sbh(10 + 24/t + 5as/(ht))") {
    CHECK(memory::activation_bytes_per_layer(s, b, h, a, 8, false, Recompute::none) ==
          Approx(sbh * (10 + 24.0 / 8 + 5 * a * s / (h * 8))));
  }
  SECTION("tensor + sequence parallel: divided by t") {
    CHECK(memory::activation_bytes_per_layer(s, b, h, a, 8, true, Recompute::none) ==
          Approx(sbh * (34 + 5 * a * s / h) / 8));
  }
  SECTION("selective recompute removes the 5as/h term") {
    CHECK(memory::activation_bytes_per_layer(s, b, h, a, 8, true, Recompute::selective) == Approx(34 * sbh / 8));
    CHECK(memory::activation_bytes_per_layer(s, b, h, a, 8, false, Recompute::selective) ==
          Approx(sbh * (10 + 24.0 / 8)));
  }
  SECTION("full recompute keeps only the layer input, 2sbh") {
    CHECK(memory::activation_bytes_per_layer(s, b, h, a, 8, true, Recompute::full) == Approx(2 * sbh));
  }
  SECTION("each trick reduces memory") {
    const double none = memory::activation_bytes_per_layer(s, b, h, a, 8, true, Recompute::none);
    const double sel = memory::activation_bytes_per_layer(s, b, h, a, 8, true, Recompute::selective);
    CHECK(sel < none);
  }
}

TEST_CASE("the first 1F1B stage holds min(p, m) micro-batches of L/p layers", "[memory]") {
  CHECK(memory::activation_bytes_first_stage(1.0, 128, 64, 512) == Approx(128));  // m ≥ p: all L layers
  CHECK(memory::activation_bytes_first_stage(1.0, 128, 64, 16) == Approx(2 * 16));  // m < p
  CHECK(memory::activation_bytes_first_stage(1.0, 128, 1, 512) == Approx(128));     // no pipeline
}

TEST_CASE("Rounding: memory floors above 1e12 never come out short", "[memory][rounding]") {
  // The memory floor at the same scale: 16 B × (10^15 + 31.25) params on 1 kB devices is exactly
  // 1.6·10^13 + 0.5 devices (every step exact in binary), so ⌈⌉ = 1.6·10^13 + 1.
  json m = json::parse(R"({"device": {"name": "tiny", "memory_bytes": 1000, "hbm_bytes_per_s": 1e12,
      "dense_flops": {"bf16": 1e15}, "scale_up_domain": 8, "scale_up_bytes_per_s": 1e11},
    "model": {"params": 1000000000000031.25, "layers": 128, "hidden": 25600, "heads": 160,
              "attention": {"type": "gqa", "kv_heads": 16, "head_dim": 160}},
    "training": {"tokens": 1e12, "hbm_usable": 1, "price": null}})");
  const leaves::Run rm = leaves::run(m.dump());
  INFO(rm.issues);
  REQUIRE(rm.ok);
  CHECK(rm.result["training"]["memory"]["min_devices_full"] == 16000000000001.0);
  CHECK(rm.result["training"]["memory"]["min_devices_usable"] == 16000000000001.0);
}
