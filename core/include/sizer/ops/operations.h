// Running the cluster, beyond the clean run (docs/operations.md): reliability and goodput, the storage
// check, owning against renting, and carbon. Inputs (the scenario's training.reliability,
// training.storage, ownership and carbon blocks) and results (Estimate's reliability, storage,
// ownership and carbon parts). The formulas live in core/src/ops/, one family per file, each
// with its sources; docs/operations.md explains them and docs/contract.md lists the keys.
//
// Usage: the scenario parser fills these from the JSON with the bundled tables' defaults
// (assets/operations.json); evaluate() (estimate.h) fills the results.
#pragma once
#include <string>
#include <vector>

#include "sizer/formulas/hardware.h"

namespace sizer {

// [SECTION] Bundled tables (assets/operations.json; users may supply their own)

// Failures per device-day of a system generation, split by what failed (Llama 3 §3.3.4's
// root-cause table gives the split). Rates are per DEVICE-day even for host and network faults:
// host faults ÷ devices per host, so a job's rate is devices × the sum.
struct FailureRates {
  std::string id;      // device id ("h100") or "default"
  double device = 0;   // the accelerator itself (GPU, HBM, SRAM, its firmware processor)
  double host = 0;     // host, NIC, SSD, PSU, CPU, memory, chassis
  double network = 0;  // switches, cables, NCCL watchdog timeouts
  double software = 0; // software bugs, dependencies
  double failure_domain_devices = 8;  // devices taken out by a hardware failure (node or tray)
  std::string basis;   // the device the figures were measured on ("h100")
  std::string source, date;
  bool user_supplied = false;
  double total() const { return device + host + network + software; }
  double hardware() const { return device + host + network; }
};

// Purchase price of one device's share of a system, network and storage included or added.
struct CapitalCost {
  std::string id;      // "hgx-h100"
  std::string device;  // device id
  double usd_per_device = 0;          // system price ÷ devices
  double network_storage_fraction = 0;  // added on top for the cluster's network and storage
  double embodied_kg_co2e_per_device = 0;  // 0 = no published figure
  std::string source, date, embodied_source;
  bool user_supplied = false;
};

// Grid carbon intensity of a region (operational, location-based).
struct GridIntensity {
  std::string id;    // "us", "fr", "us-va"
  std::string name;
  double g_co2e_per_kwh = 0;
  double year = 0;
  std::string source;
  bool user_supplied = false;
};

// [SECTION] Scenario inputs

enum class CheckpointMode { sync, async };
const char* to_string(CheckpointMode m);

// training.reliability (docs/contract.md). Rates default from the device's FailureRates entry.
struct ReliabilityInputs {
  bool predict_goodput = false;  // training.goodput = "predicted"
  FailureRates rates;            // resolved per device-day rates
  bool rates_fallback = false;   // no entry for this device: the basis device's rates are used
  bool rates_given = false;      // training.reliability.failures_per_device_day was given
  double failure_domain_devices = 8;
  CheckpointMode checkpoint = CheckpointMode::async;
  double checkpoint_interval_s = 0;  // 0 = the Daly optimum
  double host_copy_bytes_per_s = 25e9;  // async snapshot device → host memory, per device
  double read_bytes_per_s = 0;          // aggregate reload bandwidth; 0 = storage write bandwidth
  double requeue_s = 600;    // detect, drain, reschedule
  double warmup_s = 300;     // re-initialise communicators, compile, first steps
  double repair_s = 86400;   // a failed domain out of the pool
  double spare_domains = -1; // hot spares (failure domains); -1 = enough for 99.9% of failures
  double planned_per_day = 0;  // planned interruptions per day (maintenance, upgrades)
};

// training.storage (seed 001: "storage must keep pace").
struct StorageInputs {
  double capacity_bytes = 0;       // the scenario's storage; 0 = not given (no verdict)
  double read_bytes_per_s = 0;     // aggregate read bandwidth; 0 = not given
  double retained_checkpoints = 3; // kept on storage at once
  double overhead_target = 0.05;   // checkpoint overhead allowed (share of wall-clock)
  double bytes_per_token = 4;      // tokenised data on disk (uint32 token ids)
  double repeat = 1;               // epochs over the data: stored tokens = tokens ÷ repeat
};

// ownership: buying the devices instead of renting them.
struct OwnershipInputs {
  CapitalCost capital;           // resolved capital cost (bundled table or given)
  bool capital_known = false;
  bool usd_given = false, embodied_given = false;  // ownership.usd_per_device, carbon.embodied_… given
  // Epoch AI's cost model (5 years for 2023 onward); Amazon cut a subset of servers to 5 from
  // 2025 (FY2024 10-K); Meta 5.5, Microsoft and Google 6 (10-K filings).
  double depreciation_years = 5;
  // US industrial average, 2023: 8.06 ¢/kWh (EIA via Statista, 2024-03-18).
  double usd_per_kwh = 0.0806;
  // CBRE North America Data Center Trends H2 2024 (2025-02-26): 250–500 kW asking rate, primary markets.
  double colo_usd_per_kw_month = 184.06;
  // Staff, support and spares as a share of capex per year: an assumption. No authoritative figure
  // was found; NVIDIA's DGX support runs about 20% of the base price per year (supercluster.blog).
  double ops_fraction_per_year = 0.05;
  std::string usd_per_kwh_source = "EIA US industrial average 2023, 8.06 ¢/kWh (via Statista, 2024-03-18)";
  std::string colo_source = "CBRE North America Data Center Trends H2 2024: $184.06/kW-month (250–500 kW)";
  std::vector<PriceOffer> device_offers;  // resolved: the device's price offers in the catalog
};

// carbon: grid intensity and embodied emissions.
struct CarbonInputs {
  GridIntensity grid;
  bool intensity_given = false;  // carbon.g_co2e_per_kwh given (overrides the region's)
  double lifetime_years = 5;  // embodied emissions amortised over this service life
};

// [SECTION] Results

struct ReliabilityResult {
  double job_devices = 0;             // the layout's devices
  double failures_per_device_day = 0;
  double job_mtbf_s = 0;              // unexpected failures only
  double expected_interruptions = 0;  // unexpected + planned over the run
  double expected_failures = 0;       // unexpected only
  double checkpoint_bytes = 0;
  double checkpoint_write_s = 0;      // to storage at its write bandwidth
  double checkpoint_blocking_s = 0;   // training paused per checkpoint (sync: the write)
  double checkpoint_interval_s = 0;   // compute between checkpoints
  double optimal_interval_s = 0;      // Daly's
  double young_interval_s = 0;
  double restart_s = 0;               // requeue + reload + warm-up (+ spare wait)
  double reload_s = 0;
  double spare_domains = 0;
  double spare_shortfall_probability = 0;
  double goodput_predicted = 0;
  double useful_days = 0;             // the run at 100% goodput on the layout
  double wall_days = 0;               // at the predicted goodput
  double extra_days = 0;
  double lost_device_hours = 0;       // devices × (wall − useful)
  double extra_cost_usd = 0;          // lost + spare device-hours × price
};

struct StorageResult {
  double checkpoint_capacity_bytes = 0;
  double write_bytes_per_s_needed = 0;
  double dataset_bytes = 0;
  double read_bytes_per_s_needed = 0;
  double total_capacity_bytes = 0;
  std::string capacity_verdict, write_verdict, read_verdict;  // ok | short | not_given
};

struct OfferBreakeven {
  std::string offer_id, offer_kind, provider;
  double usd_per_device_hour = 0;
  double breakeven_utilisation = 0;  // owned cost per hour ÷ rent
};

struct OwnershipResult {
  bool known = false;
  double capex_usd_per_device = 0;
  double usd_per_device_hour_owned = 0;  // every hour of the year, at full allocation
  double capital_usd_per_hour = 0, power_usd_per_hour = 0, facility_usd_per_hour = 0, ops_usd_per_hour = 0;
  double breakeven_utilisation = 0;  // against the training price offer
  std::vector<OfferBreakeven> offers;  // every bundled offer for this device
  std::vector<double> training_cost_owned_usd;  // per MFU point: the cluster owned for the schedule
  double serving_cost_per_million_tokens_owned_usd = 0;
};

struct CarbonResult {
  double g_co2e_per_kwh = 0;
  std::vector<double> training_kg_co2e;           // per MFU point: operational, cluster over the schedule
  std::vector<double> training_embodied_kg_co2e;  // per MFU point: embodied share of the schedule
  double serving_g_co2e_per_million_tokens = 0;
};

}  // namespace sizer
