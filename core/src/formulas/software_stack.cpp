// Training software stacks (sizer/formulas/training_options.h, SoftwareStack): efficiency relative to a
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
//    sits at the range's top (1.0), i.e. the fit found no attention penalty on TPUs. Its MoE
//    dispatch (permute_scale) comes from one published A/B of expert granularity, below.
#include <vector>

#include "sizer/formulas/training_options.h"

namespace sizer {

namespace {

// FlashAttention-2's tiles on the GPU stacks: SoftwareStack's default (sizer/formulas/training_options.h).
const AttentionBlocks kFlashTiles = SoftwareStack{}.attention_blocks;

const SoftwareStack kStacks[] = {
    // Transformer Engine's linears save the quantized input for the weight-gradient GEMM;
    // interleaved pipelines overlap their send/recv with compute (overlap_p2p_comm: Megatron-LM
    // megatron/training/arguments.py keeps it on whenever virtual stages are set; NeMo's
    // MegatronGPT config and MLPerf's NeMo configs, conf/custom.yaml, default it to True).
    {"megatron", 1.0, kFlashAttention2H100, 0.0, 1.0, 1.0, true, true, false, "", 0, kFlashTiles},
    // torchao's float8 linears keep the 16-bit input and weight and cast again in the backward
    // (torchao/float8/float8_linear.py, matmul_with_hp_or_float8_args:
    // ctx.save_for_backward(input_hp, weight_hp_t)).
    {"pytorch", 2.328, 0.2306, 786.7e-6, 1.0, 1.0, false, false, false, "", 0, kFlashTiles},
    // The pytorch stack without torch.compile: memory-bound scale fitted on torchtitan's two eager
    // rows (2024-12 Tables 1 and 3); attention and per-layer overhead kept from pytorch; the casts
    // unfused by the same factor as the other elementwise work (5.305 ÷ 2.328, an assumption: no
    // published eager FP8 run to fit it on).
    {"pytorch_eager", 5.305, 0.2306, 786.7e-6, 5.305 / 2.328, 1.0, false, false, false, "", 0, kFlashTiles},
    // XLA's dropless MoE dispatch on TPUs (MaxText sparse_matmul: argsort of the routed copies, a
    // row gather before the grouped GEMM and a scatter after it) runs far below HBM speed:
    // permute_scale 17.8 reproduces MaxText issue #1256 (github.com/AI-Hypercomputer/maxtext/issues/1256,
    // 2025-02-09): Mixtral 8x7B without attention on a v5p-64 at 50.4% MFU with 8 experts top-2
    // (expert FFN 14,336) and 28% with 56 experts top-14 (FFN 2,048; same total and active
    // parameters; 25–28% over tile sizes, slice sizes and batch sizes). At permute_scale 1 the
    // model gives 45% for the second shape; 17.8 gives 28.2% and 27.9% at 8 and 16 sequences per
    // chip. Derived on that issue alone (tests/test_moe_dispatch.cpp). Re-derived on 2026-12-03
    // (16.2 → 17.1) when the v5p's GEMM efficiency was refitted (0.95 → 0.8935): the A/B runs on a
    // v5p, so the scale follows the chip's fit; and on 2026-12-06 (17.1 → 17.8) when the grouped
    // GEMM's tile visits were charged (gmm_tile_rows 512: MaxText's default m-tile), which both
    // shapes pay alike at the same tokens per expert. Other TPUs run it at their own multiple
    // (efficiency.dispatch_vs_stack, fitted where a published run exists).
    // Splash attention's blocks: MaxText's default sa_block_* (configs/base.yml, read at e591f30c).
    {"jax", 1.291, 1.0, 0.0, 1.0, 17.8, false, false, true, "tpu-v5p", 512, {512, 512, 512, 512}},
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
