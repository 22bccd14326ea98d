// Power and energy (sources in power.h).
#include "sizer/formulas/power.h"

namespace sizer::power {

double it_power_w(double devices, double system_w_per_device) {
  return devices * system_w_per_device;
}
double facility_power_w(double it_power_w, double pue) { return it_power_w * pue; }
double energy_wh(double device_hours, double system_w_per_device, double pue) {
  return device_hours * system_w_per_device * pue;
}

}  // namespace sizer::power
