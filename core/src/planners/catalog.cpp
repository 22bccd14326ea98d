// Catalog lookup by id and alias (see sizer/planners/catalog.h).
#include "sizer/planners/catalog.h"

namespace sizer {

namespace {

template <typename T>
const T* find_by_id(const std::vector<T>& v, std::string_view id) {
  for (const T& x : v) {
    if (x.id == id) return &x;
  }
  return nullptr;
}

template <typename T>
std::string ids(const std::vector<T>& v) {
  std::string out;
  for (const T& x : v) out += (out.empty() ? "" : ", ") + x.id;
  return out;
}

}  // namespace

const Device* Catalog::find_device(std::string_view id) const {
  if (const Device* d = find_by_id(devices, id)) return d;
  for (const auto& [alias, target] : device_aliases) {
    if (alias == id) return find_by_id(devices, target);
  }
  return nullptr;
}
const System* Catalog::find_system(std::string_view id) const { return find_by_id(systems, id); }
const PriceOffer* Catalog::find_price(std::string_view id) const { return find_by_id(prices, id); }
const Model* Catalog::find_model(std::string_view id) const { return find_by_id(models, id); }
std::string Catalog::device_ids() const { return ids(devices); }
std::string Catalog::system_ids() const { return ids(systems); }
std::string Catalog::price_ids() const { return ids(prices); }
std::string Catalog::model_ids() const { return ids(models); }
const FailureRates* Catalog::find_failure_rates(std::string_view id) const { return find_by_id(failure_rates, id); }
const CapitalCost* Catalog::find_capital(std::string_view id) const { return find_by_id(capital_costs, id); }
const CapitalCost* Catalog::capital_for_device(std::string_view device_id) const {
  for (const CapitalCost& x : capital_costs) {
    if (x.device == device_id) return &x;
  }
  return nullptr;
}
const GridIntensity* Catalog::find_grid(std::string_view id) const { return find_by_id(grids, id); }
std::string Catalog::grid_ids() const { return ids(grids); }
std::string Catalog::capital_ids() const { return ids(capital_costs); }

}  // namespace sizer
