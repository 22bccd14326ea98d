// Drawings of the planner view (see planner_charts.h).
//
// [SECTION] Stacked bars with a legend and hover values
// [SECTION] Step breakdown and memory per device
// [SECTION] The layout on the hardware
// [SECTION] Pareto chart: devices against training days
#include "planner_charts.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "planner_state.h"

namespace sizer_web {
namespace {

namespace fmt = sizer::fmt;

// [SECTION] Stacked bars
struct Segment {
  const char* label;
  const char* what;  // hover text: what the segment is
  double value;
  ImU32 color;
};

ImU32 with_alpha(ImU32 c, float a) {
  const ImU32 alpha = static_cast<ImU32>(((c >> IM_COL32_A_SHIFT) & 0xFF) * a);
  return (c & ~IM_COL32_A_MASK) | (alpha << IM_COL32_A_SHIFT);
}

// Legend entries that wrap to the available width: a swatch, the label and the formatted value.
void legend(Ui& ui, const std::vector<Segment>& segs, std::string (*format)(double)) {
  ImGui::PushFont(ui.fonts.small);
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  const float sw = ImGui::GetFontSize() * 0.8f;
  bool first = true;
  for (const Segment& s : segs) {
    if (!(s.value > 0)) continue;
    const std::string text = std::string(s.label) + " " + format(s.value);
    const float w = sw + ui.px(4) + ImGui::CalcTextSize(text.c_str()).x;
    if (!first) {
      ImGui::SameLine(0, ui.px(14));
      if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
    }
    first = false;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float y = p.y + (ImGui::GetTextLineHeight() - sw) * 0.5f;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, y), ImVec2(p.x + sw, y + sw), s.color, ui.px(2));
    ImGui::Dummy(ImVec2(sw, ImGui::GetTextLineHeight()));
    ImGui::SameLine(0, ui.px(4));
    ImGui::TextUnformatted(text.c_str());
  }
  ImGui::PopFont();
}

// A horizontal bar of segments, `scale` filling the width. Returns the bar's rectangle; hovering a
// segment shows its value and share of `total`.
void stacked_bar(Ui& ui, const char* id, const std::vector<Segment>& segs, double scale, double total,
                 std::string (*format)(double), ImVec2* bar0, ImVec2* bar1) {
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  const float h = ui.px(26);
  ImGui::InvisibleButton(id, ImVec2(w, h));
  note_rect(ui, std::string("chart:") + id);
  const bool hovered = ImGui::IsItemHovered();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, ImVec2(p0.x + w, p0.y + h), ui.pal.grid, ui.px(4));
  const float mx = ImGui::GetIO().MousePos.x;
  float x = p0.x;
  for (const Segment& s : segs) {
    if (!(s.value > 0) || !(scale > 0)) continue;
    const float sw = static_cast<float>(s.value / scale) * w;
    const float x1 = std::min(p0.x + w, x + sw);
    dl->AddRectFilled(ImVec2(x, p0.y), ImVec2(std::max(x1, x + 1.0f), p0.y + h), s.color);
    if (hovered && mx >= x && mx < x1 + 0.5f) {
      dl->AddRect(ImVec2(x, p0.y), ImVec2(x1, p0.y + h), ui.pal.text, 0, 0, ui.px(1.5f));
      ui.state.view.hover_text = std::string(s.label) + "\n" + format(s.value) + "  (" + fmt::percent(s.value / total) + ")\n" + s.what;
      ImGui::BeginTooltip();
      ImGui::PushFont(ui.fonts.strong);
      ImGui::TextUnformatted(s.label);
      ImGui::PopFont();
      ImGui::PushFont(ui.fonts.numbers);
      ImGui::Text("%s  (%s)", format(s.value).c_str(), fmt::percent(s.value / total).c_str());
      ImGui::PopFont();
      ImGui::PushTextWrapPos(ui.px(320));
      ImGui::PushStyleColor(ImGuiCol_Text, ui.pal.muted);
      ImGui::TextUnformatted(s.what);
      ImGui::PopStyleColor();
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
    x = x1;
  }
  *bar0 = p0;
  *bar1 = ImVec2(p0.x + w, p0.y + h);
}

