// Training memory: model state (ZeRO accounting) and activations (Korthikanti et al. 2022).
//
// Sources:
//  - Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training Trillion Parameter
//    Models", §3.1 (2Ψ + 2Ψ + KΨ, K = 12 for mixed-precision Adam) and §5 (stages 1–3).
//  - Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models",
//    §4 eq. (1)–(5) and Table 2: per-layer activation bytes s·b·h·(34 + 5·a·s/h) in 16-bit.
//  - Korthikanti et al. 2022 §4.3: the output layer's logits are kept in 32-bit for the
//    cross-entropy loss, 4·s·b·V/t bytes, on the last pipeline stage.
//  - The same per-tensor count applied to gated (SwiGLU, Shazeer 2020: three MLP matrices) and
//    GQA/MLA blocks without dropout (Llama 3, Grattafiori et al. 2024 §3.2), and to recompute
//    policies as frameworks implement them: torchtitan's per-op selective activation
//    checkpointing (torchtitan parallelize_llama.py, `_save_list` and `_custom_policy`: "saves
//    output of all compute ops, except every second mm", the attention output included; Liang et
//    al. 2025, "TorchTitan", ICLR) and full checkpointing (only each layer's input is kept).
//  - Seed post Part 1 ("Training memory").
#pragma once
#include "sizer/formulas/model.h"
#include "sizer/formulas/training_options.h"

namespace sizer::memory {

// Bytes per parameter of the accounting: weights, gradients and optimizer state.
struct StateAccounting {
  double weight_bytes;
  double grad_bytes;
  double optimizer_bytes;
  double total() const { return weight_bytes + grad_bytes + optimizer_bytes; }
};
StateAccounting accounting(Optimizer o);
// The optimizer's split scaled so its total is `bytes_per_param` (a user's override).
StateAccounting accounting(Optimizer o, double bytes_per_param);

// Whole training state: params × bytes per parameter.
double state_bytes(double params, double bytes_per_param);

// Smallest device count whose memory (× usable fraction) holds `bytes`.
double min_devices(double bytes, double device_memory_bytes, double usable_fraction);

// Parameters one device holds after model-parallel sharding: tp·pp for the dense part, and
// expert_tp·pp·ep for routed experts (expert_tp 0 = tp; Megatron-Core expert tensor parallelism).
// Used for memory, the gradient all-reduce and checkpoints alike.
double model_parallel_shard_params(double params, double routed_expert_params, double tp, double pp,
                                   double ep, double expert_tp = 0);

// Model state per device after model-parallel sharding and ZeRO sharding over `zero_group`
// (layout_zero_group in training_options.h). `acc` is scaled so its total equals bytes_per_param.
double state_bytes_per_device(double params, double routed_expert_params, const StateAccounting& acc,
                              double tp, double pp, double zero_group, double ep, int zero_stage,
                              double expert_tp = 0);

// Activation bytes of one transformer layer for one micro-batch (Korthikanti Table 2).
double activation_bytes_per_layer(double seq_len, double micro_batch, double hidden, double heads,
                                  double tp, bool sequence_parallel, Recompute recompute);

// Shape of one transformer layer as the activation count needs it, in multiples of the model
// width h. A GPT block (Korthikanti's model: 4h GELU MLP, MHA, dropout) is q = k = v = o = 1,
// mlp_in = 4 (fc1 output), mlp_mid = 4 (GELU output), dropout = true.
struct LayerShape {
  double q = 1, k = 1, v = 1, o = 1;  // query, key, value and attention-output widths ÷ h
  double mlp_in = 4;                  // first MLP matmul output(s) ÷ h: 4h GELU; 2f/h gated
  double mlp_mid = 4;                 // activation output (the last matmul's input) ÷ h
  double mlp_first = 4;               // the first MLP matmul's output alone ÷ h
  double mlp_copies = 1;              // h-wide inputs of the MLP's first GEMMs: k routed (+1 shared) in a MoE layer
  double mlp_dense = 4;               // the non-routed MLP's width ÷ h (ffn_hidden: dense layers, shared experts)
  bool gated = false;                 // SwiGLU: the down projection is a 7th matmul per layer
  bool dropout = true;                // dropout masks (1 byte per element, two per layer); training.dropout overrides
  bool gpt = true;                    // exactly Korthikanti's block: Table 2 applies as printed
};
LayerShape layer_shape(const Model& m);

// Which activations a layer keeps for its backward pass.
enum class Keep {
  all,            // everything, attention scores included (no recompute, no flash attention)
  no_scores,      // everything but the s×s scores (Korthikanti selective, or flash attention)
  per_op,         // torchtitan per-op selective AC: layer input, every other matmul output, attention output
  layer_input,    // full checkpointing: only the layer's input
};
// The policy a layout's recompute and flash-attention settings mean for a layer of this shape:
// selective recompute on a GPT block is Korthikanti's; on a modern (gated, GQA) block it is the
// per-op policy of the PyTorch stacks that publish such runs.
Keep keep_policy(const LayerShape& shape, Recompute recompute, bool flash_attention);

// Activation bytes of one layer for one micro-batch under `keep`. For a GPT block with
// Keep::all / no_scores / layer_input this is Korthikanti Table 2 exactly.
// `gemm_input_bytes` is what each element of a saved linear-layer input costs: the QKV and MLP-in
// inputs (the norms' outputs), the attention output (the output projection's input) and the
// down projection's input. 2 in a 16-bit run; Transformer Engine keeps an FP8 or FP4 run's
// quantized copy of these for the weight-gradient GEMM instead of the 16-bit tensor
// (low_precision.h, saved_gemm_input_bytes).
double activation_bytes_per_layer(const LayerShape& shape, double seq_len, double micro_batch, double hidden,
                                  double heads, double tp, bool sequence_parallel, Keep keep,
                                  double gemm_input_bytes = 2.0);

// A layer's input, the tensor full recompute keeps (2·s·b·h in 16-bit, ÷ t under SP).
double layer_input_bytes(double seq_len, double micro_batch, double hidden, double tp, bool sequence_parallel);

// Output layer of the last pipeline stage for one micro-batch (Korthikanti §4.3): 32-bit logits
// 4·s·b·V/t plus the final norm's and the projection's 16-bit inputs, 4·s·b·h (÷ t under SP). A
// loss computed in `tiles` chunks along batch × sequence (MaxText num_vocab_tiling) holds one
// chunk's logits at a time: the 32-bit part ÷ tiles.
double logits_bytes(double seq_len, double micro_batch, double hidden, double vocab, double tp,
                    bool sequence_parallel, double tiles = 1);

// First pipeline stage under 1F1B: it holds min(p, m) micro-batches of L/p layers each, which for
// m ≥ p adds up to all L layers of one micro-batch (Korthikanti §4.2.3).
double activation_bytes_first_stage(double per_layer, double layers, double pp,
                                    double microbatches_per_pipeline);

}  // namespace sizer::memory
