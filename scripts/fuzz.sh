#!/usr/bin/env bash
# Builds the libFuzzer target for the scenario and table parsers with clang (ASan + UBSan) and
# runs it for SECONDS (default 60) on a scratch copy of tests/fuzz/corpus.
# Usage: scripts/fuzz.sh [SECONDS] [BUILD_DIR]
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
build="$(realpath -m "${2:-$repo/build-fuzz}")"
CXX=clang++ cmake -S "$repo" -B "$build" -DSIZER_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build "$build" --target fuzz_scenario -j"$(nproc)"
work="$build/corpus"
mkdir -p "$work"
cp -n "$repo"/tests/fuzz/corpus/* "$repo"/docs/examples/*.json "$work"/ 2>/dev/null || true
echo "fuzz: running for ${seconds}s"
"$build/tests/fuzz/fuzz_scenario" -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 \
  -timeout=10 "$work" 2>&1 | tail -n 12
