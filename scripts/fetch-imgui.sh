#!/usr/bin/env bash
# Fetches Dear ImGui 1.86 sources from Debian's source package `imgui` into DEST (a build-tree
# folder; third-party sources are never committed). Uses a private apt sources list, so the
# system's apt setup is left alone. Cached: does nothing when DEST already holds the sources.
# Applies two edits to the copy in DEST (see below).
# Usage: scripts/fetch-imgui.sh DEST
set -euo pipefail

dest="${1:?usage: $0 DEST}"
version="1.86"
stamp="sizer-edit-3"   # written after the edits below; a copy without it is extracted again
if [[ -f "$dest/$stamp" && -f "$dest/imgui.cpp" && -f "$dest/backends/imgui_impl_glfw.cpp" ]]; then
  exit 0
fi

dl="${dest}.download"   # apt lists and the tarball; kept so a rebuild needs no network
mkdir -p "$dl/lists/partial"
tarball=$(ls "$dl"/imgui_${version}*.orig.tar.* 2>/dev/null | head -n1 || true)
if [[ -z "$tarball" ]]; then
  # The machine's own apt mirror (no registry host name lives in this repository): the first
  # non-security URI of a deb822 "URIs:" line, else of a one-line "deb" entry; comments are skipped.
  mirror=$( (grep -h -E '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -E 's/^URIs: *//' | tr ' ' '\n'
             grep -h -E '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
               | grep -o -E 'https?://[^ ]+') | grep -E '^https?://' | grep -v security | head -n 1 || true)
  [[ -n "$mirror" ]] || { echo "fetch-imgui: no apt mirror configured on this machine" >&2; exit 1; }
  printf 'Types: deb deb-src\nURIs: %s\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$mirror" > "$dl/src.sources"
  opts=(-o "Dir::Etc::SourceList=$dl/src.sources" -o Dir::Etc::SourceParts=/dev/null
        -o "Dir::State::Lists=$dl/lists" -o Dir::Cache=/dev/null -o APT::Sandbox::User=root -qq)
  echo "fetch-imgui: downloading Debian source package imgui ${version}"
  apt-get "${opts[@]}" update
  (cd "$dl" && apt-get "${opts[@]}" source --download-only imgui)
  tarball=$(ls "$dl"/imgui_${version}*.orig.tar.* | head -n1)
fi

tmp=$(mktemp -d "${dest}.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
tar -xf "$tarball" -C "$tmp"
src=$(dirname "$(find "$tmp" -name imgui.cpp -not -path '*/backends/*' | head -n1)")
grep -q "IMGUI_VERSION *\"${version}" "$src/imgui.h" || { echo "fetch-imgui: not ImGui ${version}" >&2; exit 1; }
# First edit, in the build tree only: ImFontAtlas::Build() falls back to ProggyClean when no font was
# added. Sizer always adds its own before building, and that one call is all that links the
# fallback in (12 KB of base85 font data and its decompressor in every copy of the app, about
# 10 KB gzipped); without it the linker drops them. An atlas built empty asserts instead.
python3 - "$src/imgui_draw.cpp" <<'PY'
import sys
path = sys.argv[1]
text = open(path, encoding='utf-8').read()
old = "    if (ConfigData.Size == 0)\n        AddFontDefault();\n"
if text.count(old) != 1:
    sys.exit("fetch-imgui: ImFontAtlas::Build()'s default-font fallback not found in imgui_draw.cpp")
text = text.replace(old, "    IM_ASSERT(ConfigData.Size > 0 && \"Sizer adds its fonts before Build()\");\n")
# Second edit: the glyph rasterizer stays a function of its own. Called from one place, it would be
# inlined into the atlas builder, which runs once: a browser compiles it with its baseline compiler
# and never swaps in optimized code while it runs, so all ~1,300 glyphs would be drawn by baseline
# code. Out of line (its address taken and kept), it is called once per glyph and the browser tiers
# it up after the first few hundred: the atlas step of the first frame is about 8 ms shorter
# (docs/budgets.md). No behaviour changes.
if "stbtt_PackFontRangesRenderIntoRects" not in text:
    sys.exit("fetch-imgui: stbtt_PackFontRangesRenderIntoRects not found in imgui_draw.cpp")
text += ("\n// Sizer (scripts/fetch-imgui.sh): keeps the per-glyph rasterizer out of line; see there.\n"
         "extern \"C\" __attribute__((used)) void* const volatile sizer_out_of_line_rasterizer =\n"
         "    (void*)&stbtt_MakeGlyphBitmapSubpixel;\n")
# Third edit: word wrapping never breaks a number. ImGui allows a break after . , ; ! ? " anywhere,
# so "1.28M" or "12,471" at the end of a wrapped line could read "1." and "28M" on two lines. A '.'
# or ',' followed by a digit now stays inside its word; after a space, or before a letter, it
# still allows a break. tests/browser/labels.test.mjs wraps numbers at every width.
old = ("            inside_word = (c != '.' && c != ',' && c != ';' && c != '!' && c != '?' && c != '\\\"');\n")
if text.count(old) != 1:
    sys.exit("fetch-imgui: the punctuation rule of ImFont::CalcWordWrapPositionA not found in imgui_draw.cpp")
text = text.replace(old, "            inside_word = (c != '.' && c != ',' && c != ';' && c != '!' && c != '?' && c != '\\\"') ||\n"
                         "                          ((c == '.' || c == ',') && next_s < text_end && *next_s >= '0' && *next_s <= '9');\n")
open(path, 'w', encoding='utf-8').write(text)
PY
touch "$src/$stamp"
rm -rf "$dest" && mkdir -p "$(dirname "$dest")" && mv "$src" "$dest"
echo "fetch-imgui: ImGui ${version} sources in $dest"
