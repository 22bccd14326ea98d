// call_apart: calls a function so that it stays a function of its own in the WebAssembly.
//
// A function called from one place is inlined into its caller (by LLVM at link time, then again by
// wasm-opt, whatever its size), and a browser compiles each WebAssembly function whole the first
// time it runs (lazy compilation). Code the first frame does not run (a closed dialog, a view not
// shown, the working strings of an evaluation) then still costs compile time before the first
// frame, about 0.14 ms per KB on the development machine (docs/budgets.md). Called through a pointer the optimizers cannot see
// through, the callee is compiled only when it is first called; guard the call with the cheap test
// (is the dialog open?) at the call site, or the callee is compiled anyway.
#pragma once

#include <utility>

namespace sizer {

template <class F, class... A>
decltype(auto) call_apart(F* f, A&&... args) {
  F* volatile apart = f;  // read back through a volatile: the target is unknown to the optimizers
  return apart(std::forward<A>(args)...);
}

}  // namespace sizer
