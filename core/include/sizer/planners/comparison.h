// "Compare chips": one scenario across every device, precision and MFU point, like the seed post's
// training tables (Part 2 "GPU hours and cost"). Each row is a full evaluate() of the scenario with
// the device (and its default price and system power) swapped in.
#pragma once
#include <string>
#include <vector>

#include "sizer/planners/catalog.h"
#include "sizer/planners/scenario.h"

namespace sizer {

struct ComparisonRow {
  std::string device;  // id
  std::string device_name;
  bool user_supplied = false;
  Precision precision = Precision::bf16;
  double dense_peak_flops = 0;
  double mfu = 0;
  double device_hours = 0;
  double cost_usd = 0;  // useful device hours × price; 0 when the device has no price offer
  double cluster_cost_usd = 0;  // the recommended cluster rented for the schedule; 0 without a price
  std::string price_note;       // why no public price exists (empty when one does or is unknown)
  std::string price_id;
  std::string offer_kind;
  double cluster_devices = 0;
  double scale_up_domains = 0;
  double facility_power_w = 0;  // 0 when system power is unknown
  double min_devices_usable = 0;        // training state floor
  double replica_min_devices = 0;       // serving floor at the scenario's weight precision
  double replica_devices = 0;           // the replica actually used: serving.replica_devices or the automatic size
  double tokens_per_s_per_replica = 0;  // decode ceiling at that replica size
  double cost_per_million_tokens_usd = 0;
};

// The operations defaults that follow the device (assets/operations.json): its failure rates and
// failure domain, unless the scenario gave rates; its capital cost, unless the scenario gave
// ownership.usd_per_device; and its price offers in the catalog (the owning-vs-renting
// breakevens). Used by the parser and when a view swaps the device (with_device).
void apply_device_operations(const Catalog& catalog, Scenario* s);
// The scenario with device `d` swapped in, as every per-chip comparison does: its default price
// offer (for training and serving), its system power and a re-derived serving replica; the
// scenario itself when `d` is its own device.
Scenario with_device(const Scenario& base, const Catalog& catalog, const Device& d);

// Rows for every device (or only `device_ids` when non-empty) × `precisions` × the scenario's MFU
// points. Precisions a device has no dense peak for are skipped.
std::vector<ComparisonRow> compare_devices(const Scenario& base, const Catalog& catalog,
                                           const std::vector<Precision>& precisions,
                                           const std::vector<std::string>& device_ids = {});

}  // namespace sizer
