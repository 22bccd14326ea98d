#!/usr/bin/env bash
# Runs every test: installs what is missing, checks the core's layering, builds natively and runs
# the Catch2 and CLI tests,
# fuzzes the parsers briefly, then builds the web site and runs the real-browser tests.
# Usage: scripts/test.sh            (the README's test command; .ci/run calls it)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
jobs="$(nproc)"
start=$SECONDS
# A stage's banner with the minutes and seconds since the start, so a run shows where its time goes.
stage() { printf '== %s (at %dm%02ds)\n' "$1" $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60)); }

scripts/deps.sh

stage "layering (core/src/README.md)"
scripts/check-layers.sh

stage "native build and tests"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build -j"$jobs" --output-on-failure

stage "fuzz (short run; scripts/fuzz.sh 600 for ten minutes)"
scripts/fuzz.sh "${SIZER_FUZZ_SECONDS:-60}"

stage "web build and real-browser tests"
scripts/test-web.sh build-web

stage "all tests passed"
