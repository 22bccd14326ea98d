// Training software stacks (sizer/scenario.h, SoftwareStack): efficiency relative to a
// Megatron-Core-class stack. Values and the runs they were fitted on: docs/validation.md,
// "Software stacks".
//  - megatron: Megatron-LM / Megatron-Core and stacks like it (fused bias-GeLU/SwiGLU, fused
//    layer norm and softmax, flash attention): the reference; the chip's parameters apply as they
//    are (the A100's were fitted on Korthikanti et al. 2022, a Megatron stack).
//  - pytorch: PyTorch-native FSDP stacks (torchtitan, LLM Foundry, torchao): elementwise work runs
//    as torch.compile or eager kernels that move activations more often; a fixed per-layer cost
//    for hooks, launches and the FSDP traffic the model does not yet expose. Fitted (22 runs
//    marked calibrate: torchtitan 2024-12, LLM Foundry H100, IBM fms-fsdp 2024-02) on 2026-12-01.
//  - pytorch_eager: the same stacks without torch.compile: every elementwise op its own kernel,
//    so activations and the FP8 casts go through HBM more often. Fitted on torchtitan's two
//    eager rows of 2024-12 (Tables 1 and 3) on 2026-12-01.
//  - jax: XLA-compiled stacks (MaxText, PaLM's T5X/Pathways). Fitted on the 9 MaxText runs marked
//    calibrate (TPU v5p and v6e recipes, Mixtral on v6e) on 2026-12-01; its attention efficiency
//    sits at the range's top (1.0), i.e. the fit found no attention penalty on TPUs.
#include <vector>

#include "sizer/scenario.h"

namespace sizer {

namespace {

const SoftwareStack kStacks[] = {
    {"megatron", 1.0, 0.0, 0.0},
    {"pytorch", 2.328, 0.2306, 786.7e-6},
    // The pytorch stack without torch.compile: memory-bound scale fitted on torchtitan's two eager
    // rows (2024-12 Tables 1 and 3); attention and per-layer overhead kept from pytorch; the casts
    // unfused by the same factor as the other elementwise work (5.305 ÷ 2.328, an assumption: no
    // published eager FP8 run to fit it on).
    {"pytorch_eager", 5.305, 0.2306, 786.7e-6, 5.305 / 2.328},
    {"jax", 1.291, 1.0, 0.0},
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
