// Loads the embedded, subset fonts into ImGui's atlas (see fonts.h). Large sizes get only the
// glyphs headline numbers and titles need, which keeps the atlas small on high-DPI screens.
// DejaVu Sans is merged under each font for the few glyphs Roboto and JetBrains Mono lack (→ ⌈ ⌉ ᵀ);
// ImGui never lets a merged font overwrite a glyph the font already has.
#include "fonts.h"

#include "font_data.h"
#include "imgui.h"

namespace sizer_web {
namespace {
constexpr float kTextCssPx = 15.0f;
constexpr float kSmallCssPx = 13.0f;
constexpr float kHeadingCssPx = 18.0f;
constexpr float kBigCssPx = 26.0f;
constexpr float kNumberCssPx = 14.0f;
// The heading and headline faces show fixed titles and formatted numbers, never names people type,
// so they skip Latin-1's letters (À–ÿ): ASCII, Latin-1's signs (NBSP–¿, × ÷), thin/narrow spaces,
// dashes and quotes, super- and subscript digits (CO₂e, 10⁶), arrows, euro, − ≈ ≤ ≥, ⌈ ⌉. At 18 and
// 26 px these are the atlas's largest glyphs: 124 fewer is about a tenth of its build time.
const ImWchar kTitleRanges[] = {0x0020, 0x007E, 0x00A0, 0x00BF, 0x00D7, 0x00D7, 0x00F7, 0x00F7,
                                0x2009, 0x2027, 0x202F, 0x202F, 0x2070, 0x2070, 0x2074, 0x2079,
                                0x2080, 0x2089, 0x20AC, 0x20AC, 0x2190, 0x2195, 0x2212, 0x2212,
                                0x2248, 0x2248, 0x2264, 0x2265, 0x2308, 0x2309, 0};

ImFont* add_one(const EmbeddedFont& font, float size_px, const ImWchar* ranges, bool merge) {
  ImFontConfig config;
  config.FontDataOwnedByAtlas = false;  // the bytes live in static storage
  config.OversampleH = 1;  // glyphs are pixel-snapped: no sub-pixel copies (a smaller atlas, built faster)
  config.PixelSnapH = true;
  config.MergeMode = merge;
  return ImGui::GetIO().Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(font.data), font.size,
                                                    size_px, &config, ranges);
}

// A font plus the fallback glyphs merged into it.
ImFont* add_embedded(const EmbeddedFont& font, float size_px, const ImWchar* ranges) {
  ImFont* added = add_one(font, size_px, ranges, false);
  add_one(kDejaVuSans, size_px, ranges, true);
  return added;
}
}  // namespace

Fonts load_fonts(float dpr) {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  atlas->Clear();
  const auto* all = reinterpret_cast<const ImWchar*>(kFontGlyphRanges);
  Fonts fonts;
  fonts.text = add_embedded(kRobotoRegular, kTextCssPx * dpr, all);  // first font = default
  fonts.small = add_embedded(kRobotoRegular, kSmallCssPx * dpr, all);
  fonts.strong = add_embedded(kRobotoMedium, kTextCssPx * dpr, all);
  fonts.heading = add_embedded(kRobotoMedium, kHeadingCssPx * dpr, kTitleRanges);
  fonts.big = add_embedded(kRobotoMedium, kBigCssPx * dpr, kTitleRanges);
  fonts.numbers = add_embedded(kJetBrainsMonoRegular, kNumberCssPx * dpr, all);
  atlas->Build();
  return fonts;
}

}  // namespace sizer_web
