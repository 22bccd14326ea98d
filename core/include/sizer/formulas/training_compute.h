// Training compute, time, cluster size and cost.
//
// Sources:
//  - Kaplan et al. 2020, "Scaling Laws for Neural Language Models", §2.1: C ≈ 6·N·D
//    (2N forward + 4N backward per token).
//  - Hoffmann et al. 2022 (Chinchilla): about 20 tokens per parameter is compute-optimal.
//  - Seed post Part 2 and "How to do this estimate", steps 3–5.
#pragma once
#include <cmath>
#include <limits>

namespace sizer::compute {

constexpr double kTrainFlopsPerParamToken = 6.0;  // 2 forward + 4 backward (Kaplan et al. 2020)
constexpr double kChinchillaTokensPerParam = 20.0;  // Hoffmann et al. 2022

// C = 6 · N_active · D.
double training_flops(double active_params, double tokens);

// Device hours = C ÷ (dense peak × MFU × 3600).
double device_hours(double flops, double dense_peak_flops, double mfu);

// Devices for a schedule: device hours ÷ (days × 24 × goodput), rounded up to whole devices.
double cluster_devices(double device_hours, double days, double goodput);

// A cluster size for a schedule no cluster meets (with predicted goodput, failures outpace the
// devices added): not a number, so every figure drawn from it is not defined either.
inline constexpr double kNotMeetable = std::numeric_limits<double>::quiet_NaN();
inline bool schedule_meetable(double cluster_devices) { return !std::isnan(cluster_devices); }

// Whole scale-up domains (NVL72 racks, 8-GPU servers, pods) needed for `devices`.
double scale_up_domains(double devices, double domain_size);

// Seconds for one optimizer step: 6·N_active·tokens_per_step ÷ (devices × peak × MFU).
double step_seconds(double active_params, double tokens_per_step, double devices,
                    double dense_peak_flops, double mfu);

// Achieved model FLOP/s per device implied by a reported run: 6·N·D ÷ device seconds.
double achieved_flops_per_device(double active_params, double tokens, double device_hours);

}  // namespace sizer::compute
