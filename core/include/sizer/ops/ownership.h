// Owning the devices instead of renting them, and the carbon of running them
// (core/src/ops/ownership.cpp and carbon.cpp have the sources).
#pragma once

namespace sizer::ownership {

constexpr double kHoursPerYear = 8760;
constexpr double kHoursPerMonth = kHoursPerYear / 12;

// Straight-line depreciation of the capital (device share of the system, network and storage
// added) over its service life, per device-hour.
double capital_usd_per_hour(double capex_usd_per_device, double network_storage_fraction, double years);
// Electricity: system W per device × PUE × $/kWh, per device-hour.
double power_usd_per_hour(double system_w_per_device, double pue, double usd_per_kwh);
// Facility (colocation): $/kW-month of IT load, per device-hour.
double facility_usd_per_hour(double system_w_per_device, double usd_per_kw_month);
// Operations (staff, support, spares) as a share of the capital per year, per device-hour.
double ops_usd_per_hour(double capex_usd_per_device, double network_storage_fraction, double fraction_per_year);
// Utilisation above which owning is cheaper than renting at `rent_usd_per_hour`: an owned device
// costs every hour; a rented one only the hours used.
double breakeven_utilisation(double owned_usd_per_hour, double rent_usd_per_hour);
// A device-year both ways (the break-even chart): owned, every hour whether used or not; rented,
// only the used share of the hours.
double owned_usd_per_year(double owned_usd_per_hour);
double rented_usd_per_year(double rent_usd_per_hour, double utilisation);

}  // namespace sizer::ownership

namespace sizer::carbon {

// kg CO2e of `energy_wh` at `g_per_kwh`.
double kg_co2e(double energy_wh, double g_per_kwh);
// Embodied emissions charged to a run: devices × kg per device × run days ÷ service-life days.
double embodied_kg_co2e(double devices, double kg_per_device, double days, double lifetime_years);

}  // namespace sizer::carbon
