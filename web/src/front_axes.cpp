// The frame of a throughput–interactivity chart (see front_axes.h).
#include "front_axes.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace sizer_web {

namespace fmt = sizer::fmt;

FrontAxes front_axes(Ui& ui, const char* id, const char* rect, float height, double x_max, double y_max,
                     double tpot_target, int tpot_label_lines) {
  FrontAxes f;
  if (tpot_target > 0) x_max = std::max(x_max, 1 / tpot_target);
  // An axis with nothing on it (one output token: no tokens/s per user) still has a scale.
  if (!(x_max > 0)) x_max = 1;
  if (!(y_max > 0)) y_max = 1;
  f.x1 = x_max * 1.08, f.y1 = y_max * 1.12;
  const float w = ImGui::GetContentRegionAvail().x;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, ImVec2(w, height));
  note_rect(ui, rect);
  f.hovered = ImGui::IsItemHovered();
  f.dl = ImGui::GetWindowDrawList();
  ImGui::PushFont(ui.fonts.small);
  f.fh = ImGui::GetFontSize();
  f.p0 = ImVec2(origin.x + ImGui::CalcTextSize("000,000").x + ui.px(10), origin.y + ui.px(6));
  f.p1 = ImVec2(origin.x + w - ui.px(12), origin.y + height - 2 * f.fh - ui.px(12));
  for (int i = 0; i <= 4; ++i) {
    const double yv = y_max * i / 4, xv = x_max * i / 4;
    const ImVec2 a = f.at(xv, yv);
    f.dl->AddLine(ImVec2(f.p0.x, a.y), ImVec2(f.p1.x, a.y), ui.pal.grid, ui.px(1));
    const std::string ty = fmt::count(std::round(yv)), tx = fmt::count(std::round(xv));
    f.dl->AddText(ImVec2(f.p0.x - ImGui::CalcTextSize(ty.c_str()).x - ui.px(6), a.y - f.fh / 2), ui.pal.muted, ty.c_str());
    f.dl->AddText(ImVec2(a.x - ImGui::CalcTextSize(tx.c_str()).x / 2, f.p1.y + ui.px(4)), ui.pal.muted, tx.c_str());
  }
  f.dl->AddLine(ImVec2(f.p0.x, f.p1.y), ImVec2(f.p1.x, f.p1.y), ui.pal.muted, ui.px(1));
  f.dl->AddText(ImVec2(f.p0.x, f.p1.y + f.fh + ui.px(6)), ui.pal.muted, "tokens/s per user  →   (output tokens/s per device ↑)");
  if (tpot_target > 0) {
    const ImVec2 a = f.at(1 / tpot_target, 0), b = f.at(1 / tpot_target, f.y1);
    f.dl->AddLine(a, b, ui.pal.warn, ui.px(1.5f));
    const std::string t = "TPOT " + fmt::seconds(tpot_target);
    f.dl->AddText(ImVec2(b.x + ui.px(4), b.y + tpot_label_lines * (f.fh + ui.px(4))), ui.pal.warn, t.c_str());
  }
  return f;
}

}  // namespace sizer_web
