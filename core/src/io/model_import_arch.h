// The architectures the Hugging Face config.json importer knows (sizer/io/model_import.h): how each
// model_type builds its decoder blocks, and the defaults its transformers config class gives a
// key that config.json leaves out. A config saved by transformers omits a key whose value is the
// class default (a nested text_config is written as its difference from the default sub-config:
// configuration_utils.py, to_diff_dict / recursive_diff_dict), so google/gemma-3-27b-it's
// text_config has no vocab_size; loading fills it from Gemma3TextConfig, and so does the importer.
// Sources: huggingface/transformers src/transformers/models/<type>/configuration_<type>.py, cited
// per row in model_import_arch.cpp.
#pragma once
#include <string>
#include <string_view>

namespace sizer::hf {

enum class Mlp { gated, plain };  // gate/up/down (SwiGLU, GeGLU): 3·h·f; fc1/fc2 (GPT-2, Phi): 2·h·f
// Which layers are mixture-of-experts layers (none: a dense architecture, its MoE keys unread).
enum class MoeLayers { none, every, qwen, deepseek, llama4 };
// Which layers attend through the sliding window when layer_types does not list them.
enum class Windows { none, every, alternate, pattern, qwen, qwen_moe };

struct Arch {
  const char* type;          // model_type
  const char* config_class;  // transformers' config class (for the note on applied defaults)
  Mlp mlp;
  MoeLayers moe;
  bool mla;  // DeepSeek's multi-head latent attention (kv_lora_rank, q_lora_rank, ...)
  Windows windows;
  const char* defaults;  // the class's defaults for the keys the importer reads, as a JSON object
};

// The language-model architecture named by model_type, or nullptr.
const Arch* find_arch(std::string_view model_type);
// A multimodal wrapper (gemma3, llama4, mistral3): the model_type of its text_config; else nullptr.
const char* wrapped_text_type(std::string_view model_type);
// Every model_type the importer accepts, wrappers included, comma-separated.
std::string known_model_types();

}  // namespace sizer::hf
