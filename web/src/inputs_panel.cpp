// The inputs panel (see inputs_panel.h): the model, hardware and price, training, layout,
// serving and power blocks, built from the field kit in input_fields.h.
#include "inputs_panel.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "input_fields.h"
#include "ops_inputs.h"
#include "scenario_edit.h"

namespace sizer_web {
namespace {

using nlohmann::json;

constexpr const char* kPrecisionNames[] = {"fp32", "bf16", "fp16", "fp8", "fp4"};
constexpr const char* kUserMark = "  · user-supplied";

}  // namespace

namespace {

void precision_field(Ui& ui, const char* label, const std::string& path, bool check_device, const char* help) {
  std::vector<Choice> choices;
  for (const char* n : kPrecisionNames) {
    sizer::Precision p{};
    sizer::parse_precision(n, &p);
    std::string upper = n;
    for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
    Choice c{n, upper};
    if (check_device && ui.sc().device.dense_flops(p) <= 0) {
      c.label += "  (no dense path on this device)";
      c.enabled = false;
    }
    choices.push_back(c);
  }
  const int i = combo_field(ui, label, path, choices, input_string(ui.state, path), help);
  if (i >= 0) {
    set_input(ui.state, path, choices[i].value);
    // FP8 attention runs only inside an FP8/FP4 recipe: leaving one drops it in the same edit, so
    // the scenario never carries a setting the contract refuses (training.fp8_attention).
    if (path == "training.precision" && choices[i].value != "fp8" && choices[i].value != "fp4") {
      clear_input(ui.state, "training.fp8_attention");
    }
  }
}

}  // namespace

namespace {

// [SECTION] Blocks
void model_block(Ui& ui) {
  if (!block_header(ui, "Model")) return;
  const sizer::Catalog& cat = ui.state.share.catalog;
  const json* draft_model = ui.state.editor.draft.contains("model") ? &ui.state.editor.draft["model"] : nullptr;
  const bool modified = draft_model && draft_model->is_object() && draft_model->size() > 1;
  std::vector<Choice> models;
  for (const sizer::Model& m : cat.models) {
    models.push_back({m.id, m.user_supplied ? m.name + kUserMark : m.name, true, m.user_supplied});
  }
  std::string current = ui.sc().model.id;
  if (draft_model && draft_model->is_object() && draft_model->contains("preset")) {
    current = (*draft_model)["preset"].get<std::string>();
  }
  for (Choice& c : models) {
    if (c.value == current && modified) c.label += " (edited)";
  }
  const int pick = combo_field(ui, "Preset", "model", models, current, "A published model shape. Every "
                               "field below can be changed; the preset stays the starting point.");
  if (pick >= 0) choose_model(ui.state, models[pick].value);

  const bool moe = ui.sc().model.moe.enabled();
  note_input(ui, "model.moe", "Kind", moe ? "Mixture of experts" : "Dense");
  field_label(ui, "Kind", nullptr);
  ImGui::SameLine(label_width(ui));
  if (ImGui::RadioButton("Dense", !moe) && moe) set_moe(ui.state, false);
  note_rect(ui, "radio:dense");
  // The second choice beside the first, as "MoE" when its full name has no room there, else under
  // the first at the input column.
  auto radio_w = [](const char* text) {
    return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(text).x;
  };
  const bool full = fits_after_last_item(radio_w("Mixture of experts"));
  const char* moe_label = full ? "Mixture of experts##moe" : "MoE##moe";
  if (full || fits_after_last_item(radio_w("MoE"))) {
    ImGui::SameLine();
  } else {
    ImGui::SetCursorPosX(label_width(ui));
  }
  if (ImGui::RadioButton(moe_label, moe) && !moe) set_moe(ui.state, true);
  if (!full && ImGui::IsItemHovered()) ImGui::SetTooltip("Mixture of experts");
  note_rect(ui, "radio:moe");

  number_field(ui, {"model.params", "Total parameters", 1e9, "B", false, "N_total: every weight held in memory."});
  if (moe) {
    number_field(ui, {"model.active_params", "Active parameters", 1e9, "B", false,
                      "N_active: parameters used per token (sets FLOPs)."});
  }
  number_field(ui, {"model.layers", "Layers", 1, "", true, nullptr});
  number_field(ui, {"model.hidden", "Hidden size", 1, "", true, "Model width h."});
  number_field(ui, {"model.heads", "Attention heads", 1, "", true, nullptr});

  const std::vector<Choice> kinds = {{"mha", "Multi-head (MHA)"}, {"gqa", "Grouped-query (GQA)"},
                                     {"mla", "Multi-head latent (MLA)"}};
  const std::string kind = input_string(ui.state, "model.attention.type");
  const int k = combo_field(ui, "Attention", "model.attention.type", kinds, kind,
                            "Sets the KV cache per token: 2·L·kv_heads·head_dim·bytes for MHA/GQA, "
                            "L·(kv_latent + rope_dim)·bytes for MLA.");
  if (k >= 0 && kinds[k].value != kind) {
    const double head_dim = input_number(ui.state, "model.hidden") / std::max(1.0, input_number(ui.state, "model.heads"));
    if (kinds[k].value == "mha") set_input(ui.state, "model.attention", json{{"type", "mha"}});
    if (kinds[k].value == "gqa") {
      set_input(ui.state, "model.attention", json{{"type", "gqa"}, {"kv_heads", 8}, {"head_dim", std::round(head_dim)}});
    }
    if (kinds[k].value == "mla") {
      set_input(ui.state, "model.attention", json{{"type", "mla"}, {"kv_latent", 512}, {"rope_dim", 64}});
    }
  }
  if (kind == "gqa") {
    number_field(ui, {"model.attention.kv_heads", "KV heads", 1, "", true, nullptr});
    number_field(ui, {"model.attention.head_dim", "Head dimension", 1, "", true, nullptr});
  } else if (kind == "mla") {
    number_field(ui, {"model.attention.kv_latent", "KV latent width", 1, "", true, nullptr});
    number_field(ui, {"model.attention.rope_dim", "RoPE key width", 1, "", true, nullptr});
  }
  if (moe) {
    number_field(ui, {"model.moe.experts", "Routed experts", 1, "per layer", true, nullptr});
    number_field(ui, {"model.moe.experts_per_token", "Experts per token", 1, "", true,
                      "Routed experts each token is sent to (top-k routing), a plain count."});
    number_field(ui, {"model.moe.shared_experts", "Shared experts", 1, "per layer", true,
                      "Always-active experts in each MoE layer, each as wide as a routed expert; a wider shared "
                      "MLP counts as its width ÷ the experts' (Qwen2-57B-A14B's 20,480 over 2,560: 8)."});
    number_field(ui, {"model.moe.moe_layers", "MoE layers", 1, "", true, nullptr});
    checkbox_field(ui, "model.moe.expert_bias", "Expert biases",
                   "The routed experts' linear layers carry biases (gpt-oss). A stack that gathers them for "
                   "every routed copy (JAX / XLA, MaxText's transform_bias) moves k·(2·f + h) more elements "
                   "per token in its dispatch; copy-kernel stacks add them inside the GEMM.");
    field_issues(ui, "model.moe.expert_bias");
  }
}

void hardware_block(Ui& ui) {
  if (!block_header(ui, "Hardware and price")) return;
  const sizer::Catalog& cat = ui.state.share.catalog;
  const sizer::Device& dev = ui.sc().device;
  std::vector<Choice> devices;
  bool listed = false;
  for (const sizer::Device& d : cat.devices) {
    devices.push_back({d.id, d.user_supplied ? d.name + kUserMark : d.name, true, d.user_supplied});
    listed = listed || d.id == dev.id;
  }
  if (!listed) devices.push_back({dev.id, dev.name + (dev.user_supplied ? kUserMark : ""), true, dev.user_supplied});
  const int d = combo_field(ui, "Device", "device", devices, dev.id);
  if (d >= 0 && devices[d].value != dev.id) choose_device(ui.state, devices[d].value);
  char spec[160];
  std::snprintf(spec, sizeof spec, "%s HBM · %s · %s BF16 dense · scale-up %s devices",
                sizer::fmt::bytes(dev.memory_bytes).c_str(), sizer::fmt::bytes_per_s(dev.hbm_bytes_per_s).c_str(),
                sizer::fmt::flops_per_s(dev.dense_flops_bf16).c_str(), sizer::fmt::count(dev.scale_up_domain).c_str());
  caption(ui, spec);

  std::vector<Choice> systems = {{"", "None (device defaults)"}};
  for (const sizer::System& s : cat.systems) {
    if (s.device == dev.id) systems.push_back({s.id, s.user_supplied ? s.name + kUserMark : s.name, true, s.user_supplied});
  }
  const int s = combo_field(ui, "System", "system", systems, ui.sc().system_id,
                            "Sets the scale-up domain, link bandwidths and system power per device.");
  if (s >= 0) choose_system(ui.state, systems[s].value);

  std::vector<Choice> prices = {{"", "No price"}};
  for (const sizer::PriceOffer& p : cat.prices) {
    if (p.device != dev.id) continue;
    char label[200];
    std::snprintf(label, sizeof label, "%s · %s · $%.2f/h · checked %s", p.provider.c_str(),
                  humanise(p.offer_kind).c_str(), p.usd_per_device_hour, p.date_checked.c_str());
    prices.push_back({p.id, std::string(label) + (p.user_supplied ? kUserMark : ""), true, p.user_supplied});
  }
  const sizer::PriceOffer& price = ui.sc().training.price;
  std::string current = price.usd_per_device_hour > 0 ? price.id : "";
  if (price.user_supplied && price.usd_per_device_hour > 0) {
    char label[96];
    std::snprintf(label, sizeof label, "Your rate · $%.2f/h", price.usd_per_device_hour);
    bool have = false;
    for (const Choice& c : prices) have = have || c.value == price.id;
    if (!have) prices.push_back({price.id, std::string(label) + kUserMark, true, true});
  }
  const int p = combo_field(ui, "Price offer", "training.price", prices, current,
                            "Public list prices with the date they were checked. Offer kinds are never "
                            "mixed: on demand, capacity blocks, commitments and spot differ a lot.");
  if (p >= 0) choose_price(ui.state, prices[p].value);
  if (price.usd_per_device_hour > 0 && !price.offer.empty()) caption(ui, price.offer + (price.region.empty() ? "" : ", " + price.region));
  if (prices.size() == 1) caption(ui, "No public price is bundled for this device: costs are left out.");
}

void mfu_field(Ui& ui) {
  ViewState& v = ui.state.view;
  const char* path = "training.mfu";
  // The text follows the applied points, except while typed into or when it was refused (then
  // the text stays what the user typed, next to the error that explains it).
  std::string text;
  const json* mfu = input_value(ui.state, path);
  if (mfu && mfu->is_array()) {
    for (const json& x : *mfu) {
      if (!text.empty()) text += ", ";
      text += plain(x.is_number() ? x.get<double>() * 100 : 0);
    }
  }
  note_input(ui, path, "MFU points", text, "%");
  if (!v.mfu_editing && issues_at(ui.state.editor.local, path).empty()) {
    std::snprintf(v.mfu_text, sizeof v.mfu_text, "%s", text.c_str());
  }
  ImGui::PushID(path);
  field_label(ui, "MFU points", "Model FLOPs utilisation: the share of the dense peak a run achieves. "
                                "Results are given for every point, never one number.");
  ImGui::SameLine(label_width(ui));
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("%").x - ImGui::GetStyle().ItemSpacing.x);
  const bool typed = ImGui::InputText("##mfu", v.mfu_text, sizeof v.mfu_text);
  v.mfu_editing = ImGui::IsItemActive();
  note_rect(ui, "input:training.mfu");
  focus_ring(ui, path);
  double unused = 0;
  const bool changed = edit_committed(ui, path, "MFU points", typed, &unused);
  ImGui::SameLine();
  ImGui::TextDisabled("%%");
  pending_caption(ui, path);
  const FieldUnit unit{"MFU points", 0.01, "%"};
  if (changed) {
    std::vector<double> points;
    bool ok = true;
    const char* p = v.mfu_text;
    while (*p) {
      while (*p == ' ' || *p == ',' || *p == ';' || *p == '%') ++p;
      if (!*p) break;
      char* end = nullptr;
      const double x = std::strtod(p, &end);
      if (end == p) {
        ok = false;
        break;
      }
      points.push_back(x / 100.0);
      p = end;
    }
    auto& local = ui.state.editor.local;
    local.erase(std::remove_if(local.begin(), local.end(), [&](const sizer::Issue& i) { return i.path == path; }),
                local.end());
    if (!ok || points.empty()) {
      local.push_back({path, "enter MFU points in percent, separated by commas, e.g. 38, 45, 55"});
    } else {
      set_input(ui.state, path, points);
      clear_input(ui.state, "training.step_mfu");
    }
  }
  field_issues(ui, path, &unit);
  ImGui::PopID();
}

void training_block(Ui& ui) {
  if (!block_header(ui, "Training")) return;
  number_field(ui, {"training.tokens", "Training tokens", 1e12, "T", false, "D, the tokens seen in training."});
  precision_field(ui, "Precision", "training.precision", true, "Math precision of training; sets the dense peak.");
  mfu_field(ui);
  number_field(ui, {"training.days", "Schedule", 1, "days", false, nullptr});
  if (input_string(ui.state, "training.goodput") == "predicted") {  // chosen under Reliability & cost
    field_label(ui, "Goodput", "Predicted from failure rates, checkpoints and restarts (Reliability & cost).");
    ImGui::SameLine(label_width(ui));
    ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.accent);
    ImGui::TextUnformatted(("predicted: " + pct(ui.est().reliability.goodput_predicted)).c_str());
    ImGui::PopStyleColor();
    field_issues(ui, "training.goodput");
  } else {
    number_field(ui, {"training.goodput", "Goodput", 0.01, "%", false,
                      "Share of wall-clock time doing useful steps (not restarting from checkpoints)."});
  }
  number_field(ui, {"training.hbm_usable", "Usable HBM", 0.01, "%", false, nullptr});
  const std::vector<Choice> zero = {{"0", "0: none"}, {"1", "1: optimizer states"}, {"2", "2: + gradients"},
                                    {"3", "3: + weights"}};
  const int z = combo_field(ui, "ZeRO stage", "training.zero_stage", zero,
                            std::to_string(static_cast<int>(input_number(ui.state, "training.zero_stage"))),
                            "Shards training state over the data-parallel group (Rajbhandari et al. 2020).");
  if (z >= 0) set_input(ui.state, "training.zero_stage", z);
  const std::vector<Choice> opt = {{"adam_mixed", "Adam, mixed precision (16 B/param)"},
                                   {"adam_fp8", "Adam, FP8 recipe (14 B/param)"}};
  const int o = combo_field(ui, "Optimizer state", "training.optimizer", opt, input_string(ui.state, "training.optimizer"));
  if (o >= 0) {
    set_input(ui.state, "training.optimizer", opt[o].value);
    clear_input(ui.state, "training.bytes_per_param");
  }
}

