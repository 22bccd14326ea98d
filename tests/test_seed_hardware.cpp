// Seed figures, hardware: the chip, server, rack and pod facts the seed post prints (memory,
// dense peaks, prices, link speeds, domain sizes), checked against the bundled catalog and the
// device a docs/examples/ scenario resolves to. The catalog is data (assets/*.json, each value with
// its source); these tests pin it to the seed's printed values. See test_seed_figures.cpp for the
// conventions.
#include <algorithm>
#include <string>
#include <vector>

#include "seed_examples.h"

using seedtest::Example;
using seedtest::device;
using seedtest::load_example;
using seedtest::price;
using seedtest::system_of;
using sizer::kGB;
using sizer::kTB;

// [SECTION] Hardware ---------------------------------------------------------------------------

TEST_CASE("Seed hardware figures match the catalog", "[seed][hardware]") {
  SECTION("memory script: 'devices = {\"H100\": 80, \"H200\": 141, \"B200\": 180, \"GB200\": 186, "
          "\"MI355X\": 288, \"TPU v5p\": 95 * 1.073741824, \"TPU Ironwood\": 192 * 1.073741824}'") {
    CHECK(device("h100").memory_bytes == 80 * kGB);
    CHECK(device("h200").memory_bytes == 141 * kGB);
    CHECK(device("b200").memory_bytes == 180 * kGB);
    CHECK(device("gb200").memory_bytes == 186 * kGB);
    CHECK(device("mi355x").memory_bytes == 288 * kGB);
    CHECK(device("tpu-v5p").memory_bytes == 95 * sizer::kGiB);
    CHECK(device("tpu-ironwood").memory_bytes == 192 * sizer::kGiB);
  }
  SECTION("cost script: dense BF16 / FP8 TFLOPS 'H100 SXM (989.5, 1979)', 'H200 (989.5, 1979)', "
          "'B200 (None, 4500)', 'GB200 (2500, 5000)', 'MI355X (2500, 5000)', 'TPU v5p (459, "
          "459)', 'Ironwood (2307, 4614)'") {
    using P = sizer::Precision;
    CHECK(device("h100").dense_flops(P::bf16) == 989.5e12);
    CHECK(device("h100").dense_flops(P::fp8) == 1979e12);
    CHECK(device("h200").dense_flops(P::bf16) == 989.5e12);
    CHECK(device("h200").dense_flops(P::fp8) == 1979e12);
    CHECK(device("b200").dense_flops(P::fp8) == 4500e12);
    CHECK(device("gb200").dense_flops(P::bf16) == 2500e12);
    CHECK(device("gb200").dense_flops(P::fp8) == 5000e12);
    CHECK(device("mi355x").dense_flops(P::bf16) == 2500e12);
    CHECK(device("mi355x").dense_flops(P::fp8) == 5000e12);
    CHECK(device("tpu-v5p").dense_flops(P::bf16) == 459e12);
    CHECK(device("tpu-v5p").dense_flops(P::fp8) == 459e12);
    CHECK(device("tpu-ironwood").dense_flops(P::bf16) == 2307e12);
    CHECK(device("tpu-ironwood").dense_flops(P::fp8) == 4614e12);
  }
  SECTION("cost script prices: '5.970', '7.895', '14.208', '10.582', '4.20', '12.00'; MI355X "
          "'no public price'") {
    CHECK(price("aws-cb-h100") == 5.970);
    CHECK(price("aws-cb-h200") == 7.895);
    CHECK(price("aws-cb-b200") == 14.208);
    CHECK(price("aws-cb-gb200") == 10.582);
    CHECK(price("gcp-od-tpu-v5p") == 4.20);
    CHECK(price("gcp-od-tpu-ironwood") == 12.00);
    CHECK(device("h100").default_price == "aws-cb-h100");
    CHECK(device("gb200").default_price == "aws-cb-gb200");
    CHECK(device("mi355x").default_price.empty());
  }
  SECTION("'Google's 3 year commitment prices are 45% of on demand for both TPU generations "
          "($5.40 ÷ $12.00 for Ironwood, $1.89 ÷ $4.20 for v5p)'") {
    CHECK(price("gcp-3y-tpu-ironwood") == 5.40);
    CHECK(price("gcp-3y-tpu-v5p") == 1.89);
    CHECK_ROUNDS(price("gcp-3y-tpu-ironwood") / price("gcp-od-tpu-ironwood"), 0.45, 2);
    CHECK_ROUNDS(price("gcp-3y-tpu-v5p") / price("gcp-od-tpu-v5p"), 0.45, 2);
  }
  SECTION("'GB200 NVL72: 72 Blackwell GPUs ... one 72 GPU NVLink domain, 13.4 TB of HBM3E and "
          "576 TB/s of HBM bandwidth in total'") {
    const sizer::System& nvl = system_of("gb200-nvl72");
    CHECK(nvl.devices == 72);
    CHECK(nvl.scale_up_domain == 72);
    CHECK_ROUNDS(nvl.hbm_bytes_total / kTB, 13.4, 1);
    CHECK_ROUNDS(72 * device("gb200").hbm_bytes_per_s / kTB, 576, 0);
  }
  SECTION("'HGX or DGX B200: 8 GPUs per server, 1,440 GB of HBM, about 14.3 kW maximum system "
          "power, and eight ConnectX-7 ports at up to 400 Gb/s'") {
    const sizer::System& dgx = system_of("dgx-b200");
    CHECK(dgx.devices == 8);
    CHECK_ROUNDS(dgx.hbm_bytes_total / kGB, 1440, 0);
    CHECK_ROUNDS(dgx.power_w / 1e3, 14.3, 1);
    CHECK_ROUNDS(dgx.scale_out_bytes_per_s * sizer::kBitsPerByte / 1e9, 400, 0);
  }
  SECTION("'TPU v5p pod: 8,960 chips'; 'TPU Ironwood pod: 9,216 chips'") {
    CHECK(system_of("tpu-v5p-pod").devices == 8960);
    CHECK(system_of("tpu-ironwood-pod").devices == 9216);
  }
  SECTION("'data center network, 50 Gb/s per chip' (v5p); '100 Gb/s per chip' (Ironwood)") {
    CHECK_ROUNDS(device("tpu-v5p").scale_out_bytes_per_s * 8 / 1e9, 50, 0);
    CHECK_ROUNDS(device("tpu-ironwood").scale_out_bytes_per_s * 8 / 1e9, 100, 0);
  }
  SECTION("'8,960 chips on a 3D torus with 1,200 GB/s of bidirectional ICI bandwidth per chip'") {
    CHECK_ROUNDS(2 * device("tpu-v5p").scale_up_bytes_per_s / kGB, 1200, 0);
  }
  SECTION("'each GPU has 1.8 TB/s of NVLink ... about 900 GB/s in each direction, and one 400 Gb/s "
          "network port, which is 50 GB/s. That is an 18 to 1 ratio'") {
    const Example b200 = load_example("dense-1t-b200.json");
    const sizer::Device& d = b200.s.device;
    CHECK_ROUNDS(2 * d.scale_up_bytes_per_s / kTB, 1.8, 1);
    CHECK_ROUNDS(d.scale_up_bytes_per_s / kGB, 900, 0);
    CHECK_ROUNDS(d.scale_out_bytes_per_s / kGB, 50, 0);
    CHECK_ROUNDS(d.scale_up_bytes_per_s / d.scale_out_bytes_per_s, 18, 0);
  }
  SECTION("FAQ: NVL72 'with 130 TB/s of total NVLink bandwidth' (72 × 1.8 TB/s)") {
    const Example gb = load_example("dense-1t-gb200.json");
    CHECK_ROUNDS(gb.s.device.scale_up_domain * 2 * gb.s.device.scale_up_bytes_per_s / kTB, 130, 0);
  }
  SECTION("'A natural layout puts TP 8 × PP 9 inside one rack'") {
    CHECK(8 * 9 == device("gb200").scale_up_domain);
  }
  SECTION("DeepSeek-V3: 'NVLink offered 160 GB/s and InfiniBand 50 GB/s'") {
    const Example ds = load_example("deepseek-v3-h800.json");
    CHECK_ROUNDS(ds.s.device.scale_up_bytes_per_s / kGB, 160, 0);
    CHECK_ROUNDS(ds.s.device.scale_out_bytes_per_s / kGB, 50, 0);
  }
  SECTION("FAQ: 'An Ironwood chip has 192 GiB of HBM and 2,307 TFLOPS of BF16 ... A TPU v5p has "
          "95 GiB and 459 TFLOPS'") {
    CHECK_ROUNDS(device("tpu-ironwood").memory_bytes / sizer::kGiB, 192, 0);
    CHECK_ROUNDS(device("tpu-ironwood").dense_flops_bf16 / 1e12, 2307, 0);
    CHECK_ROUNDS(device("tpu-v5p").memory_bytes / sizer::kGiB, 95, 0);
    CHECK_ROUNDS(device("tpu-v5p").dense_flops_bf16 / 1e12, 459, 0);
  }
  SECTION("FAQ server sizes: '8 × B200 server (1,440 GB)', '8 × MI355X server (2,304 GB)', "
          "'8 × H100 server (640 GB)', '8 × H200 server (1,128 GB)'") {
    CHECK_ROUNDS(system_of("dgx-b200").hbm_bytes_total / kGB, 1440, 0);
    CHECK_ROUNDS(system_of("mi355x-8").hbm_bytes_total / kGB, 2304, 0);
    CHECK_ROUNDS(system_of("hgx-h100").hbm_bytes_total / kGB, 640, 0);
    CHECK_ROUNDS(system_of("hgx-h200").hbm_bytes_total / kGB, 1128, 0);
  }
}

