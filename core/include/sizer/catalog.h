// The catalog: devices, systems, price offers and model presets.
//
// Bundled tables come from assets/*.json compiled into the binary (bundled_catalog()). Users can
// add or replace entries with their own tables (merge_tables), which are marked user_supplied.
// Lookups accept ids and aliases ("h100", "h100-sxm").
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sizer/hardware.h"
#include "sizer/issue.h"
#include "sizer/model.h"
#include "sizer/operations.h"

namespace sizer {

struct Catalog {
  std::vector<Device> devices;
  std::vector<System> systems;
  std::vector<PriceOffer> prices;
  std::vector<Model> models;
  std::vector<std::pair<std::string, std::string>> device_aliases;  // alias → id
  // assets/operations.json: failure rates, capital costs, grid carbon intensities.
  std::vector<FailureRates> failure_rates;
  std::vector<CapitalCost> capital_costs;
  std::vector<GridIntensity> grids;

  const Device* find_device(std::string_view id_or_alias) const;
  const System* find_system(std::string_view id) const;
  const PriceOffer* find_price(std::string_view id) const;
  const Model* find_model(std::string_view id) const;
  const FailureRates* find_failure_rates(std::string_view device_id) const;  // exact id only
  const CapitalCost* find_capital(std::string_view id) const;               // by id
  const CapitalCost* capital_for_device(std::string_view device_id) const;  // first for the device
  const GridIntensity* find_grid(std::string_view id) const;
  std::string grid_ids() const;
  std::string capital_ids() const;

  std::string device_ids() const;  // "a100, h100, ..." for error messages
  std::string system_ids() const;
  std::string price_ids() const;
  std::string model_ids() const;
};

// The tables bundled in the binary. Parsed once; the result is immutable.
const Catalog& bundled_catalog();

// Parses a table file ({"devices": [...]} / {"systems": [...]} / {"prices": [...]} /
// {"models": [...]}, or several at once) and adds its entries to `catalog`, replacing entries with
// the same id. Returns the problems found, each with its JSON path; entries with problems are
// skipped, the rest are added.
std::vector<Issue> merge_tables(Catalog& catalog, std::string_view json_text, bool user_supplied);

}  // namespace sizer
