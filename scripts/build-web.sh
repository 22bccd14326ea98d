#!/usr/bin/env bash
# Builds the web part (WebAssembly app, offline single file, JS API, static site) with Emscripten.
# Usage: scripts/build-web.sh [BUILD_DIR]     (default build-web; output in BUILD_DIR/site/)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(realpath -m "${1:-$repo/build-web}")"

"$repo/scripts/deps.sh"
export NODE_PATH=/usr/share/nodejs   # emcc's JS optimizer needs Debian's acorn (docs: toolchain)
emcmake cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)"

# Precompressed copies beside the site's files, which scripts/static-server.mjs serves to browsers
# that accept gzip (zopfli where installed: about 4% smaller than gzip -9). Redone when the file is
# newer than its copy; a static host can serve them the same way.
for f in "$build"/site/*.html "$build"/site/*.js "$build"/site/*.mjs "$build"/site/*.wasm "$build"/site/*.css; do
  [[ -f "$f" ]] || continue
  if [[ ! -f "$f.gz" || "$f" -nt "$f.gz" ]]; then
    if command -v zopfli >/dev/null; then zopfli -c "$f" >"$f.gz"; else gzip -9 -n -c "$f" >"$f.gz"; fi
  fi
done

offline="$build/site/sizer-offline.html"
echo "build-web: site in $build/site"
echo "build-web: sizer-offline.html $(stat -c %s "$offline") bytes, $(gzip -9c "$offline" | wc -c) gzipped"
