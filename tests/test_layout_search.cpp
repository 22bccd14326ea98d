// Layout search over MoE expert mappings (docs/planner.md, "Search"): EP as a factor of the device
// count, or folded into the TP × CP × DP ranks with expert TP 1 (Liu et al. 2025, "MoE
// Parallel Folding", arXiv 2504.14960). Every layout the search returns must be one `plan` of the
// same scenario evaluates identically, on exactly the device count searched.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "scenario_util.h"
#include "validation_util.h"
#include "sizer/sizer.h"

using namespace sizer;

namespace {

using testutil::scenario;

// The scenario with `l` as its training layout, written to JSON and read back, as a user saving
// a searched row and planning it would.
Scenario with_layout(Scenario s, const PlanLayout& l) {
  Layout& o = s.training.layout;
  o.tp = l.tp, o.pp = l.pp, o.dp = l.dp, o.cp = l.cp, o.ep = l.ep;
  o.micro_batch = l.micro_batch, o.virtual_stages = l.virtual_stages, o.recompute = l.recompute;
  o.sequence_parallel = l.sequence_parallel, o.flash_attention = l.flash_attention, o.dp_overlap = l.dp_overlap;
  o.tp_comm_overlap = l.tp_comm_overlap, o.expert_tp = l.expert_tp, o.ep_folding = l.ep_folding;
  o.fsdp_shard = l.fsdp_shard;
  s.training.zero_stage = l.zero_stage;
  return scenario(scenario_to_json(s).dump());
}

const char* kMoe = R"({"model": "moe-1t", "device": "gb200", "training": {"layout":
  {"tp": 4, "pp": 8, "dp": 16, "ep": 8, "global_batch": 4096}, "search": {"devices": 4096, "top": 20}}})";

}  // namespace

TEST_CASE("the MoE search tries EP folding and returns only layouts plan() reproduces", "[layout][search][moe]") {
  Scenario s = scenario(kMoe);
  const SearchResult folded = search_layouts(s);
  REQUIRE(folded.top.size() == 20);
  bool any_folded = false;
  for (const RankedLayout& x : folded.top) {
    INFO("TP " << x.layout.tp << " PP " << x.layout.pp << " DP " << x.layout.dp << " EP " << x.layout.ep
               << " expert TP " << x.layout.expert_tp << (x.layout.ep_folding ? " folded" : ""));
    CHECK(x.layout.devices() == 4096);
    any_folded = any_folded || x.layout.ep_folding;
    if (x.layout.ep_folding) {
      // EP tiles the TP × CP × DP ranks with expert TP 1, and only where TP > 1: with expert TP =
      // TP the experts sit as EP-as-a-factor puts them, which the search tries anyway.
      const double ranks = x.layout.tp * x.layout.cp * x.layout.dp;
      CHECK(std::fmod(ranks, x.layout.ep) == 0);
      CHECK(x.layout.expert_tp == 1);
      CHECK(x.layout.tp > 1);
    }
    const Scenario back = with_layout(s, x.layout);
    const LayoutResult again = evaluate_layout(back.model, back.device, plan_layout(back), plan_context(back));
    CHECK(again.step_s == x.result.step_s);
    CHECK(again.device_memory_bytes == x.result.device_memory_bytes);
  }
  CHECK(any_folded);

  SECTION("without folding none is folded, and the best is no faster") {
    s.training.search.allow_ep_folding = false;
    const SearchResult plain = search_layouts(s);
    REQUIRE(!plain.top.empty());
    for (const RankedLayout& x : plain.top) CHECK_FALSE(x.layout.ep_folding);
    CHECK(plain.layouts_evaluated < folded.layouts_evaluated);
    CHECK(folded.top[0].result.step_s <= plain.top[0].result.step_s);
  }
  SECTION("a folded starting layout still searches the device count asked for") {
    // The search used to keep the scenario's folding switch while counting EP as a device
    // factor, and returned 2,048-device layouts for a 4,096-device search.
    s.training.layout.ep_folding = true, s.training.layout.expert_tp = 1, s.training.layout.dp = 128;
    const SearchResult r = search_layouts(s);
    REQUIRE(!r.top.empty());
    for (const RankedLayout& x : r.top) CHECK(x.layout.devices() == 4096);
    CHECK(r.top[0].result.step_s == folded.top[0].result.step_s);
  }
  SECTION("EP not allowed: no expert parallelism, folded or not") {
    s.training.search.allow_ep = false;
    for (const RankedLayout& x : search_layouts(s).top) CHECK(x.layout.ep == 1);
  }
}

TEST_CASE("the search reaches the folding paper's layouts or better", "[layout][search][moe]") {
  // The published Megatron-Core runs of Liu et al. 2025 (docs/validation/runs-moe.json), both
  // mappings. Each layout is among those the search tries at its device count (micro-batch 1, no
  // interleaving, no recompute; EP folded with expert TP 1, or, for expert TP = TP, the same
  // placement as EP as a factor), so the best the search returns can be no slower than the
  // model's step for it.
  int checked = 0;
  for (const ValidationRow& row : testutil::published_runs({"runs-moe.json"})) {
    if (row.source_key != "moe-parallel-folding-2025") continue;
    INFO(row.id);
    Scenario s = row.scenario;
    s.training.search.devices_min = s.training.search.devices_max = row.layout.devices();
    s.training.search.top = 1;
    const SearchResult r = search_layouts(s);
    REQUIRE(!r.top.empty());
    CHECK(r.top[0].layout.devices() == row.layout.devices());
    if (row.result.fits) CHECK(r.top[0].result.step_s <= row.result.step_s);
    ++checked;
  }
  CHECK(checked == 8);
}

TEST_CASE("training.search.allow.ep_folding is read, checked and written back", "[search][contract]") {
  const auto bad = parse_scenario(R"({"training": {"search": {"allow": {"ep_folding": "yes"}}}})", bundled_catalog());
  REQUIRE_FALSE(bad.ok());
  CHECK(format_issues(bad.issues).find("training.search.allow.ep_folding") != std::string::npos);
  Scenario s = scenario(R"({"model": "moe-1t", "training": {"search": {"allow": {"ep_folding": false}}}})");
  CHECK_FALSE(s.training.search.allow_ep_folding);
  const Scenario back = scenario(scenario_to_json(s).dump());
  CHECK_FALSE(back.training.search.allow_ep_folding);
  CHECK(scenario(R"({"model": "moe-1t"})").training.search.allow_ep_folding);
}
