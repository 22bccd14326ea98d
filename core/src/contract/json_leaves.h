// Internal: how result and record leaves are written (result_json.cpp, result_ops_json.cpp,
// records.cpp): a finite number, or null for a value that is not defined (result_nulls.cpp says
// why); lists element by element.
// Objects are built field by field with json_object (sizer/contract/json_object.h).
#pragma once
#include <cmath>
#include <nlohmann/json.hpp>
#include <vector>

#include "sizer/contract/json_object.h"

namespace sizer::detail {

inline nlohmann::json num_or_null(double v, bool defined = true) {
  return (defined && std::isfinite(v)) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

inline nlohmann::json list(const std::vector<double>& v) {
  nlohmann::json a = nlohmann::json::array();
  for (double x : v) a.push_back(num_or_null(x));
  return a;
}

inline nlohmann::json list_or_null(const std::vector<double>& v, bool defined) {
  return defined ? list(v) : nlohmann::json(nullptr);
}

}  // namespace sizer::detail
