#!/usr/bin/env bash
# Regenerates docs/validation/results.md: the complete output of `sizer validate` and
# `sizer calibrate --loso` over the training runs files (summarised in docs/validation.md).
# Usage: scripts/validation-results.sh [path/to/sizer]    (default build/cli/sizer)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
sizer="${1:-build/cli/sizer}"
files=(docs/validation/runs.json docs/validation/runs-extended.json docs/validation/runs-chips.json
       docs/validation/runs-moe.json docs/validation/runs-fsdp.json)
fit="gemm,fp8_gemm_vs_bf16,stack.memory_bound_scale,stack.layer_overhead_s,stack.attention"
out=docs/validation/results.md
{
  cat <<HEAD
# Validation results: complete CLI output

Generated, not edited: the per-run tables behind [\`../validation.md\`](../validation.md). Regenerate
with \`scripts/validation-results.sh\`, which runs the two commands below (deterministic from the
repository; $(date -u +%Y-%m-%d), commit of this file).

## Predicted against published, every run

\`\`\`sh
build/cli/sizer validate docs/validation/runs.json docs/validation/runs-extended.json \\
  docs/validation/runs-chips.json docs/validation/runs-moe.json docs/validation/runs-fsdp.json --format markdown
\`\`\`

HEAD
  "$sizer" validate "${files[@]}" --format markdown
  cat <<MID

## Fit, error after the fit, leave one source out

\`\`\`sh
build/cli/sizer calibrate docs/validation/runs.json docs/validation/runs-extended.json \\
  docs/validation/runs-chips.json docs/validation/runs-moe.json docs/validation/runs-fsdp.json \\
  --fit $fit --loso
\`\`\`

MID
  "$sizer" calibrate "${files[@]}" --fit "$fit" --loso | sed 's/^## /### /'
} > "$out"
echo "wrote $out"
