// Human-readable formatting at the edges (CLI text reports, the web UI). Pure functions.
//
// Decimal units throughout (1 GB = 1e9 bytes, 1 TB = 1e12), matching vendor datasheets and the
// seed post; GiB is only ever shown when labelled as such.
#pragma once
#include <string>

namespace sizer::fmt {

std::string bytes(double b);           // "16.0 TB", "5.14 GB", "734 MB"
std::string bytes_per_s(double b);     // "576 TB/s", "50.0 GB/s"
std::string flops(double f);           // "1.20e26 FLOP"
std::string flops_per_s(double f);     // "2.50 PFLOP/s"
std::string seconds(double s);         // "2.93 ms", "75.3 s", "62.9 days"
std::string usd(double v);             // "$128M", "$5.97", "$1.2B"
std::string watts(double w);           // "32.7 MW", "1.79 kW"
std::string energy_wh(double wh);      // "63.6 GWh"
std::string count(double n);           // "15,242", "29.6M", "1.2B"
std::string hours(double h);           // "29.6M h"
std::string tonnes(double kg);         // kilograms as whole tonnes, no unit: 15,131,000 kg → "15,131"
std::string percent(double fraction);  // "45%", "0.21%"
std::string number(double v, int significant = 3);

}  // namespace sizer::fmt