std::string seconds_label(double s) { return fmt::seconds(s); }
std::string bytes_label(double b) { return fmt::bytes(b); }

}  // namespace

// [SECTION] Step breakdown and memory per device
void step_bar(Ui& ui, const sizer::LayoutResult& r) {
  const ImU32* c = ui.pal.series;
  const std::string bubble =
      std::string("Pipeline fill and drain, ") + sizer::pipeline_bubble_formula(ui.state.view.planner.layout.pp_schedule) + ".";
  const std::vector<Segment> segs = {
      {"GEMM", "Linear-layer FLOPs (with recomputation) at the chip's GEMM efficiency at each linear's own "
               "per-device shape (QKV, output projection, MLP after the TP split); FP8/FP4 at the chip's measured "
               "low-precision factor.", r.compute_s - r.attention_s, c[0]},
      {"attention", r.attention_fp8 ? "Attention products QKᵀ and AV (flash attention) in FP8 (training.fp8_attention): at the "
                                      "FP8 peak, at 0.81 of the stack's BF16 attention efficiency (FlashAttention-3's FP8 "
                                      "against its BF16 utilisation), about 1.6× faster than BF16."
                                    : "Attention products QKᵀ and AV (flash attention, BF16) at the stack's attention efficiency.",
       r.attention_s, with_alpha(c[0], 0.55f)},
      {"memory-bound", "Elementwise work reading and writing activations at HBM bandwidth (Korthikanti Table 2); at "
                       "FP8/FP4 also the recipe's casts of every linear's operands (training.fp8_recipe).",
       r.memory_bound_s, c[5]},
      {"TP", "Tensor-parallel all-reduces: 4 per layer per micro-batch (6 with full recompute); with TP overlap "
             "only what the GEMMs cannot hide, plus 10% of the hidden part for the SMs it takes.", r.tp_comm_s, c[1]},
      {"experts", "Routed-expert GEMMs at their own width (tokens per expert × expert FFN ÷ expert TP) on the "
                  "busiest device (× the expert imbalance), and the router's permute/unpermute copies (or, with "
                  "einsum dispatch, GShard's dispatch and combine einsums).",
       r.expert_compute_s + r.moe_permute_s, with_alpha(c[4], 0.6f)},
      {"EP", "Expert-parallel all-to-all: dispatch and combine, forward and backward, less what ep_overlap hides; "
             "with expert TP > 1 also its all-gather and reduce-scatter of the routed copies.",
       r.ep_comm_s, c[4]},
      {"CP", "Ring-attention K/V exchange beyond what the attention compute hides.", r.cp_comm_s, c[6]},
      {"PP send/recv", "Activations and gradients crossing pipeline-stage boundaries; an interleaved Megatron "
                       "pipeline sends beside the next chunk's compute, so only the fill and drain chains wait "
                       "(plus 10% of the hidden part for the SMs it takes).", r.pp_p2p_s, c[2]},
      {"bubble", bubble.c_str(), r.pp_bubble_s, c[7]},
      {"exposed DP", "Data-parallel traffic compute does not hide: ZeRO-0 the gradient all-reduce, ZeRO-1/2 the "
                     "gradient reduce-scatter and parameter all-gather (each model chunk's behind the other chunks' "
                     "work), ZeRO-3 the per-layer gathers and reduce-scatters; on a GPU plus 10% of the hidden "
                     "part for the SMs it takes.",
       r.dp_comm_exposed_s, c[3]},
      {"optimizer", "Optimizer step: reads and writes the training state at HBM bandwidth.", r.optimizer_s, ui.pal.faint},
      {"overheads", "Fixed cost per layer per pass per micro-batch: kernel launches and host work (chip + software "
                    "stack, fitted in docs/validation.md).", r.overhead_s, ui.pal.muted},
  };
  ImVec2 a, b;
  stacked_bar(ui, "step-bar", segs, r.step_s, r.step_s, seconds_label, &a, &b);
  legend(ui, segs, seconds_label);
}

