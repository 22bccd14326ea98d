// The calculator's state, in plain structs that the panels read and edit. The App (app.h) owns one
// AppState; the only function-local statics in the UI are per-frame caches of what the display
// did (widgets.cpp, display_shrank), which hold no part of the scenario or the results.
//
// [SECTION] Editor: the scenario JSON the user is editing and what the core says about it
// [SECTION] Computed: the last VALID scenario and its estimate (kept visible while input is invalid)
// [SECTION] View state: theme, tabs, pinned working, compare and chart caches, test hooks
#pragma once
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "planner_state.h"
#include "serve_planner_state.h"
#include "share_state.h"
#include "sizer/sizer.h"

namespace sizer_web {

// [SECTION] Editor
// `draft` is a sparse scenario in the v1 input form, holding only what the user chose (like the
// files in docs/examples); the core fills in every default. Each edit changes `draft`, then the
// App re-parses it with sizer::parse_scenario.
struct Editor {
  nlohmann::json draft = nlohmann::json::object();
  std::vector<sizer::Issue> issues;    // errors by JSON path: the draft is not used while any
  std::vector<sizer::Issue> warnings;  // accepted, but worth saying next to the field
  std::vector<sizer::Issue> local;     // UI-side problems (text that is not a number list)
  bool changed = false;                // set by a panel; the App re-parses once per frame
};

// [SECTION] Computed
struct Computed {
  sizer::Scenario scenario;    // last valid scenario
  std::string draft_text;      // the draft it was parsed from (a new draft text = a new scenario)
  nlohmann::json resolved;     // sizer::scenario_to_json(scenario): every input, defaults applied
  int resolved_revision = -1;  // the revision `resolved` was made for
  sizer::Estimate estimate;    // with working
  int revision = 0;            // bumps whenever the estimate changes
  double recompute_ms = 0;     // parse + evaluate (+ text mirror) of the last change
  bool working_ready = false;  // estimate.working matches the scenario (see ensure_working)
  double working_ms = 0;       // time to make the working records (and resolved JSON) of the last change
};

// [SECTION] View state
enum class Tab { overview, training, serving, network, operations, compare, charts, planner };

struct CompareState {
  bool bf16 = true, fp8 = true, fp4 = false;
  int rows_revision = -1;  // Computed::revision the rows were made for
  int rows_precisions = -1;
  std::vector<sizer::ComparisonRow> rows;
  bool sorted = false;
  double compute_ms = 0;
};

struct Series {
  std::string label;
  std::vector<double> x, y;
  bool highlight = false;  // the scenario's own device
};

struct ChartData {
  int revision = -1;  // Computed::revision the sweeps were made for
  double compute_ms = 0;
  // Memory stack: per-device state and first-stage activations for ZeRO 0..3.
  std::vector<double> state_bytes, activation_bytes;
  double hbm_bytes = 0, hbm_usable_bytes = 0;
  // Device hours and cost across MFU, one series per chip at the training precision.
  std::vector<Series> hours, cost;
  // Serving sweeps over batch (replica size held at the scenario's).
  std::vector<double> batch, experts_touched, step_s, tokens_per_s, compute_step_s;
  double compute_binds_at_batch = 0;  // first batch where decode is compute-bound (0 = never)
};

// The Reliability & cost view's chart curves (sizer/planners/ops_curves.h), made once per estimate.
struct OpsCharts {
  int revision = -1;  // Computed::revision the curves were made for
  std::vector<sizer::CurvePoint> by_interval;  // predicted goodput against checkpoint interval (s)
  std::vector<sizer::CurvePoint> by_devices;   // ... against the job's devices
};

// A named screen rectangle (physical pixels) of an interactive item, published to the page for
// the browser tests (window.sizerUi) so they can click and type with real input events; `text`
// is what the app drew there when it says (note_text), so tests can read labels off the canvas.
struct NamedRect {
  std::string name;
  float x, y, w, h;
  std::string text = std::string();
};

// A field whose typed text is not applied yet: numbers apply on Enter, Tab or leaving the field
// (never while half-typed: "1e3" on the way to "1e30"); Escape throws the text away.
struct PendingEdit {
  std::string path;   // scenario path being edited; empty when nothing is pending
  std::string label;  // the field's label, for the page's text mirror
  double value = 0;   // the value as typed so far, in the unit the field shows
};

// How a field shows its value: messages about it are given in the same unit and name it.
struct FieldUnit {
  std::string label;  // "Training tokens"
  double scale = 1;   // stored value = shown value × scale (1e12 for T tokens, 0.01 for %)
  std::string unit;   // "T", "%", "days"
};

// An input as the inputs panel shows it, for the page's text mirror (results_text.h): its value
// as applied (never half-typed text), in the unit the field shows.
struct ShownInput {
  std::string path, label, value, unit;
  bool operator==(const ShownInput& o) const { return path == o.path && label == o.label && value == o.value && unit == o.unit; }
};

struct ViewState {
  bool dark = true;
  Tab tab = Tab::overview;
  Tab requested_tab = Tab::overview;
  bool tab_request = false;
  std::string pinned_working;  // result path whose working is shown in the working pane
  bool touch_pointer = false;  // the last pointer down was a finger: say "tap", not "click"
  char mfu_text[96] = "";      // MFU points as the user types them ("38, 45, 55")
  bool mfu_editing = false;
  PendingEdit pending;  // the field being typed into, if its text differs from the applied value
  std::map<std::string, FieldUnit> field_units;  // scenario path -> how its field shows it
  std::vector<std::string> field_paths;       // input paths drawn this frame (issue matching)
  std::vector<std::string> last_field_paths;  // ... and in the previous frame
  std::vector<ShownInput> inputs_shown;       // the fields drawn this frame, in panel order
  CompareState compare;
  ChartData charts;
  bool charts_cost = false;  // the MFU chart shows cost instead of device-hours
  OpsCharts ops;             // the Reliability & cost view (ops_panel.h)
  PlannerState planner;      // the planner view (planner_state.h)
  ServePlannerState serve_planner;  // the Serving view's planner section (serve_planner.h)
  std::vector<NamedRect> rects;
  std::string hover_text;  // plain text of the tooltip drawn this frame (mirrored as window.sizerHover)
};

struct AppState {
  Editor editor;
  Computed computed;
  ViewState view;
  ShareState share;  // links, import/export, custom hardware (share_state.h)
};

}  // namespace sizer_web
