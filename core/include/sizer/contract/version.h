// Version of the core and of the JSON contract it speaks.
#pragma once

namespace sizer {
constexpr const char* kVersion = "1.0.0";
constexpr const char* kContractVersion = "v1";
}  // namespace sizer
