// The scenario's training block (docs/contract.md, "training"): read into s->training, with the
// defaults that depend on the model (MFU points, pipeline depth, sequence length, tokens) and the
// device (its price offer, its precisions); and written back as resolved.
#include <algorithm>
#include <string>
#include <vector>

#include "contract/scenario_parts.h"
#include "sizer/contract/json_object.h"
#include "sizer/formulas/format.h"
#include "sizer/formulas/low_precision.h"
#include "sizer/formulas/training_memory.h"
#include "sizer/contract/user_text.h"
#include "sizer/formulas/working.h"

namespace sizer::detail {

void read_training(Reader& r, const json& doc, const Catalog& c, Scenario* s) {
  TrainingInputs& t = s->training;
  const Model& m = s->model;
  t.mfu = m.moe.enabled() ? std::vector<double>{0.25, 0.35} : std::vector<double>{0.38, 0.45, 0.55};
  t.layout.pp = std::min(t.layout.pp, m.layers);
  if (m.seq_len > 0) t.layout.seq_len = m.seq_len;
  if (const PriceOffer* p = c.find_price(s->device.default_price)) t.price = *p;
  auto it = doc.find("training");
  const bool present = it != doc.end() && r.object(*it, "training");
  bool tokens_given = false, bpp_given = false;
  if (present) {
    const json& o = *it;
    const std::string path = "training";
    r.only_keys(o, path, {"tokens", "tokens_per_param", "precision", "mfu", "step_mfu", "optimizer",
                          "bytes_per_param", "zero_stage", "hbm_usable", "memory_overhead_fraction", "dropout", "days",
                          "goodput", "price",
                          "usd_per_device_hour", "layout", "alltoall_dispatch_bytes",
                          "alltoall_combine_bytes", "grad_bytes", "activation_bytes", "param_gather_bytes", "bf16_layers", "fp8_attention",
                          "checkpoint_bytes_per_s", "search", "stack", "fp8_recipe", "reliability", "storage"});
    if (auto sit = o.find("stack"); sit != o.end()) detail::read_stack(r, *sit, "training.stack", &t.stack);
    tokens_given = r.number(o, "tokens", path, kTokensR, &t.tokens);
    r.number(o, "tokens_per_param", path, Range{0.001, 1e6}, &t.tokens_per_param);
    const bool precision_read = read_precision(r, o, "precision", path, &t.precision);
    const bool precision_refused = !precision_read && o.contains("precision");  // its own error stands
    if (precision_read && s->device.dense_flops(t.precision) <= 0) {
      std::string have;
      for (Precision p : {Precision::fp32, Precision::bf16, Precision::fp8, Precision::fp4}) {
        if (s->device.dense_flops(p) > 0) have += (have.empty() ? "" : ", ") + std::string(to_string(p));
      }
      r.error("training.precision", std::string("device ") + s->device.id + " has no dense " +
                                        to_string(t.precision) + " peak; allowed: " + have);
    }
    if (auto mit = o.find("mfu"); mit != o.end()) {
      if (!mit->is_array() || mit->empty() || mit->size() > 16) {
        r.error("training.mfu", "must be a list of 1 to 16 MFU points in [0.001, 1], e.g. [0.38, 0.45, 0.55]; got " +
                                    detail::show(*mit));
      } else {
        std::vector<double> v(mit->size());
        bool ok = true;
        for (std::size_t i = 0; i < mit->size(); ++i) {
          ok = r.number_value((*mit)[i], detail::index("training.mfu", i), kFraction, &v[i]) && ok;
        }
        if (ok) t.mfu = v;
      }
    }
    r.number(o, "step_mfu", path, kFraction, &t.step_mfu);
    std::string recipe;
    if (r.string(o, "fp8_recipe", path, &recipe) && !parse_fp8_recipe(recipe.c_str(), &t.fp8_recipe)) {
      r.error("training.fp8_recipe", "must be tensorwise, rowwise, mx or blockwise; got " + echo_quoted(recipe));
    }
    std::string opt;
    if (r.string(o, "optimizer", path, &opt)) {
      if (opt == "adam_mixed") t.optimizer = Optimizer::adam_mixed;
      else if (opt == "adam_fp8") t.optimizer = Optimizer::adam_fp8;
      else r.error("training.optimizer", "must be adam_mixed or adam_fp8; got " + echo_quoted(opt));
    }
    bpp_given = r.number(o, "bytes_per_param", path, kBytesPerParam, &t.bytes_per_param);
    r.integer(o, "zero_stage", path, Range{0, 3}, &t.layout.zero_stage);
    r.number(o, "hbm_usable", path, kFraction, &t.hbm_usable);
    r.number(o, "memory_overhead_fraction", path, Range{0, 1}, &t.memory_overhead_fraction);
    if (bool dropout = false; r.boolean(o, "dropout", path, &dropout)) t.dropout = dropout ? 1 : 0;
    r.number(o, "days", path, kDays, &t.days);
    if (auto git = o.find("goodput"); git != o.end()) {
      if (git->is_string() && *git == "predicted") {
        t.reliability.predict_goodput = true;  // the reliability model's goodput (planners/estimate_reliability.cpp)
      } else if (git->is_string()) {
        r.error("training.goodput", "must be a fraction in [0.001, 1] or \"predicted\"; got " + detail::show(*git));
      } else {
        r.number(o, "goodput", path, kFraction, &t.goodput);
      }
    }
    read_price_choice(r, o, path, c, s->device, &t.price);
    if (auto lit = o.find("layout"); lit != o.end() && r.object(*lit, "training.layout")) {
      detail::read_layout(r, *lit, "training.layout", &t);
    }
    r.number(o, "alltoall_dispatch_bytes", path, kSmallBytes, &t.alltoall_dispatch_bytes);
    r.number(o, "alltoall_combine_bytes", path, kSmallBytes, &t.alltoall_combine_bytes);
    r.number(o, "grad_bytes", path, kSmallBytes, &t.grad_bytes);
    r.number(o, "activation_bytes", path, kSmallBytes, &t.activation_bytes);
    r.number(o, "param_gather_bytes", path, kSmallBytes, &t.param_gather_bytes);
    if (r.number(o, "bf16_layers", path, Range{0, 1e6, false, true}, &t.bf16_layers) && t.bf16_layers > m.layers) {
      r.error("training.bf16_layers", "must be at most the model's " + num(m.layers) + " layers; got " +
                                          num(t.bf16_layers));
      t.bf16_layers = 0;
    }
    // FP8 attention is part of an FP8/FP4 recipe and a fused kernel (Transformer Engine refuses it
    // outside fp8_autocast and without fused attention).
    if (bool fp8_attn = false; r.boolean(o, "fp8_attention", path, &fp8_attn) && fp8_attn && !precision_refused) {
      if (t.precision != Precision::fp8 && t.precision != Precision::fp4) {
        r.error("training.fp8_attention", std::string("needs training.precision fp8 or fp4 (FP8 attention runs inside the "
                                                      "FP8/FP4 recipe); got precision ") + to_string(t.precision));
      } else if (s->device.dense_flops(Precision::fp8) <= 0) {
        r.error("training.fp8_attention", std::string("device ") + s->device.id + " has no dense fp8 peak");
      } else if (!t.layout.flash_attention) {
        r.error("training.fp8_attention", "needs training.layout.flash_attention true (FP8 attention is a fused kernel)");
      } else {
        t.fp8_attention = true;
      }
    }
    r.number(o, "checkpoint_bytes_per_s", path, kBandwidthR, &t.checkpoint_bytes_per_s);
    if (auto sit = o.find("search"); sit != o.end() && r.object(*sit, "training.search")) {
      detail::read_search(r, *sit, "training.search", &t.search);
    }
  }
  if (!tokens_given) {
    t.tokens = m.training_tokens > 0 ? m.training_tokens : t.tokens_per_param * m.params;
    if (!(t.tokens >= kTokensR.min && t.tokens <= kTokensR.max)) {
      r.error("training.tokens_per_param", "gives " + num(t.tokens) + " training tokens (" + num(t.tokens_per_param) +
                                               " × " + num(m.params) + " params); tokens must be " +
                                               detail::describe(kTokensR) + ": lower tokens_per_param or give training.tokens");
    }
  }
  if (!bpp_given) t.bytes_per_param = memory::accounting(t.optimizer).total();
}

// Its reliability and storage blocks are written by write_operations (scenario_ops.cpp).
json write_training(const TrainingInputs& t) {
  json j = json_object({{"tokens", t.tokens},
                        {"precision", to_string(t.precision)},
                        {"mfu", t.mfu},
                        {"optimizer", to_string(t.optimizer)},
                        {"bytes_per_param", t.bytes_per_param},
                        {"zero_stage", t.layout.zero_stage},
                        {"hbm_usable", t.hbm_usable},
                        {"days", t.days},
                        {"goodput", t.reliability.predict_goodput ? json("predicted") : json(t.goodput)},
                        {"layout", write_layout(t)},
                        {"alltoall_dispatch_bytes", t.alltoall_dispatch_bytes},
                        {"alltoall_combine_bytes", t.alltoall_combine_bytes},
                        {"grad_bytes", t.grad_bytes},
                        {"activation_bytes", t.activation_bytes},
                        {"checkpoint_bytes_per_s", t.checkpoint_bytes_per_s}});
  if (t.step_mfu > 0) j["step_mfu"] = t.step_mfu;
  j["fp8_recipe"] = to_string(t.fp8_recipe);
  if (t.dropout >= 0) j["dropout"] = t.dropout == 1;  // unset (from the block) by omission
  if (t.param_gather_bytes > 0) j["param_gather_bytes"] = t.param_gather_bytes;  // unset: activation_bytes
  if (t.bf16_layers > 0) j["bf16_layers"] = t.bf16_layers;  // unset: every layer at the precision
  if (t.fp8_attention) j["fp8_attention"] = true;            // unset: attention in BF16
  j["stack"] = write_stack(t.stack);
  if (json search = write_search(t.search); !search.is_null()) j["search"] = search;
  if (t.price.usd_per_device_hour > 0) j["price"] = write_price_choice(t.price);
  return j;
}

}  // namespace sizer::detail