void memory_bar(Ui& ui, const sizer::LayoutResult& r) {
  const ImU32* c = ui.pal.series;
  const std::vector<Segment> segs = {
      {"weights", "Model weights after TP × PP (and EP) sharding; ZeRO-3 shards them over DP too.", r.weight_bytes, c[0]},
      {"grads", "Gradients; sharded over DP from ZeRO-2.", r.grad_bytes, c[4]},
      {"optimizer", "Master weights and Adam moments; sharded over DP from ZeRO-1.", r.optimizer_bytes, c[1]},
      {"activations",
       "Activations of the micro-batches in flight (Korthikanti et al. 2022); an FP8/FP4 run on the megatron stack "
       "keeps its linear layers' inputs quantized, as Transformer Engine does.",
       r.activation_bytes, c[2]},
      {"buffers", "Staging buffers for collectives and gradient buckets.", r.buffer_bytes, c[7]},
  };
  const double hbm = r.usable_memory_bytes > 0 ? r.usable_memory_bytes : 1;
  const double scale = std::max(r.device_memory_bytes, hbm) * 1.04;
  ImVec2 a, b;
  stacked_bar(ui, "memory-bar", segs, scale, r.device_memory_bytes, bytes_label, &a, &b);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float x = a.x + static_cast<float>(hbm / scale) * (b.x - a.x);
  const ImU32 col = r.fits ? ui.pal.good : ui.pal.bad;
  dl->AddLine(ImVec2(x, a.y - ui.px(4)), ImVec2(x, b.y + ui.px(4)), col, ui.px(2));
  ImGui::PushFont(ui.fonts.small);
  const std::string label = "usable " + fmt::bytes(hbm);
  const ImVec2 ts = ImGui::CalcTextSize(label.c_str());
  dl->AddText(ImVec2(std::max(a.x, x - ts.x - ui.px(4)), b.y + ui.px(2)), col, label.c_str());
  ImGui::PopFont();
  ImGui::Dummy(ImVec2(0, ts.y));
  legend(ui, segs, bytes_label);
}

// [SECTION] The layout on the hardware
namespace {

constexpr double kMaxCells = 1024;  // devices drawn one by one; more are summarised

struct Rank {
  int tp, cp, ep, pp, dp;
};

Rank rank_of(long long i, const sizer::PlanLayout& l) {
  const auto tp = static_cast<long long>(l.tp), cp = static_cast<long long>(l.cp), ep = static_cast<long long>(l.ep),
             pp = static_cast<long long>(l.pp);
  Rank r{};
  r.tp = static_cast<int>(i % tp);
  long long q = i / tp;
  r.cp = static_cast<int>(q % cp);
  q /= cp;
  r.ep = static_cast<int>(q % ep);
  q /= ep;
  r.pp = static_cast<int>(q % pp);
  r.dp = static_cast<int>(q / pp);
  return r;
}

const char* domain_kind(double domain) { return domain <= 16 ? "server" : domain <= 144 ? "rack" : "pod"; }

std::string range_label(const char* what, int lo, int hi) {
  return std::string(what) + " " + std::to_string(lo) + (hi > lo ? "–" + std::to_string(hi) : "");
}

void link_line(Ui& ui, const char* group, double size, sizer::Link link, bool latency_bound, const sizer::Device& d) {
  if (size <= 1 || link == sizer::Link::none) return;
  const bool up = link == sizer::Link::scale_up;
  const ImU32 col = up ? ui.pal.good : latency_bound ? ui.pal.bad : ui.pal.warn;
  ImGui::PushFont(ui.fonts.small);
  ImGui::PushStyleColor(ImGuiCol_Text, col);
  ImGui::Text("%s %s: %s, %s per device", group, fmt::count(size).c_str(), up ? "scale-up" : "scale-out",
              fmt::bytes_per_s(up ? d.scale_up_bytes_per_s : d.scale_out_bytes_per_s).c_str());
  ImGui::PopStyleColor();
  ImGui::PopFont();
}

}  // namespace

