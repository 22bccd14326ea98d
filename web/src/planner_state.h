// The planner view's state and the work behind it, kept out of the ImGui code: the scenario's
// layout evaluated with the layout model (sizer::evaluate_layout), the last layout search
// (sizer::search_layouts, timed here because the core reads no clocks) and the plain-text
// mirror of both for the page's aria-live region.
//
//   refresh_plan(state);            // once per frame; re-evaluates only after a scenario change
//   request_search(state);          // the "Search" button; the search runs on a later frame
//   run_pending_search(state);      // next frames: runs it (or an automatic one)
//   std::string t = planner_text(state);
//
// [SECTION] State
// [SECTION] Plan and search
#pragma once
#include <string>
#include <vector>

#include "sizer/sizer.h"

namespace sizer_web {

struct AppState;

// [SECTION] State
struct PlannerState {
  // The scenario's own layout, evaluated for Computed::revision `revision`.
  int revision = -1;
  int working_revision = -1;   // Computed::revision whose working records include the planner's
  sizer::PlanLayout layout;
  sizer::LayoutResult result;
  std::vector<std::string> explanations;
  bool has_accuracy = false;      // a valid layout: its step is quoted with `accuracy`
  sizer::LayoutAccuracy accuracy;
  // Search: results of the last run and what they were run for.
  bool auto_search = false;    // re-run whenever the search inputs change
  bool search_requested = false;
  int request_frames = 0;      // frames drawn since the request ("Searching…" shows first)
  bool have_search = false;
  sizer::SearchResult search;
  std::string search_key;      // search inputs the results belong to (see search_key())
  std::string current_key;     // search inputs of the current scenario
  int key_revision = -1;       // Computed::revision current_key was made for
  double search_ms = 0;        // wall-clock time of the last search (std::chrono, in the browser)
  int selected_row = -1;       // row of `search.top` loaded into the editor
  int text_revision = 0;       // bumps when planner_text() may have changed (search finished)
  bool scroll_to_results = false;
};

// Working records of the planner's headline numbers ("show the working"), appended to the
// estimate's records so hovering and pinning work as for every other number. Paths follow the
// `sizer plan` JSON, prefixed with "plan.": plan.result.step.step_s, ...throughput.mfu_predicted,
// ...throughput.hfu_predicted, ...throughput.model_flops_per_s_per_device,
// ...throughput.tokens_per_s, ...run.train_days, ...run.device_hours, ...run.cost_usd,
// ...memory.device_memory_bytes.
constexpr const char* kPlanStep = "plan.result.step.step_s";
constexpr const char* kPlanMfu = "plan.result.throughput.mfu_predicted";
constexpr const char* kPlanHfu = "plan.result.throughput.hfu_predicted";
constexpr const char* kPlanFlops = "plan.result.throughput.model_flops_per_s_per_device";
constexpr const char* kPlanTokens = "plan.result.throughput.tokens_per_s";
constexpr const char* kPlanDays = "plan.result.run.train_days";
constexpr const char* kPlanHours = "plan.result.run.device_hours";
constexpr const char* kPlanCost = "plan.result.run.cost_usd";
constexpr const char* kPlanMemory = "plan.result.memory.device_memory_bytes";

// [SECTION] Plan and search
// Re-evaluates the scenario's layout when the computed scenario changed, and adds its working
// records once the estimate's records are ready (see ensure_working).
void refresh_plan(AppState& s);
// Search inputs of the current scenario as text: everything the search reads (the resolved
// scenario without the layout keys it varies, plus the device range).
std::string search_key(const sizer::Scenario& s);
// True when the current scenario's search inputs differ from those of the shown results.
bool search_stale(AppState& s);
void request_search(AppState& s);
// Call once per frame before drawing the view: runs a requested search once "Searching…" has
// been drawn, or an automatic one when the inputs changed. Returns true when a search ran.
bool run_pending_search(AppState& s);
// Loads a search result's layout (TP, PP, DP, CP, EP, micro-batch, virtual stages, ZeRO stage,
// recompute) into the scenario draft.
void load_layout(AppState& s, const sizer::PlanLayout& l);
// "TP 8 × PP 64 × DP 6" (CP and EP only when above 1).
std::string layout_label(const sizer::PlanLayout& l);
// The planner headline, explanations and search summary as plain text (for #results-text).
std::string planner_text(const AppState& s);

}  // namespace sizer_web
