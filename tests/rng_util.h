// Test helper: a deterministic generator for generated scenarios (splitmix64; Steele, Lea, Flood
// 2014), the same draws on every platform (std:: distributions are not).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace testutil {

struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double uniform(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(next() >> 11) * 0x1.0p-53; }
  std::size_t pick(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  template <class T> T pick(const std::vector<T>& v) { return v[pick(v.size())]; }
  bool chance(double p) { return uniform(0, 1) < p; }
};

}  // namespace testutil