void layout_block(Ui& ui) {
  if (!block_header(ui, "Parallel layout")) return;
  caption(ui, "Tensor × pipeline × data parallel; used for per-device memory, step time and traffic.");
  number_field(ui, {"training.layout.tp", "Tensor parallel", 1, "TP", true, nullptr});
  number_field(ui, {"training.layout.pp", "Pipeline parallel", 1, "PP", true, nullptr});
  number_field(ui, {"training.layout.dp", "Data parallel", 1, "DP", true, nullptr});
  if (ui.sc().model.moe.enabled()) number_field(ui, {"training.layout.ep", "Expert parallel", 1, "EP", true, nullptr});
  number_field(ui, {"training.layout.micro_batch", "Micro-batch", 1, "seq", true, nullptr});
  number_field(ui, {"training.layout.global_batch", "Global batch", 1, "seq", true, nullptr});
  number_field(ui, {"training.layout.seq_len", "Sequence length", 1, "tokens", true, nullptr});
  const std::vector<Choice> rc = {{"none", "None"}, {"selective", "Selective (attention)"}, {"full", "Full"}};
  const int r = combo_field(ui, "Recompute", "training.layout.recompute", rc,
                            input_string(ui.state, "training.layout.recompute"),
                            "Activation recomputation (Korthikanti et al. 2022).");
  if (r >= 0) set_input(ui.state, "training.layout.recompute", rc[r].value);
  checkbox_field(ui, "training.layout.sequence_parallel", "Sequence parallel", nullptr);
  field_issues(ui, "training.layout");
}

