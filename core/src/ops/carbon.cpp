// Carbon (see sizer/ops/ownership.h).
//
// Sources: operational emissions are energy × the grid's location-based intensity (GHG Protocol
// Scope 2 guidance, 2015), the method of Patterson et al. 2021 ("Carbon Emissions and Large Neural
// Network Training") and Luccioni et al. 2022 (BLOOM); embodied emissions are amortised over the
// service life as in Luccioni et al. 2022 §4. Intensities are in assets/operations.json.
#include "sizer/ops/ownership.h"

namespace sizer::carbon {

double kg_co2e(double energy_wh, double g_per_kwh) { return energy_wh / 1000 * g_per_kwh / 1000; }

double embodied_kg_co2e(double devices, double kg_per_device, double days, double lifetime_years) {
  return lifetime_years > 0 ? devices * kg_per_device * days / (lifetime_years * 365) : 0;
}

}  // namespace sizer::carbon
