// Light and dark themes (see theme.h): a calm neutral base, one blue accent, and status colours
// for verdicts (fits / tight / does not fit). Sizes are in CSS pixels × device pixel ratio.
#include "theme.h"

namespace sizer_web {
namespace {

ImVec4 rgb(int hex, float a = 1.0f) {
  return ImVec4(((hex >> 16) & 255) / 255.0f, ((hex >> 8) & 255) / 255.0f, (hex & 255) / 255.0f, a);
}
ImU32 u32(int hex, float a = 1.0f) { return ImGui::ColorConvertFloat4ToU32(rgb(hex, a)); }

struct Base {
  int bg, panel, card, border, text, muted, faint, accent, frame, frame_hover, header, good, warn, bad;
};

constexpr Base kDark{0x16181d, 0x1c1f26, 0x222630, 0x323744, 0xe7e9ee, 0x9aa2b1, 0x6b7280, 0x5b9cf5,
                     0x262b35, 0x2e3440, 0x2a3446, 0x4cc38a, 0xe5b045, 0xf0686a};
constexpr Base kLight{0xf5f6f8, 0xffffff, 0xffffff, 0xd9dde3, 0x1c2230, 0x5b6472, 0x8d95a3, 0x2563c9,
                      0xf0f2f5, 0xe6e9ee, 0xe3ecfa, 0x1f8a5b, 0xa86b00, 0xc8363a};

}  // namespace

Palette apply_theme(bool dark, float dpr) {
  const Base& b = dark ? kDark : kLight;
  ImGuiStyle style;
  if (dark) {
    ImGui::StyleColorsDark(&style);
  } else {
    ImGui::StyleColorsLight(&style);
  }
  style.WindowPadding = ImVec2(14, 12);
  style.FramePadding = ImVec2(8, 5);
  style.CellPadding = ImVec2(8, 4);
  style.ItemSpacing = ImVec2(10, 7);
  style.ItemInnerSpacing = ImVec2(6, 4);
  style.IndentSpacing = 14;
  style.ScrollbarSize = 12;
  style.GrabMinSize = 10;
  style.WindowBorderSize = 0;
  style.ChildBorderSize = 1;
  style.PopupBorderSize = 1;
  style.FrameBorderSize = dark ? 0 : 1;
  style.TabBorderSize = 0;
  style.WindowRounding = 0;
  style.ChildRounding = 6;
  style.FrameRounding = 5;
  style.PopupRounding = 6;
  style.ScrollbarRounding = 6;
  style.GrabRounding = 4;
  style.TabRounding = 5;
  style.SelectableTextAlign = ImVec2(0, 0.5f);

  ImVec4* c = style.Colors;
  c[ImGuiCol_Text] = rgb(b.text);
  c[ImGuiCol_TextDisabled] = rgb(b.muted);
  c[ImGuiCol_WindowBg] = rgb(b.bg);
  c[ImGuiCol_ChildBg] = rgb(b.panel);
  c[ImGuiCol_PopupBg] = rgb(b.panel);
  c[ImGuiCol_Border] = rgb(b.border);
  c[ImGuiCol_BorderShadow] = rgb(0, 0);
  c[ImGuiCol_FrameBg] = rgb(b.frame);
  c[ImGuiCol_FrameBgHovered] = rgb(b.frame_hover);
  c[ImGuiCol_FrameBgActive] = rgb(b.frame_hover);
  c[ImGuiCol_TitleBg] = rgb(b.panel);
  c[ImGuiCol_TitleBgActive] = rgb(b.panel);
  c[ImGuiCol_MenuBarBg] = rgb(b.panel);
  c[ImGuiCol_ScrollbarBg] = rgb(b.bg, 0);
  c[ImGuiCol_ScrollbarGrab] = rgb(b.border);
  c[ImGuiCol_ScrollbarGrabHovered] = rgb(b.faint);
  c[ImGuiCol_ScrollbarGrabActive] = rgb(b.muted);
  c[ImGuiCol_CheckMark] = rgb(b.accent);
  c[ImGuiCol_SliderGrab] = rgb(b.accent);
  c[ImGuiCol_SliderGrabActive] = rgb(b.accent);
  c[ImGuiCol_Button] = rgb(b.frame);
  c[ImGuiCol_ButtonHovered] = rgb(b.frame_hover);
  c[ImGuiCol_ButtonActive] = rgb(b.header);
  c[ImGuiCol_Header] = rgb(b.header);
  c[ImGuiCol_HeaderHovered] = rgb(b.frame_hover);
  c[ImGuiCol_HeaderActive] = rgb(b.header);
  c[ImGuiCol_Separator] = rgb(b.border);
  c[ImGuiCol_Tab] = rgb(b.bg, 0);
  c[ImGuiCol_TabHovered] = rgb(b.frame_hover);
  c[ImGuiCol_TabActive] = rgb(b.card);
  c[ImGuiCol_TabUnfocused] = rgb(b.bg, 0);
  c[ImGuiCol_TabUnfocusedActive] = rgb(b.card);
  c[ImGuiCol_TableHeaderBg] = rgb(b.frame);
  c[ImGuiCol_TableBorderStrong] = rgb(b.border);
  c[ImGuiCol_TableBorderLight] = rgb(b.border, 0.6f);
  c[ImGuiCol_TableRowBg] = rgb(b.card, 0);
  c[ImGuiCol_TableRowBgAlt] = rgb(b.frame, dark ? 0.35f : 0.6f);
  c[ImGuiCol_TextSelectedBg] = rgb(b.accent, 0.35f);
  c[ImGuiCol_NavHighlight] = rgb(b.accent);
  c[ImGuiCol_ModalWindowDimBg] = rgb(0, 0.3f);
  style.ScaleAllSizes(dpr);
  ImGui::GetStyle() = style;

  Palette p;
  p.text = u32(b.text);
  p.muted = u32(b.muted);
  p.faint = u32(b.faint);
  p.accent = u32(b.accent);
  p.accent_soft = u32(b.accent, dark ? 0.22f : 0.14f);
  p.good = u32(b.good);
  p.warn = u32(b.warn);
  p.bad = u32(b.bad);
  p.card = u32(b.card);
  p.card_border = u32(b.border);
  p.grid = u32(b.border, 0.7f);
  p.hover = u32(b.accent, 0.12f);
  const int dark_series[8] = {0x5b9cf5, 0xf2a444, 0x4cc38a, 0xe0697d, 0xa98bf0, 0x3fc1c9, 0xd4c45a, 0x9aa2b1};
  const int light_series[8] = {0x2563c9, 0xd9822b, 0x1f8a5b, 0xc23a57, 0x7a55d6, 0x1c8f99, 0x9c8a10, 0x6b7280};
  for (int i = 0; i < 8; ++i) p.series[i] = u32(dark ? dark_series[i] : light_series[i]);
  p.clear = rgb(b.bg);
  return p;
}

}  // namespace sizer_web
