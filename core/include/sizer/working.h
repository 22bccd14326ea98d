// "Show the working": every result the core produces can say how it was computed.
//
// A Working record names a result by its path in the result JSON (e.g. "training.compute.flops"),
// gives the formula in symbols, the same formula with the values substituted, the result, and the
// source (paper, section or seed post part). Front ends show these on hover or in reports.
#pragma once
#include <string>
#include <vector>

namespace sizer {

struct Working {
  std::string path;         // where the value sits in the result JSON
  std::string formula;      // symbolic, e.g. "C = 6 · N_active · D"
  std::string substituted;  // e.g. "6 × 1e12 × 2e13 = 1.2e26 FLOP"
  std::string source;       // e.g. "Kaplan et al. 2020; seed post Part 2"
};

// Collects working records when enabled; does nothing (and allocates nothing) when disabled,
// so the fast path used by searches and benchmarks pays no formatting cost.
class WorkingLog {
 public:
  explicit WorkingLog(bool enabled) : enabled_(enabled) {}
  bool enabled() const { return enabled_; }
  void add(std::string path, std::string formula, std::string substituted, std::string source) {
    if (enabled_) {
      items_.push_back({std::move(path), std::move(formula), std::move(substituted),
                        std::move(source)});
    }
  }
  const std::vector<Working>& items() const { return items_; }
  std::vector<Working> take() { return std::move(items_); }

 private:
  bool enabled_;
  std::vector<Working> items_;
};

// Compact number for working strings: 4 significant digits, exponent form when large or small.
std::string num(double value);

}  // namespace sizer
