// The catalog: devices, systems, price offers and model presets.
//
// The tables are loaded by sizer/contract/catalog_load.h (bundled_catalog, merge_tables); the
// planners only read them. Lookups accept ids and aliases ("h100", "h100-sxm").
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sizer/formulas/hardware.h"
#include "sizer/formulas/model.h"
#include "sizer/ops/operations.h"

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

}  // namespace sizer
