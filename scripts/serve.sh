#!/usr/bin/env bash
# Builds the web part, then serves BUILD_DIR/site on http://127.0.0.1:PORT/ until Ctrl+C.
# Usage: scripts/serve.sh [BUILD_DIR] [PORT]   (defaults: build-web, 8080)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(realpath -m "${1:-$repo/build-web}")"
port="${2:-8080}"
"$repo/scripts/build-web.sh" "$build"
echo "serve: open http://127.0.0.1:${port}/ (offline file: http://127.0.0.1:${port}/sizer-offline.html)"
exec node "$repo/scripts/static-server.mjs" "$build/site" "$port"
