#!/usr/bin/env bash
# Checks the core's layering (core/src/README.md): each folder may include its own layer and the
# layers below it, never a higher one, and a folder's private headers (core/src/<layer>/*.h) only
# from that folder. The front ends (cli/, web/) include public headers only.
#
#   formulas < layout, serve, ops < planners < contract, io < validation, share < front ends
#
# Usage: scripts/check-layers.sh        (exit 1 and one line per offending include)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

rank() {
  case "$1" in
    formulas) echo 0 ;;
    layout | serve | ops) echo 1 ;;
    planners) echo 2 ;;
    contract | io) echo 3 ;;
    validation | share) echo 4 ;;
    *) echo -1 ;;
  esac
}

bad=0
fail() { echo "$1: $2" >&2; bad=$((bad + 1)); }

# Every public header sits in its layer's folder (the umbrella sizer.h aside), every source in one.
for f in core/include/sizer/*.h; do
  [[ "$(basename "$f")" == sizer.h ]] || fail "$f" "public header outside a layer folder (core/include/sizer/<layer>/)"
done
for d in core/include/sizer/*/ core/src/*/; do
  [[ "$(rank "$(basename "$d")")" -ge 0 ]] || fail "$d" "not a layer folder"
done

# Includes of core files: a layer's public headers ("sizer/<layer>/…") and private ones ("<layer>/…"
# or a bare name beside the including file).
while IFS= read -r file; do
  case "$file" in
    core/include/sizer/sizer.h) continue ;;
    core/include/sizer/*) layer="${file#core/include/sizer/}" ;;
    core/src/*) layer="${file#core/src/}" ;;
  esac
  layer="${layer%%/*}"
  own="$(rank "$layer")"
  while IFS= read -r inc; do
    case "$inc" in
      sizer/sizer.h) fail "$file" "includes the umbrella $inc (front ends only)" ;;
      sizer/*/*)
        to="${inc#sizer/}"; to="${to%%/*}"
        [[ "$(rank "$to")" -ge 0 ]] || { fail "$file" "includes $inc: no such layer"; continue; }
        [[ "$(rank "$to")" -le "$own" ]] || fail "$file" "includes $inc, a higher layer ($to above $layer)" ;;
      sizer/*) fail "$file" "includes $inc, a header outside the layer folders" ;;
      */*)
        to="${inc%%/*}"
        [[ "$to" == "$layer" ]] || fail "$file" "includes $inc, another folder's private header" ;;
      *)
        [[ -f "$(dirname "$file")/$inc" ]] || fail "$file" "includes $inc, not beside it" ;;
    esac
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
done < <(find core/include/sizer core/src -name '*.h' -o -name '*.cpp' | sort)

# Front ends: public headers only.
while IFS= read -r file; do
  while IFS= read -r inc; do
    case "$inc" in
      formulas/* | layout/* | serve/* | ops/* | planners/* | contract/* | io/* | validation/* | share/*)
        fail "$file" "includes $inc, a core-private header (front ends use core/include/sizer/ only)" ;;
    esac
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
done < <(find cli web/src -name '*.h' -o -name '*.cpp' | sort)

if [[ "$bad" -gt 0 ]]; then
  echo "layering: $bad include(s) break the order in core/src/README.md" >&2
  exit 1
fi
echo "layering: every include of core/, cli/ and web/ keeps the order in core/src/README.md"
