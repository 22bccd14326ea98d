// Owning against renting (see sizer/ops/ownership.h).
//
// Sources: the method is the usual total-cost-of-ownership split (capital depreciated straight
// line, power at the facility's PUE, colocation per kW of IT load, operations as a share of
// capital), as in SemiAnalysis's AI cloud TCO model and Uptime Institute's cost guides. The
// default prices, service lives and shares are in assets/operations.json with their sources.
#include "sizer/ops/ownership.h"

namespace sizer::ownership {

double capital_usd_per_hour(double capex, double nsf, double years) {
  return years > 0 ? capex * (1 + nsf) / (years * kHoursPerYear) : 0;
}

double power_usd_per_hour(double w, double pue, double usd_per_kwh) { return w / 1000 * pue * usd_per_kwh; }

double facility_usd_per_hour(double w, double usd_per_kw_month) { return w / 1000 * usd_per_kw_month / kHoursPerMonth; }

double ops_usd_per_hour(double capex, double nsf, double fraction) { return capex * (1 + nsf) * fraction / kHoursPerYear; }

double breakeven_utilisation(double owned, double rent) { return rent > 0 ? owned / rent : 0; }

double owned_usd_per_year(double owned) { return owned * kHoursPerYear; }

double rented_usd_per_year(double rent, double utilisation) { return rent * kHoursPerYear * utilisation; }

}  // namespace sizer::ownership
