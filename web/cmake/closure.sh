#!/usr/bin/env bash
# Closure Compiler for Emscripten 3.1.6's --closure 1 (EM_CLOSURE_COMPILER points here: web/cmake/closure.cmake).
# Runs the npm package google-closure-compiler of the repository's node_modules (scripts/deps.sh
# installs it; Debian's closure-compiler is too old for Emscripten's glue) and maps the one
# argument that Emscripten 3.1.6 passes and newer Closure no longer knows (ECMASCRIPT_NEXT_IN), and
# drops from Emscripten's own externs the WebGPU globals newer Closure declares itself (declared
# twice is an error). Emscripten runs this in its temporary folder, where the filtered copy goes.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
args=()
for a in "$@"; do
  [[ $a == ECMASCRIPT_NEXT_IN ]] && a=ECMASCRIPT_NEXT
  if [[ $a == */closure-externs/closure-externs.js ]]; then
    grep -v -E '^var GPU[A-Za-z]*;$' "$a" > sizer-closure-externs.js
    a="$PWD/sizer-closure-externs.js"
  fi
  args+=("$a")
done
# The names the page's JS uses (page_externs.py, passed by web/cmake/closure.cmake).
if [[ -n ${SIZER_CLOSURE_EXTERNS:-} ]]; then args=(--externs "$SIZER_CLOSURE_EXTERNS" "${args[@]}"); fi
exec "$repo/node_modules/.bin/google-closure-compiler" --externs "$repo/web/cmake/closure-externs.js" "${args[@]}"
