#!/usr/bin/env bash
# Builds the libFuzzer targets (one per parser reachable from the page or the CLI: JSON itself,
# scenario, tables, share link, embed fragment/request, import file, validation file) with clang,
# ASan and UBSan, core included, and runs each on a scratch copy of tests/fuzz/corpus.
# SECONDS (default 60) is the total run time, shared equally (at least 2 s per target).
# Usage: scripts/fuzz.sh [SECONDS] [BUILD_DIR]
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
build="$(realpath -m "${2:-$repo/build-fuzz}")"
targets=(fuzz_json fuzz_scenario fuzz_tables fuzz_share fuzz_embed fuzz_import fuzz_validation)
jobs="$(nproc)"; [ "$jobs" -gt 2 ] && jobs=2
CXX=clang++ cmake -S "$repo" -B "$build" -DSIZER_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++ >/dev/null
cmake --build "$build" --target fuzz_all -j"$jobs"
each=$(( seconds / ${#targets[@]} )); [ "$each" -lt 2 ] && each=2
echo "fuzz: ${#targets[@]} targets, ${each}s each"
for t in "${targets[@]}"; do
  work="$build/corpus/$t"
  mkdir -p "$work"
  cp -n "$repo"/tests/fuzz/corpus/* "$repo"/docs/examples/*.json "$work"/ 2>/dev/null || true
  log="$build/$t.log"
  if ! "$build/tests/fuzz/$t" -max_total_time="$each" -max_len=4096 -print_final_stats=1 -timeout=10 \
      -rss_limit_mb=2048 "$work" >"$log" 2>&1; then
    tail -n 40 "$log"
    echo "fuzz: $t FAILED (log: $log; crashing input in the current directory)"
    exit 1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  echo "fuzz: $t ok, $runs runs in ${each}s"
done
