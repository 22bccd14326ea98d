// Power and energy of a cluster.
//
// Seed post Part 6: IT power = devices × system watts per device; facility power = IT × PUE;
// energy = device hours × system watts × PUE. Blackwell proxy 14.3 kW ÷ 8 per GPU (DGX B200),
// H100 700 W × 1.5 (assumption), PUE 1.2 (assumption).
#pragma once

namespace sizer::power {

double it_power_w(double devices, double system_w_per_device);
double facility_power_w(double it_power_w, double pue);
double energy_wh(double device_hours, double system_w_per_device, double pue);

}  // namespace sizer::power
