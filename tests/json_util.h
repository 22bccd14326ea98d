// Test helper: true when no number anywhere in the JSON document is NaN or infinite.
#pragma once
#include <cmath>
#include <nlohmann/json.hpp>

namespace testutil {

inline bool all_finite(const nlohmann::json& j) {
  if (j.is_number_float()) return std::isfinite(j.get<double>());
  if (j.is_structured()) {
    for (const nlohmann::json& x : j) {
      if (!all_finite(x)) return false;
    }
  }
  return true;
}

}  // namespace testutil