void serving_block(Ui& ui) {
  if (!block_header(ui, "Serving")) return;
  precision_field(ui, "Weight precision", "serving.weight_precision", false, nullptr);
  precision_field(ui, "KV cache precision", "serving.kv_precision", false, nullptr);
  number_field(ui, {"serving.context", "Context", 1024, "K tokens", false, "Tokens per sequence at full length."});
  number_field(ui, {"serving.batch", "Batch", 1, "sequences", true, "Concurrent sequences per replica."});
  number_field(ui, {"serving.kv_fill", "KV cache fill", 0.01, "%", false, "Average fraction of the context filled."});
  // The hint is the size evaluate uses (auto_replica_devices), not the minimum it starts from.
  const sizer::ServingResult& sv = ui.est().serving;
  const std::string hint = "(0 = auto: " + sizer::fmt::count(sv.replica_devices) + ")";
  number_field(ui, {"serving.replica_devices", "Replica size", 1, "devices", true,
                    "Devices per serving replica. 0 picks it: the smallest power of two ≥ the minimum that "
                    "holds weights and KV cache, inside one scale-up domain; else whole domains.",
                    input_number(ui.state, "serving.replica_devices") == 0 ? hint.c_str() : nullptr});
  // 0 means automatic: the draft drops the key (the contract takes 1 and up, or no key).
  if (is_set(ui.state, "serving.replica_devices") && input_number(ui.state, "serving.replica_devices") == 0) {
    clear_input(ui.state, "serving.replica_devices");
  }
  if (ui.sc().serving.replica_devices > 0 && !sv.replica_fits) {
    const sizer::Issue small{"serving.replica_devices", "Replica " + replica_too_small_text(sv)};
    issue_lines(ui, {&small}, ui.pal.bad);
  }
  number_field(ui, {"serving.prompt_tokens", "Prompt", 1, "tokens", true, nullptr});
  number_field(ui, {"serving.demand_tokens_per_day", "Demand", 1e9, "B tokens/day", false, nullptr});
  number_field(ui, {"serving.realised_fraction", "Realised share", 0.01, "% of ceiling", false,
                    "Share of the decode ceiling actually reached (scheduling, partial batches)."});
  number_field(ui, {"serving.utilisation", "Utilisation", 0.01, "%", false, "Average load over the day."});
}

