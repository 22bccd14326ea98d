// Importing a model from a Hugging Face `config.json`: the text a user pastes, drops or picks
// (never fetched, at most 1 MiB) becomes a v1 model object (docs/contract.md, `model`) with its
// parameter counts computed from the shape. Known model_types (core/src/io/model_import_arch.cpp):
// llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, gemma, gemma2, gemma3_text,
// deepseek_v2, deepseek_v3 (MLA), gpt_oss, llama4_text, gpt2, gpt_neox, gptj, opt, phi; the
// multimodal wrappers gemma3, llama4 and mistral3 are read through their text_config (the vision
// encoder is left out). Any other model_type, or none, is refused at `model_type`.
//
// A key the config leaves out takes its transformers config class's default (Gemma 3's
// vocab_size 262,208 and sliding_window_pattern 6, Gemma's head_dim 256, each class's
// tie_word_embeddings, ...; the size keys only inside a nested text_config), and a note lists them.
// Values outside what a v1 model accepts are refused naming the config key (docs/contract.md,
// "Importing a Hugging Face config.json").
//
//   sizer::ImportedModel m = sizer::import_hf_config(text);
//   if (m.ok()) scenario["model"] = m.model;   // m.notes says what was assumed
//
// Pure: text in, JSON out. core/src/io/model_import.cpp has the counting rules and their sources.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "sizer/contract/issue.h"

namespace sizer {

struct ImportedModel {
  nlohmann::json model;            // a v1 model object ({"id": "imported", "name", "params", ...})
  std::string architecture;        // e.g. "LlamaForCausalLM", or the model_type
  std::string weight_precision;    // from quantization_config ("fp8", "fp4"), else ""
  std::vector<std::string> notes;  // what the importer assumed or left out
  std::vector<Issue> issues;       // why the text could not be imported (paths into config.json:
                                   // "num_key_value_heads", "text_config.vocab_size", "" = the whole)
  bool ok() const { return issues.empty(); }
};

ImportedModel import_hf_config(std::string_view config_json);
// {"model", "architecture", "weight_precision", "notes"} or {"issues": [...]} (CLI and JS).
nlohmann::json imported_model_to_json(const ImportedModel& m);

}  // namespace sizer
