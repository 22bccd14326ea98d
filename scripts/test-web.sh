#!/usr/bin/env bash
# Builds the web part (and the native CLI the JS API is compared with) and runs the
# browser tests (headless Debian Chromium via playwright-core).
# Usage: scripts/test-web.sh [BUILD_DIR]      (default build-web; screenshots in BUILD_DIR/screenshots/)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(realpath -m "${1:-$repo/build-web}")"
"$repo/scripts/build-web.sh" "$build"
# Always (re)build the CLI: an incremental no-op when fresh, and never compare against a stale one.
cmake -S "$repo" -B "$repo/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$repo/build" --target sizer -j"$(nproc)"
SIZER_CLI="$repo/build/cli/sizer" node "$repo/tests/browser/run.mjs" "$build"
