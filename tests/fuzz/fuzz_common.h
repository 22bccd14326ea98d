// Checks shared by the libFuzzer targets: results are finite, and every message a parser returns
// is non-empty, valid UTF-8 and free of control bytes (user text is echoed escaped).
#pragma once
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "sizer/sizer.h"

namespace fuzz {

// Depth-bounded: only called on documents the core built (at most kMaxJsonDepth levels).
inline bool all_finite(const nlohmann::json& j) {
  if (j.is_number_float()) return std::isfinite(j.get<double>());
  if (j.is_structured()) {
    for (const auto& x : j) {
      if (!all_finite(x)) return false;
    }
  }
  return true;
}

inline bool safe_text(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7F) return false;
    const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

// Aborts (a finding) when a message is empty or unsafe to print.
inline void check_issues(const std::vector<sizer::Issue>& issues) {
  for (const sizer::Issue& i : issues) {
    if (i.message.empty() || !safe_text(i.message) || !safe_text(i.path)) std::abort();
  }
}

}  // namespace fuzz
