#!/usr/bin/env bash
# Runs every test: installs what is missing, checks the core's layering, builds natively and runs
# the Catch2 and CLI tests,
# fuzzes the parsers briefly, then builds the web site and runs the real-browser tests.
# Usage: scripts/test.sh            (the README's test command; .ci/run calls it)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
jobs="$(nproc)"

scripts/deps.sh

echo "== layering (core/src/README.md)"
scripts/check-layers.sh

echo "== native build and tests"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$jobs"
ctest --test-dir build -j"$jobs" --output-on-failure

echo "== fuzz (short run; scripts/fuzz.sh 600 for ten minutes)"
scripts/fuzz.sh "${SIZER_FUZZ_SECONDS:-60}"

echo "== web build and real-browser tests"
scripts/test-web.sh build-web

echo "== all tests passed"
