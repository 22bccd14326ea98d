// Seed figures, cluster size and power (seed Part 2 "Cluster size for a target wall clock" and
// Part 6 "Power"), from the scenarios in docs/examples/. See test_seed_figures.cpp for the
// conventions: expected values are the seed's printed numbers at its printed rounding.
#include <algorithm>
#include <string>
#include <vector>

#include "seed_examples.h"

using seedtest::Example;
using seedtest::cat;
using seedtest::load_example;
using seedtest::system_of;

// [SECTION] Part 2: cluster size ----------------------------------------------------------------

TEST_CASE("Seed Part 2: cluster size for a target wall clock", "[seed][cluster]") {
  const Example gb = load_example("dense-1t-gb200.json");

  SECTION("'wall_hours = 90 * 24 * 0.9      # 1,944 useful hours'") {
    CHECK(gb.s.training.days * 24 * gb.s.training.goodput == Approx(1944));
  }
  SECTION("the cluster script's loop: devices = hours / 1,944 and NVL72 sized groups = devices / 72") {
    // The seed prints this loop but not its output. Expected values are the loop's output worked
    // out by hand from its own (4-5 significant figure) hour inputs: 74.86e6/1944 = 38,508 etc.
    // Our hours are exact and our device counts are rounded up, so allow the script's input
    // rounding (0.05%) plus one device.
    struct Row {
      const char* example;
      double devices, groups;
    };
    const Row rows[] = {{"dense-1t-h100.json", 38508, 535},   {"dense-1t-gb200.json", 15242, 212},
                        {"dense-1t-gb200-fp8.json", 7618, 106}, {"dense-1t-ironwood.json", 16518, 229},
                        {"dense-1t-tpu-v5p.json", 83014, 1153}};
    for (const Row& r : rows) {
      INFO(r.example);
      const Example ex = load_example(r.example);
      CHECK_NEAR(ex.e.compute.cluster_devices[1], r.devices, r.devices * 5e-4 + 1);
      CHECK_ROUNDS(ex.e.compute.cluster_devices[1] / 72, r.groups, 0);
    }
  }
  SECTION("'around 15,000 GB200 GPUs' / 'about 15,000 GPUs for 90 days'") {
    CHECK_ROUNDS(gb.e.compute.cluster_devices[1], 15000, -3);
  }
  SECTION("FAQ: 'about 38,500 H100s at 45% MFU'; intro: '38,000 H100s'") {
    const Example h = load_example("dense-1t-h100.json");
    CHECK_ROUNDS(h.e.compute.cluster_devices[1], 38500, -2);
    // The intro's '38,000' is the same 38,508 cut to two figures (it would round to 39,000);
    // the FAQ prints 38,500. Allow the intro the 1.5% its truncation implies.
    CHECK_NEAR(h.e.compute.cluster_devices[1], 38000, 600);
  }
  SECTION("FAQ: 'FP8 roughly halves those counts'") {
    const Example fp8 = load_example("dense-1t-gb200-fp8.json");
    CHECK_ROUNDS(fp8.e.compute.cluster_devices[1] / gb.e.compute.cluster_devices[1], 0.5, 1);
  }
  SECTION("'x about 106 such rack pairs for the GB200 FP8 cluster above'") {
    // The script's 106 is NVL72-sized groups (single racks) of the FP8 cluster: 7,621 / 72 =
    // 105.9. The diagram calls them rack pairs; 106 rack pairs (144 GPUs) is the BF16 cluster
    // (15,242 / 144 = 105.8). Both readings give 106; we check both.
    const Example fp8 = load_example("dense-1t-gb200-fp8.json");
    CHECK(fp8.e.compute.scale_up_domains[1] == 106);
    CHECK_ROUNDS(gb.e.compute.cluster_devices[1] / 144, 106, 0);
  }
  SECTION("'Our Ironwood estimate of about 16,500 chips for 90 days is more than one pod of "
          "9,216, so the job would span two pods'") {
    const Example iw = load_example("dense-1t-ironwood.json");
    CHECK_ROUNDS(iw.e.compute.cluster_devices[1], 16500, -2);
    CHECK(iw.e.compute.cluster_devices[1] > 9216);
    CHECK(iw.e.compute.scale_up_domains[1] == 2);
  }
  SECTION("FAQ: 'A TPU v5p ... needs about five times more chips for the same training job'") {
    const Example v5p = load_example("dense-1t-tpu-v5p.json");
    const Example iw = load_example("dense-1t-ironwood.json");
    CHECK_ROUNDS(v5p.e.compute.cluster_devices[1] / iw.e.compute.cluster_devices[1], 5, 0);
  }
  SECTION("'For Model B on GB200 at BF16 and 30% MFU, the same 90 days need only about 570 GPUs, "
          "eight NVL72 racks'") {
    const Example moe = load_example("moe-1t-gb200.json");
    CHECK(moe.e.compute.mfu[1] == 0.30);
    CHECK_ROUNDS(moe.e.compute.cluster_devices[1], 570, -1);
    CHECK(moe.e.compute.scale_up_domains[1] == 8);
  }
  SECTION("'Squeezing it into 30 days takes about 1,700'") {
    const Example moe30 = load_example("moe-1t-gb200-30-days.json");
    CHECK(moe30.e.compute.mfu[1] == 0.30);
    CHECK_ROUNDS(moe30.e.compute.cluster_devices[1], 1700, -2);
  }
  SECTION("'On H100 at 30% MFU it is about 1,430 GPUs for 90 days'") {
    const Example h = load_example("moe-1t-h100.json");
    CHECK(h.e.compute.mfu[1] == 0.30);
    CHECK_ROUNDS(h.e.compute.cluster_devices[1], 1430, -1);
    // FAQ: 'a few hundred to about 1,500 GPUs is enough': the H100 30% cluster is the top of
    // that range; '1,500' is one-and-a-half significant figures, so allow 100.
    CHECK_NEAR(h.e.compute.cluster_devices[1], 1500, 100);
  }
  SECTION("intro: MoE 'about 40 times less training compute, so a few hundred to a few thousand "
          "GPUs will do'") {
    const Example moe = load_example("moe-1t-gb200.json");
    const auto rows = sizer::compare_devices(moe.s, cat(), {sizer::Precision::bf16, sizer::Precision::fp8},
                                             {"h100", "h200", "b200", "gb200"});
    double lo = 1e30, hi = 0;
    for (const auto& r : rows) {
      lo = std::min(lo, r.cluster_devices);
      hi = std::max(hi, r.cluster_devices);
    }
    CHECK(lo >= 100);
    CHECK(lo < 1000);
    CHECK(hi >= 1000);
    CHECK(hi < 10000);
  }
  SECTION("Megatron cross check: 'Plain 6ND on the same inputs gives about 63 days, so the "
          "paper's own estimate [84 days] is about a third higher'") {
    const Example meg = load_example("megatron-1t-84-days.json");
    CHECK(meg.e.compute.tokens == 450e9);
    CHECK(meg.e.comms.layout_devices == 3072);
    CHECK_ROUNDS(meg.e.compute.wall_days_on_layout[0], 63, 0);
    CHECK_NEAR(84 / meg.e.compute.wall_days_on_layout[0], 4.0 / 3, 0.05);
  }
}

