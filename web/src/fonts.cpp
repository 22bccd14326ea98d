// Loads the embedded, subset fonts into ImGui's atlas (see fonts.h).
#include "fonts.h"

#include "font_data.h"
#include "imgui.h"

namespace sizer_web {
namespace {
constexpr float kTextFontCssPx = 15.0f;
constexpr float kNumberFontCssPx = 14.0f;

ImFont* add_embedded(const EmbeddedFont& font, float size_px) {
  ImFontConfig config;
  config.FontDataOwnedByAtlas = false;  // the bytes live in static storage
  config.OversampleH = 2;
  config.PixelSnapH = true;
  const auto* ranges = reinterpret_cast<const ImWchar*>(kFontGlyphRanges);
  return ImGui::GetIO().Fonts->AddFontFromMemoryTTF(const_cast<unsigned char*>(font.data), font.size,
                                                    size_px, &config, ranges);
}
}  // namespace

Fonts load_fonts(float device_pixel_ratio) {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  atlas->Clear();
  Fonts fonts;
  fonts.text = add_embedded(kRobotoRegular, kTextFontCssPx * device_pixel_ratio);
  fonts.numbers = add_embedded(kJetBrainsMonoRegular, kNumberFontCssPx * device_pixel_ratio);
  atlas->Build();
  return fonts;
}

}  // namespace sizer_web
