// Training compute, cluster size and cost (sources in training_compute.h).
#include "sizer/formulas/training_compute.h"

#include <cmath>

#include "sizer/formulas/units.h"

namespace sizer::compute {

double training_flops(double active_params, double tokens) {
  return kTrainFlopsPerParamToken * active_params * tokens;
}

double device_hours(double flops, double dense_peak_flops, double mfu) {
  return flops / (dense_peak_flops * mfu * kSecondsPerHour);
}

double cluster_devices(double device_hours, double days, double goodput) {
  return ceil_count(device_hours / (days * kHoursPerDay * goodput));
}

double scale_up_domains(double devices, double domain_size) {
  return ceil_count(devices / domain_size);
}

double step_seconds(double active_params, double tokens_per_step, double devices,
                    double dense_peak_flops, double mfu) {
  return kTrainFlopsPerParamToken * active_params * tokens_per_step /
         (devices * dense_peak_flops * mfu);
}

double achieved_flops_per_device(double active_params, double tokens, double device_hours) {
  return training_flops(active_params, tokens) / (device_hours * kSecondsPerHour);
}

}  // namespace sizer::compute
