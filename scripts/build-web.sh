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

offline="$build/site/sizer-offline.html"
echo "build-web: site in $build/site"
echo "build-web: sizer-offline.html $(stat -c %s "$offline") bytes, $(gzip -9c "$offline" | wc -c) gzipped"
