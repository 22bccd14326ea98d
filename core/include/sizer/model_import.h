// Importing a model from a Hugging Face `config.json` (issue 11 item 8): the text a user pastes,
// drops or picks (never fetched) becomes a v1 model object (docs/contract.md, `model`) with its
// parameter counts computed from the shape, for the common decoder architectures: Llama, Mistral,
// Mixtral, Qwen2/Qwen3 (dense and MoE), Gemma 2/3, DeepSeek-V2/V3 (MLA), gpt-oss, Llama 4 (the
// text model; nested `text_config` is read), GPT-2/GPT-NeoX-style dense blocks.
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

#include "sizer/issue.h"

namespace sizer {

struct ImportedModel {
  nlohmann::json model;            // a v1 model object ({"id": "imported", "name", "params", ...})
  std::string architecture;        // e.g. "LlamaForCausalLM", or the model_type
  std::string weight_precision;    // from quantization_config ("fp8", "fp4"), else ""
  std::vector<std::string> notes;  // what the importer assumed or left out
  std::vector<Issue> issues;       // why the text could not be imported (paths into config.json)
  bool ok() const { return issues.empty(); }
};

ImportedModel import_hf_config(std::string_view config_json);
// {"model", "architecture", "weight_precision", "notes"} or {"issues": [...]} (CLI and JS).
nlohmann::json imported_model_to_json(const ImportedModel& m);

}  // namespace sizer
