// The JSON tables from assets/, compiled into the binary by assets/embed.cmake.
// Usage: for (const auto& a : sizer::bundled_assets()) parse(a.name, {a.data, a.size});
#pragma once
#include <cstddef>
#include <vector>

namespace sizer {

struct BundledAsset {
  const char* name;  // file name in assets/, e.g. "devices.json"
  const char* data;  // UTF-8 JSON text (not NUL-terminated in the count below)
  std::size_t size;  // bytes
};

const std::vector<BundledAsset>& bundled_assets();

}  // namespace sizer
