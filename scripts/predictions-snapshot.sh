#!/usr/bin/env bash
# Writes every prediction the CLI makes over the repository's own scenarios and validation files
# into one directory, so a refactor can prove that no figure moved: take a snapshot before, one
# after, and compare them (byte for byte).
#
# Usage: scripts/predictions-snapshot.sh OUT_DIR [path/to/sizer]     (default build/cli/sizer)
#        scripts/predictions-snapshot.sh --compare BEFORE_DIR AFTER_DIR
#
# Covered: for each docs/examples scenario, `eval` (the JSON result with its working), `report`,
# `plan`, `table` (json) and, where it has a serving workload, `serve-search --devices all`; for
# the training runs files, `validate --format json` and `calibrate --loso`; for the serving runs,
# `validate --format json`; and the bundled tables (`list … --json`).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [[ "${1:-}" == "--compare" ]]; then
  before="$2"; after="$3"
  if diff -r -q "$before" "$after"; then
    echo "predictions identical: $(ls "$before" | wc -l) outputs compared byte for byte"
    exit 0
  fi
  echo "predictions differ (above); e.g. diff $before/<file> $after/<file>" >&2
  exit 1
fi

out="$(realpath -m "${1:?usage: scripts/predictions-snapshot.sh OUT_DIR [sizer]}")"
sizer="$(realpath "${2:-$repo/build/cli/sizer}")"
mkdir -p "$out"
cd "$repo"

# Runs one command and keeps its stdout and exit status (a refusal is a prediction too).
snap() {
  local name="$1"; shift
  local rc=0
  "$sizer" "$@" >"$out/$name" 2>"$out/$name.err" || rc=$?
  echo "$rc" >"$out/$name.rc"
}

for f in docs/examples/*.json; do
  b="$(basename "$f" .json)"
  snap "$b.eval.json" eval "$f"
  snap "$b.report.txt" report "$f"
  snap "$b.plan.json" plan "$f"
  snap "$b.table.json" table "$f" --format json
  snap "$b.markdown.md" eval "$f" --format markdown
  if grep -q '"workload"' "$f"; then
    snap "$b.serve-search.json" serve-search "$f" --devices all
  fi
done

training=(docs/validation/runs.json docs/validation/runs-extended.json docs/validation/runs-chips.json
          docs/validation/runs-moe.json docs/validation/runs-fsdp.json)
for f in "${training[@]}" docs/validation/runs-pending.json docs/validation/serving-runs.json; do
  snap "validate.$(basename "$f" .json).json" validate "$f" --format json
done
snap "calibrate.loso.txt" calibrate "${training[@]}" --loso
snap "table.default.json" table --format json
for t in devices systems prices models; do
  snap "list.$t.json" list "$t" --json
done
echo "wrote $(ls "$out" | wc -l) files to $out"
