#!/usr/bin/env bash
# Installs what building and testing Sizer needs on Debian 12, then the repo's npm packages
# (playwright-core, which drives Debian's Chromium, never `npx playwright install`; and
# google-closure-compiler, which minifies the web build's JS glue: Debian's is too old).
# Idempotent: apt runs (one `apt-get update`, then install) only when something is missing.
# Usage: scripts/deps.sh            (as root, or with sudo available)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

packages=(build-essential cmake git ca-certificates emscripten nlohmann-json3-dev catch2 chromium
          fonts-roboto-unhinted fonts-jetbrains-mono fonts-dejavu-core python3-fonttools xz-utils clang libclang-rt-14-dev
          zopfli)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# Any node >= 18 will do (Debian's 18, or a newer one already on the machine).
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)

if ((${#missing[@]})); then
  echo "deps: installing ${missing[*]}"
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then
    command -v sudo >/dev/null || { echo "deps: run as root to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

node_major=$(node -p 'process.versions.node.split(".")[0]')
((node_major >= 18)) || { echo "deps: node $(node --version) is too old, need 18 or newer" >&2; exit 1; }

# npm packages, only when one is missing or the lock file is newer than the installed tree.
cd "$repo"
stamp="node_modules/.package-lock.json"
if [[ ! -d node_modules/playwright-core || ! -x node_modules/.bin/google-closure-compiler || ! -f "$stamp" ||
      package-lock.json -nt "$stamp" ]]; then
  # `npm install`, not `npm ci`: google-closure-compiler lists optional per-platform binaries
  # (linux-arm64, macos) that the registry mirror this is built against does not serve, so the lock
  # file cannot hold them and `npm ci` refuses it as out of sync. npm install takes the lock file's
  # pinned versions (package.json pins them too) and skips the optional packages it cannot fetch.
  echo "deps: npm install"
  npm install --no-audit --no-fund --loglevel=error
fi
echo "deps: ok"