void layout_diagram(Ui& ui, const sizer::Scenario& s, const sizer::PlanLayout& l, const sizer::LayoutResult& r) {
  const sizer::Device& dev = s.device;
  const double domain = std::max(1.0, dev.scale_up_domain);
  const double total = l.devices();
  const double replica = l.tp * l.cp * l.ep * l.pp;
  if (!(total >= 1) || total > 1e7) return;
  double shown = std::ceil(std::max(replica, domain) / domain) * domain;
  shown = std::min({shown, total, kMaxCells});
  const long long n = static_cast<long long>(shown);
  const char* kind = domain_kind(domain);

  const float cell = ui.px(11), gap = ui.px(2), pad = ui.px(6), box_gap = ui.px(10);
  const float avail = ImGui::GetContentRegionAvail().x;
  const long long per_domain = static_cast<long long>(domain);
  int cols = static_cast<int>(std::min<double>(domain, 16));
  if (domain > 144) {  // one big pod: as wide as the view allows, in whole TP groups
    cols = std::max(8, static_cast<int>((avail - 2 * pad) / (cell + gap)));
    if (l.tp > 1 && l.tp <= cols) cols -= cols % static_cast<int>(l.tp);
  }
  cols = static_cast<int>(std::min<long long>(cols, n));
  const long long boxes = (n + per_domain - 1) / per_domain;
  ImGui::PushFont(ui.fonts.small);
  const float label_h = ImGui::GetFontSize() + ui.px(3);
  const float box_w = cols * (cell + gap) - gap + 2 * pad;
  const int per_row = std::max(1, static_cast<int>((avail + box_gap) / (box_w + box_gap)));
  auto box_rows = [&](long long b) {
    const long long in_box = std::min(per_domain, n - b * per_domain);
    return static_cast<int>((in_box + cols - 1) / cols);
  };
  const int max_rows = box_rows(0);
  const float box_h = label_h + max_rows * (cell + gap) - gap + 2 * pad;
  const long long grid_rows = (boxes + per_row - 1) / per_row;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float height = static_cast<float>(grid_rows) * (box_h + box_gap);
  ImGui::InvisibleButton("layout-diagram", ImVec2(std::max(1.0f, avail), std::max(1.0f, height)));
  note_rect(ui, "chart:layout-diagram");
  const bool hovered = ImGui::IsItemHovered();
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  long long hover_rank = -1;
  for (long long b = 0; b < boxes; ++b) {
    const float bx = origin.x + static_cast<float>(b % per_row) * (box_w + box_gap);
    const float by = origin.y + static_cast<float>(b / per_row) * (box_h + box_gap);
    const long long first = b * per_domain, last = std::min(n, first + per_domain) - 1;
    const Rank r0 = rank_of(first, l), r1 = rank_of(last, l);
    std::string label = std::string(kind) + " " + std::to_string(b) + " · " + range_label("PP", r0.pp, r0.dp == r1.dp ? r1.pp : static_cast<int>(l.pp) - 1);
    if (r1.dp > r0.dp) label += " · " + range_label("DP", r0.dp, r1.dp);
    const float bh = label_h + box_rows(b) * (cell + gap) - gap + 2 * pad;
    dl->AddRectFilled(ImVec2(bx, by), ImVec2(bx + box_w, by + bh), ui.pal.card, ui.px(5));
    dl->AddRect(ImVec2(bx, by), ImVec2(bx + box_w, by + bh), ui.pal.card_border, ui.px(5), 0, ui.px(1));
    dl->PushClipRect(ImVec2(bx, by), ImVec2(bx + box_w, by + bh), true);
    dl->AddText(ImVec2(bx + pad, by + pad - ui.px(2)), ui.pal.muted, label.c_str());
    dl->PopClipRect();
    const float cx0 = bx + pad, cy0 = by + pad + label_h;
    for (long long i = first; i <= last; ++i) {
      const long long j = i - first;
      const float x = cx0 + static_cast<float>(j % cols) * (cell + gap), y = cy0 + static_cast<float>(j / cols) * (cell + gap);
      const Rank k = rank_of(i, l);
      const long long group = i / static_cast<long long>(l.tp);
      float alpha = group % 2 == 0 ? 1.0f : 0.68f;
      if (k.dp > 0) alpha *= 0.35f;
      dl->AddRectFilled(ImVec2(x, y), ImVec2(x + cell, y + cell), with_alpha(ui.pal.series[k.pp % 8], alpha), ui.px(2));
      if (hovered && mouse.x >= x && mouse.x < x + cell + gap && mouse.y >= y && mouse.y < y + cell + gap) hover_rank = i;
      // TP groups: outline each run of a group's devices within one row.
      const bool run_start = l.tp > 1 && (k.tp == 0 || j % cols == 0);
      if (run_start) {
        const long long run_end = std::min({i + (static_cast<long long>(l.tp) - k.tp) - 1, last, i + (cols - j % cols) - 1});
        const float x1 = x + static_cast<float>(run_end - i + 1) * (cell + gap) - gap;
        dl->AddRect(ImVec2(x - ui.px(1), y - ui.px(1)), ImVec2(x1 + ui.px(1), y + cell + ui.px(1)),
                    with_alpha(ui.pal.text, k.dp > 0 ? 0.25f : 0.7f), ui.px(3), 0, ui.px(1));
      }
    }
  }
  if (hover_rank >= 0) {
    const Rank k = rank_of(hover_rank, l);
    ImGui::BeginTooltip();
    ImGui::Text("Device %lld (%s %lld, slot %lld)", hover_rank, kind, hover_rank / per_domain, hover_rank % per_domain);
    ImGui::PushFont(ui.fonts.numbers);
    ImGui::Text("TP rank %d of %s, group %lld", k.tp, fmt::count(l.tp).c_str(), hover_rank / static_cast<long long>(l.tp));
    if (l.cp > 1) ImGui::Text("CP rank %d of %s", k.cp, fmt::count(l.cp).c_str());
    if (l.ep > 1) ImGui::Text("EP rank %d of %s", k.ep, fmt::count(l.ep).c_str());
    ImGui::Text("PP stage %d of %s", k.pp, fmt::count(l.pp).c_str());
    ImGui::Text("DP replica %d of %s", k.dp, fmt::count(l.dp).c_str());
    ImGui::PopFont();
    ImGui::EndTooltip();
  }
  ImGui::PopFont();

  // Summary and links.
  const double domains_total = std::ceil(total / domain);
  const std::string kinds = std::string(kind) + (domains_total == 1 ? "" : "s");
  std::string summary;
  if (shown >= total) {
    summary = "All " + fmt::count(total) + " devices in " + fmt::count(domains_total) + " " + kinds + ".";
  } else {
    summary = "Showing the first " + fmt::count(shown) + " devices" + (shown < replica ? " of one DP replica's " + fmt::count(replica) : "") +
              ". One replica = TP × CP × EP × PP = " + fmt::count(replica) + " devices; × " +
              fmt::count(l.dp) + " DP replicas = " + fmt::count(total) + " devices in " + fmt::count(domains_total) + " " + kinds + ".";
  }
  if (replica < domain && l.dp > 1) summary += " Replica 0 bright, the others dimmed.";
  caption(ui, summary + " Colour = PP stage; outlined runs = TP groups (scale-up domain " + fmt::count(domain) + ").");
  link_line(ui, "TP", l.tp, r.tp_link, true, dev);
  link_line(ui, "CP", l.cp, r.cp_link, true, dev);
  link_line(ui, "EP", l.ep, r.ep_link, true, dev);
  link_line(ui, "PP", l.pp, r.pp_link, false, dev);
  link_line(ui, "DP", l.dp, r.dp_link, false, dev);
}

