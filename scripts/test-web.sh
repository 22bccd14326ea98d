#!/usr/bin/env bash
# Builds the web part and runs the browser tests (headless Debian Chromium via playwright-core).
# Usage: scripts/test-web.sh [BUILD_DIR]      (default build-web; screenshots in BUILD_DIR/screenshots/)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(realpath -m "${1:-$repo/build-web}")"
"$repo/scripts/build-web.sh" "$build"
node "$repo/tests/browser/run.mjs" "$build"
