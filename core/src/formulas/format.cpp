// Display formatting (see format.h).
#include "sizer/formulas/format.h"

#include <cmath>
#include <cstdio>

namespace sizer::fmt {

namespace {

std::string sig(double v, int digits) {
  if (!std::isfinite(v)) return "—";
  if (v == 0) return "0";
  char buf[48];
  const int mag = static_cast<int>(std::floor(std::log10(std::fabs(v))));
  const int decimals = std::max(0, digits - 1 - mag);
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

struct Scale {
  double factor;
  const char* suffix;
};

std::string scaled(double v, const Scale* scales, int n, const char* unit, int digits = 3) {
  if (!std::isfinite(v)) return "—";
  const double a = std::fabs(v);
  for (int i = 0; i < n; ++i) {
    if (a >= scales[i].factor * 0.9995 || i == n - 1) {
      return sig(v / scales[i].factor, digits) + " " + scales[i].suffix + unit;
    }
  }
  return sig(v, digits) + " " + unit;
}

std::string grouped(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.0f", std::round(v));
  std::string s = buf, out;
  const bool neg = !s.empty() && s[0] == '-';
  if (neg) s = s.substr(1);
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i > 0 && (s.size() - i) % 3 == 0) out += ',';
    out += s[i];
  }
  return neg ? "-" + out : out;
}

const Scale kSi[] = {{1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}};

}  // namespace

std::string number(double v, int significant) { return sig(v, significant); }

std::string bytes(double b) { return scaled(b, kSi, 7, "B"); }
std::string bytes_per_s(double b) { return scaled(b, kSi, 7, "B/s"); }
std::string flops_per_s(double f) { return scaled(f, kSi, 7, "FLOP/s"); }

std::string flops(double f) {
  if (!std::isfinite(f)) return "—";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.2e FLOP", f);
  return buf;
}

std::string seconds(double s) {
  if (!std::isfinite(s)) return "—";
  const double a = std::fabs(s);
  if (a == 0) return "0 s";
  if (a < 1e-3) return sig(s * 1e6, 3) + " µs";
  if (a < 1) return sig(s * 1e3, 3) + " ms";
  if (a < 120) return sig(s, 3) + " s";
  if (a < 7200) return sig(s / 60, 3) + " min";
  if (a < 172800) return sig(s / 3600, 3) + " h";
  return sig(s / 86400, 3) + " days";
}

std::string usd(double v) {
  if (!std::isfinite(v)) return "—";
  const double a = std::fabs(v);
  if (a >= 1e9) return "$" + sig(v / 1e9, 3) + "B";
  if (a >= 1e6) return "$" + sig(v / 1e6, 3) + "M";
  if (a >= 1e4) return "$" + grouped(v);
  return "$" + sig(v, 3);
}

std::string watts(double w) { return scaled(w, kSi, 7, "W"); }
std::string energy_wh(double wh) { return scaled(wh, kSi, 7, "Wh"); }

std::string count(double n) {
  if (!std::isfinite(n)) return "—";
  const double a = std::fabs(n);
  if (a >= 1e15) {  // beyond "999T": scientific, e.g. "1.00e18"
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2e", n);
    std::string s = buf;
    const auto e = s.find("e+");
    if (e != std::string::npos) s.erase(e + 1, 1);  // "1.00e+18" → "1.00e18"
    return s;
  }
  if (a >= 1e12) return sig(n / 1e12, 3) + "T";
  if (a >= 1e9) return sig(n / 1e9, 3) + "B";
  if (a >= 1e6) return sig(n / 1e6, 3) + "M";
  if (n == std::floor(n)) return grouped(n);
  if (a >= 1000) return grouped(std::round(n));  // 625,852 h, not 625852
  return sig(n, 3);
}

std::string hours(double h) { return count(h) + " h"; }

std::string tonnes(double kg) { return count(std::round(kg / 1000)); }

std::string percent(double f) {
  if (!std::isfinite(f)) return "—";
  return sig(f * 100, f * 100 >= 10 ? 3 : 2) + "%";
}

}  // namespace sizer::fmt
