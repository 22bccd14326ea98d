// Units and named constants shared by the whole core.
//
// One stored unit per dimension: bytes, FLOP, seconds, USD, watts, watt-hours. Values are plain
// doubles whose names carry the unit (memory_bytes, hbm_bytes_per_s, dense_flops). Conversions to
// display units (GB, TB, MW, $M) happen only at the edges, in format.h.
#pragma once

namespace sizer {

// Decimal and binary byte multiples. Vendors print GB (1e9); Google's TPU docs print GiB (2^30).
constexpr double kKB = 1e3;
constexpr double kMB = 1e6;
constexpr double kGB = 1e9;
constexpr double kTB = 1e12;
constexpr double kGiB = 1073741824.0;

constexpr double kSecondsPerHour = 3600.0;
constexpr double kHoursPerDay = 24.0;
constexpr double kSecondsPerDay = 86400.0;
constexpr double kBitsPerByte = 8.0;

// Numeric precisions the calculator knows, with their storage size.
enum class Precision { fp32, bf16, fp16, fp8, fp4 };

constexpr double bytes_per_value(Precision p) {
  switch (p) {
    case Precision::fp32: return 4.0;
    case Precision::bf16: return 2.0;
    case Precision::fp16: return 2.0;
    case Precision::fp8: return 1.0;
    case Precision::fp4: return 0.5;
  }
  return 0.0;
}

// Whole count of things (devices, domains, replicas) needed for a fractional requirement x ≥ 0:
// ⌈x⌉, except that x within 1e-9 *absolute* of a whole number is that number, so FP noise in
// exact multiples (16 TB on 80 GB = 200.0000000001) does not add a device; 0 < x < 1 gives 1. An absolute tolerance
// never undercounts large counts: above 2^53 every double is whole and ⌈x⌉ = x.
double ceil_count(double x);

const char* to_string(Precision p);
// Parses "fp32" | "bf16" | "fp16" | "fp8" | "fp4"; returns false for anything else.
bool parse_precision(const char* text, Precision* out);

}  // namespace sizer
