// JavaScript API (sizer.mjs): Embind bindings over the sizing core, for browsers and Node.
//   import createSizer from './sizer.mjs';
//   const sizer = await createSizer();
//   sizer.version();                      // "x.y.z"
//   sizer.trainingFlops(1e12, 20e12);     // 1.2e26
#include <emscripten/bind.h>

#include <string>

#include "placeholder_core.h"

namespace {
std::string version() { return sizer_placeholder::version(); }
}  // namespace

EMSCRIPTEN_BINDINGS(sizer) {
  emscripten::function("version", &version);
  emscripten::function("trainingFlops", &sizer_placeholder::training_flops);
}