// [SECTION] Part 6: power -----------------------------------------------------------------------

TEST_CASE("Seed Part 6: power", "[seed][power]") {
  const Example gb = load_example("dense-1t-gb200.json");

  SECTION("'about 14.3 kW for 8 GPUs, about 1.79 kW per GPU' (script: 14.3 / 8; energy line: "
          "1.7875)") {
    const sizer::System& dgx = system_of("dgx-b200");
    CHECK_ROUNDS(dgx.power_w / dgx.devices / 1e3, 1.79, 2);
    CHECK_ROUNDS(gb.s.power.system_w_per_device / 1e3, 1.7875, 4);
    // FAQ / takeaway: 'at about 1.8 kW per GPU (system level)'
    CHECK_ROUNDS(gb.s.power.system_w_per_device / 1e3, 1.8, 1);
  }
  SECTION("'For H100 we use the 700 W GPU TDP ... and multiply by 1.5'; 'a PUE of 1.2'") {
    const Example h = load_example("dense-1t-h100.json");
    CHECK(h.s.power.system_w_per_device == 700 * 1.5);
    CHECK(h.s.power.pue == 1.2);
    CHECK(gb.s.power.pue == 1.2);
  }
  SECTION("'gpus = 29.63e6 / (90 * 24 * 0.9)  # about 15,242'") {
    CHECK(gb.e.compute.cluster_devices[1] == 15242);
  }
  SECTION("'print(round(gpus), it_mw, it_mw * 1.2)  # 15242, 27.3 MW, 32.7 MW'") {
    // Seed inconsistency: 15,242 × 14.3 / 8 kW = 27.245 MW, which prints as 27.2, not 27.3; the
    // facility figure 27.245 × 1.2 = 32.69 MW does print as 32.7. Test the IT figure to the
    // 0.1 MW its printed digit allows.
    CHECK_NEAR(gb.e.power.it_power_w[1] / 1e6, 27.3, 0.1);
    CHECK_ROUNDS(gb.e.power.facility_power_w[1] / 1e6, 32.7, 1);
  }
  SECTION("'A 15,000 GPU Blackwell class cluster ... draws about 33 MW at the facility'") {
    CHECK_ROUNDS(gb.e.power.facility_power_w[1] / 1e6, 33, 0);
  }
  SECTION("'print(29.63e6 * 1.7875 * 1.2 / 1e6, \"GWh\")  # about 63.6 GWh'; text: 'about 64 GWh'") {
    CHECK_ROUNDS(gb.e.power.energy_wh[1] / 1e9, 63.6, 1);
    CHECK_ROUNDS(gb.e.power.energy_wh[1] / 1e9, 64, 0);
  }
  SECTION("'that is about 2.7 days of the full output of a 1 GW power station'") {
    // 63.56 GWh ÷ 1 GW = 63.56 h = 2.648 days, which prints as 2.6; the seed's 2.7 comes from the
    // rounded 64 GWh (64 / 24 = 2.67). Allow the 0.06 days between the two roundings.
    CHECK_NEAR(gb.e.power.energy_wh[1] / 1e9 / 24, 2.7, 0.06);
  }
  SECTION("FAQ: 'An H100 cluster for the same job draws about 49 MW under our assumptions'") {
    const Example h = load_example("dense-1t-h100.json");
    CHECK_ROUNDS(h.e.power.facility_power_w[1] / 1e6, 49, 0);
  }
  SECTION("FAQ: 'A MoE training cluster for the same 90 days needs a few megawatts or less'") {
    for (const char* name : {"moe-1t-gb200.json", "moe-1t-h100.json"}) {
      INFO(name);
      const Example moe = load_example(name);
      for (double w : moe.e.power.facility_power_w) CHECK(w < 5e6);
    }
  }
}