void power_block(Ui& ui) {
  if (!block_header(ui, "Power")) return;
  number_field(ui, {"power.pue", "PUE", 1, "", false, "Facility power ÷ IT power."});
  number_field(ui, {"power.system_w_per_device", "System power", 1, "W per device", false,
                    "System-level watts per device: host CPUs, NICs, switches and fans included."});
}

void problems_banner(Ui& ui) {
  const Editor& e = ui.state.editor;
  const size_t n = e.issues.size() + e.local.size();
  if (n == 0) return;
  ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.bad);
  ImGui::PushTextWrapPos(0.0f);
  ImGui::Text("%zu problem%s: the results show the last valid scenario.", n, n == 1 ? "" : "s");
  for (const sizer::Issue& i : e.issues) {
    bool shown = false;
    for (const std::string& p : ui.state.view.last_field_paths) {
      if (!issues_at(std::vector<sizer::Issue>{i}, p).empty()) shown = true;
    }
    if (!shown) ImGui::Text("• %s: %s", i.path.empty() ? "scenario" : i.path.c_str(), i.message.c_str());
  }
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
}

}  // namespace

void inputs_panel(Ui& ui) {
  ui.state.view.field_paths.clear();
  ui.state.view.inputs_shown.clear();
  ImGui::PushFont(ui.fonts.heading);
  ImGui::TextUnformatted("Scenario");
  ImGui::PopFont();
  ImGui::SameLine(ImGui::GetContentRegionAvail().x - ui.px(52));
  if (ImGui::SmallButton("Reset")) reset_scenario(ui.state);
  note_rect(ui, "button:reset");
  problems_banner(ui);
  model_block(ui);
  hardware_block(ui);
  training_block(ui);
  layout_block(ui);
  serving_block(ui);
  power_block(ui);
  ops_block(ui);
  ImGui::Dummy(ImVec2(0, ui.px(12)));
  ui.state.view.last_field_paths = ui.state.view.field_paths;
}

}  // namespace sizer_web