// [SECTION] Pareto chart
int pareto_chart(Ui& ui, const sizer::SearchResult& search, const sizer::PlanLayout& current,
                 const sizer::LayoutResult& current_result, float height) {
  const auto& pts = search.pareto;
  auto yval = [](const sizer::LayoutResult& r) { return r.train_days > 0 ? r.train_days : r.step_s; };
  const bool days = !pts.empty() && pts.front().result.train_days > 0;
  double x0 = 1e300, x1 = 0, y1 = 0;
  for (const auto& p : pts) {
    x0 = std::min(x0, p.layout.devices());
    x1 = std::max(x1, p.layout.devices());
    y1 = std::max(y1, yval(p.result));
  }
  const bool show_current = current_result.valid() && current_result.fits;
  if (show_current) {
    x0 = std::min(x0, current.devices());
    x1 = std::max(x1, current.devices());
    y1 = std::max(y1, yval(current_result));
  }
  if (!(x1 > 0)) return -1;
  x0 = std::pow(2.0, std::floor(std::log2(x0)));
  x1 = std::pow(2.0, std::ceil(std::log2(x1)));
  if (x1 <= x0) x0 /= 2, x1 *= 2;
  y1 = y1 > 0 ? y1 * 1.15 : 1;

  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  ImGui::InvisibleButton("pareto", ImVec2(w, height));
  note_rect(ui, "chart:pareto");
  const bool hovered = ImGui::IsItemHovered();
  const bool click = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImGui::PushFont(ui.fonts.small);
  const float fh = ImGui::GetFontSize();
  const ImVec2 p0(origin.x + ImGui::CalcTextSize("000 days").x + ui.px(10), origin.y + ui.px(6));
  const ImVec2 p1(origin.x + w - ui.px(12), origin.y + height - fh - ui.px(10));
  auto at = [&](double x, double y) {
    const double tx = std::log2(x / x0) / std::log2(x1 / x0);
    return ImVec2(p0.x + static_cast<float>(tx) * (p1.x - p0.x), p1.y - static_cast<float>(y / y1) * (p1.y - p0.y));
  };
  // Grid: y in 5 steps, x at powers of two.
  for (int i = 0; i <= 4; ++i) {
    const double v = y1 / 1.15 * i / 4;
    const ImVec2 a = at(x0, v);
    dl->AddLine(ImVec2(p0.x, a.y), ImVec2(p1.x, a.y), ui.pal.grid, ui.px(1));
    const std::string t = days ? fmt::number(v, 3) + " d" : fmt::seconds(v);
    dl->AddText(ImVec2(p0.x - ImGui::CalcTextSize(t.c_str()).x - ui.px(6), a.y - fh / 2), ui.pal.muted, t.c_str());
  }
  const double step = std::max(1.0, std::round(std::log2(x1 / x0) / 8));
  for (double e = 0; x0 * std::pow(2.0, e) <= x1 * 1.0001; e += step) {
    const double v = x0 * std::pow(2.0, e);
    const ImVec2 a = at(v, 0);
    dl->AddLine(ImVec2(a.x, p1.y), ImVec2(a.x, p1.y + ui.px(4)), ui.pal.muted, ui.px(1));
    const std::string t = fmt::count(v);
    dl->AddText(ImVec2(a.x - ImGui::CalcTextSize(t.c_str()).x / 2, p1.y + ui.px(5)), ui.pal.muted, t.c_str());
  }
  dl->AddLine(ImVec2(p0.x, p1.y), ImVec2(p1.x, p1.y), ui.pal.muted, ui.px(1));
  std::vector<ImVec2> line;
  for (const auto& p : pts) line.push_back(at(p.layout.devices(), yval(p.result)));
  if (line.size() >= 2) dl->AddPolyline(line.data(), static_cast<int>(line.size()), ui.pal.series[0], 0, ui.px(2));
  int near = -1;
  float best = ui.px(14);
  for (size_t i = 0; i < line.size(); ++i) {
    dl->AddCircleFilled(line[i], ui.px(4.5f), ui.pal.series[0]);
    const float d = std::hypot(line[i].x - ImGui::GetIO().MousePos.x, line[i].y - ImGui::GetIO().MousePos.y);
    if (hovered && d < best) best = d, near = static_cast<int>(i);
  }
  if (show_current) {
    const ImVec2 c = at(current.devices(), yval(current_result));
    dl->AddCircle(c, ui.px(7), ui.pal.accent, 0, ui.px(2));
    dl->AddText(ImVec2(c.x + ui.px(9), c.y - fh), ui.pal.accent, "editor's layout");
  }
  ImGui::PopFont();
  int clicked = -1;
  if (near >= 0) {
    const auto& p = pts[near];
    dl->AddCircle(line[near], ui.px(7), ui.pal.text, 0, ui.px(1.5f));
    ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(layout_label(p.layout).c_str());
    ImGui::PushFont(ui.fonts.numbers);
    ImGui::Text("%s devices · %s days · step %s · MFU %s", fmt::count(p.layout.devices()).c_str(),
                fmt::number(p.result.train_days).c_str(), fmt::seconds(p.result.step_s).c_str(),
                fmt::percent(p.result.mfu_predicted).c_str());
    ImGui::PopFont();
    ImGui::TextDisabled("Click to load this layout into the editor.");
    ImGui::EndTooltip();
    if (click) clicked = near;
  }
  return clicked;
}

}  // namespace sizer_web
