// libFuzzer target for the bounded JSON parser itself (json_safe.h): whatever it accepts,
// nlohmann accepts too and reads the same (so no duplicate keys slipped through), nested at most
// kMaxJsonDepth deep; whatever it refuses comes with a printable message.
#include <algorithm>
#include <cstdint>
#include <string_view>

#include "fuzz_common.h"
#include "sizer/contract/json_safe.h"

namespace {

int depth(const nlohmann::json& j) {
  int d = 0;
  if (j.is_structured()) {
    for (const auto& x : j) d = std::max(d, depth(x));
    return d + 1;
  }
  return 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const sizer::JsonDocument d = sizer::parse_json(text, 1 << 16);
  if (!d.ok()) {
    if (!fuzz::safe_text(d.error) || !d.value.is_null()) std::abort();
    return 0;
  }
  if (text.find('\0') != std::string_view::npos) std::abort();
  if (!nlohmann::json::accept(text)) std::abort();
  if (depth(d.value) > sizer::kMaxJsonDepth) std::abort();
  if (nlohmann::json::parse(text, nullptr, false) != d.value) std::abort();  // same value: no key lost
  (void)d.value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return 0;
}
