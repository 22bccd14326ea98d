// The subset font files compiled into the binary; the definitions are generated at build time
// by web/cmake/embed_fonts.cmake from Debian's font packages.
#pragma once

namespace sizer_web {

struct EmbeddedFont {
  const unsigned char* data;
  int size;  // bytes
};

extern const EmbeddedFont kRobotoRegular;
extern const EmbeddedFont kRobotoMedium;
extern const EmbeddedFont kJetBrainsMonoRegular;
extern const EmbeddedFont kDejaVuSans;  // fallback glyphs only (→ ⌈ ⌉ ᵀ), merged under the others
// Zero-terminated pairs of first/last code points kept by the subset (ImGui glyph-range format).
extern const unsigned short kFontGlyphRanges[];

}  // namespace sizer_web
