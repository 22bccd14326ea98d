// "Show the working": every result the core produces can say how it was computed.
//
// A Working record names a result by its path in the result JSON (e.g. "training.compute.flops"),
// gives the formula in symbols, the same formula with the values substituted, the result, and the
// source (paper, section or seed post part). Front ends show these on hover or in reports.
#pragma once
#include <string>
#include <type_traits>
#include <vector>

#include "sizer/formulas/apart.h"

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

// Runs `write` (which records working into `w`) only when working is recorded, and as a function of
// its own (apart.h): the strings that show the working are most of an evaluation's code, and kept
// apart from the numbers they stay off the numbers-only path (searches, the compare view; in a
// browser, the first frame).
template <class F>
void run_working(F& write) {
  write();
}
template <class F>
void write_working(const WorkingLog& w, F&& write) {
  if (w.enabled()) call_apart(&run_working<std::remove_reference_t<F>>, write);
}

// Compact number for working strings: 4 significant digits, exponent form when large or small.
std::string num(double value);

}  // namespace sizer
