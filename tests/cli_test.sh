#!/usr/bin/env bash
# End-to-end checks of the `sizer` CLI: exit codes, messages naming the JSON path, output formats.
# Usage: tests/cli_test.sh path/to/sizer repo-root
set -u
SIZER=$1
ROOT=$2
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() {  # check NAME EXPECTED_EXIT PATTERN -- command...
  local name=$1 want=$2 pattern=$3
  shift 4
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL $name: exit $got, want $want"; cat "$tmp/err"; fail=1; return
  fi
  if [ -n "$pattern" ] && ! grep -qE -- "$pattern" "$tmp/out" "$tmp/err"; then
    echo "FAIL $name: output lacks /$pattern/"; head -5 "$tmp/out" "$tmp/err"; fail=1; return
  fi
  if grep -qiE '(^|[^a-z])(nan|inf)([^a-z]|$)' "$tmp/out"; then
    echo "FAIL $name: NaN or inf in output"; fail=1; return
  fi
  echo "ok   $name"
}

check "version" 0 "sizer 1" -- "$SIZER" version
check "eval stdin defaults" 0 '"schema": "sizer.result.v1"' -- bash -c "echo '{}' | '$SIZER' eval -"
for f in "$ROOT"/docs/examples/*.json; do
  check "eval example $(basename "$f")" 0 '"state_bytes"' -- "$SIZER" eval "$f"
done
check "report shows working" 0 "C = 6 · N_active · D" -- bash -c "echo '{}' | '$SIZER' report -"
check "list devices" 0 "gb200" -- "$SIZER" list devices
check "list prices json" 0 '"usd_per_device_hour"' -- "$SIZER" list prices --json
check "list models" 0 "moe-1t" -- "$SIZER" list models
check "list systems" 0 "gb200-nvl72" -- "$SIZER" list systems
check "table text" 0 "gb200" -- "$SIZER" table
check "table csv" 0 "^device,precision" -- "$SIZER" table --format csv
check "table markdown" 0 "^\| Device" -- "$SIZER" table --format markdown --devices h100,gb200
check "eval csv" 0 "^training.compute.device_hours\[0\]," -- bash -c "echo '{}' | '$SIZER' eval - --format csv"
check "eval markdown" 0 "^\| Devices for the schedule \| 12,471 – 18,050" -- bash -c "echo '{}' | '$SIZER' eval - --format markdown"
check "eval bad format" 2 "eval --format must be" -- bash -c "echo '{}' | '$SIZER' eval - --format yaml"
check "table json" 0 '"device_hours"' -- "$SIZER" table --format json --precisions fp8

# Invalid input: exit 2 and a message naming the JSON path.
bad() {  # bad NAME JSON PATH_PATTERN
  printf '%s' "$2" >"$tmp/bad.json"
  check "invalid: $1" 2 "$3" -- "$SIZER" eval "$tmp/bad.json"
}
bad "malformed JSON" '{"model": ' "not valid JSON"
bad "wrong type" '{"training": {"days": "x"}}' "training.days: must be"
bad "negative" '{"serving": {"batch": -1}}' "serving.batch: must be"
bad "zero" '{"training": {"goodput": 0}}' "training.goodput: must be"
bad "huge" '{"training": {"tokens": 1e308}}' "training.tokens: must be"
bad "NaN token" '{"training": {"days": NaN}}' "not valid JSON"
bad "unknown device lists ids" '{"device": "h1000"}' "device: unknown device.*h100"
bad "unknown model lists ids" '{"model": "x"}' "model: unknown model.*dense-1t"
bad "missing shape field" '{"model": {"params": 1e9, "layers": 2, "hidden": 64}}' "model.heads: is required"
bad "unknown key" '{"servng": {}}' "servng: unknown field"
# The serving performance model's inputs, refused naming the field.
bad "serving slo of 0" '{"model": "llama-3-70b", "device": "h100", "serving": {"workload": {"concurrency": 1}, "slo": {"ttft_s": 0}}}' "serving.slo.ttft_s: must be a number in \\(0, 3600\\]"
bad "serving output tokens 0" '{"model": "llama-3-70b", "device": "h100", "serving": {"workload": {"output_tokens": 0, "concurrency": 1}}}' "serving.workload.output_tokens: must be a whole number"
bad "serving concurrency above KV" '{"model": "llama-3-70b", "device": "h100", "serving": {"layout": {"tp": 8}, "workload": {"concurrency": 1000000}}}' "serving.workload.concurrency: must be at most max_concurrency_kv"
bad "serving ep not dividing" '{"model": "deepseek-v3", "device": "h200", "serving": {"layout": {"tp": 8, "ep": 3}, "workload": {"concurrency": 1}}}' "serving.layout.ep: must divide the replica's tp × dp = 8 ranks and the 256 experts"
check "serving performance" 0 '"tokens_per_s_per_user"' -- "$SIZER" eval "$ROOT/docs/examples/serve-llama-3-70b-h100.json"
check "report serving predicted" 0 "TTFT / TPOT / end to end" -- "$SIZER" report "$ROOT/docs/examples/serve-llama-3-70b-h100.json"
check "report reliability" 0 "goodput predicted / assumed" -- "$SIZER" report "$ROOT/docs/examples/llama3-405b-reliability.json"
check "report intervals" 0 "Intervals \(p10 / p50 / p90" -- "$SIZER" report "$ROOT/docs/examples/llama3-405b-reliability.json"
check "import-hf" 0 '"params": 46702792704' -- bash -c "echo '{\"model_type\": \"mixtral\", \"hidden_size\": 4096, \"intermediate_size\": 14336, \"num_hidden_layers\": 32, \"num_attention_heads\": 32, \"num_key_value_heads\": 8, \"vocab_size\": 32000, \"num_local_experts\": 8, \"num_experts_per_tok\": 2}' | '$SIZER' import-hf -"
check "import-hf refuses, naming the field" 2 "config.num_hidden_layers: is required" -- bash -c "echo '{\"model_type\": \"llama\", \"hidden_size\": 64}' | '$SIZER' import-hf -"
# An architecture the importer does not know, or a value outside what a model allows, is refused
# at import naming the config key (not later by the scenario parser naming model.*).
check "import-hf refuses an unknown model_type" 2 'config.model_type: "mamba" is not an architecture the importer knows.*known: llama' -- bash -c "echo '{\"model_type\": \"mamba\", \"hidden_size\": 64}' | '$SIZER' import-hf -"
check "import-hf refuses a missing model_type" 2 'config.model_type: is required' -- bash -c "echo '{\"hidden_size\": 64}' | '$SIZER' import-hf -"
check "import-hf refuses 0 key-value heads" 2 "config.num_key_value_heads: must be a whole number in \[1, 10\^7\]; got 0" -- bash -c "echo '{\"model_type\": \"llama\", \"hidden_size\": 4096, \"intermediate_size\": 14336, \"num_hidden_layers\": 32, \"num_attention_heads\": 32, \"num_key_value_heads\": 0, \"vocab_size\": 128256}' | '$SIZER' import-hf -"
check "import-hf refuses 10^12 vocabulary" 2 "config.vocab_size: must be a whole number in \[1, 10\^7\]" -- bash -c "echo '{\"model_type\": \"llama\", \"hidden_size\": 4096, \"intermediate_size\": 14336, \"num_hidden_layers\": 32, \"num_attention_heads\": 32, \"vocab_size\": 1e12}' | '$SIZER' import-hf -"
check "import-hf applies Gemma3TextConfig's defaults" 0 '"window_layers": 52' -- bash -c "echo '{\"model_type\": \"gemma3\", \"text_config\": {\"head_dim\": 128, \"hidden_size\": 5376, \"intermediate_size\": 21504, \"model_type\": \"gemma3_text\", \"num_attention_heads\": 32, \"num_hidden_layers\": 62, \"num_key_value_heads\": 16, \"sliding_window\": 1024}}' | '$SIZER' import-hf -"
check "missing file" 2 "cannot open" -- "$SIZER" eval "$tmp/does-not-exist.json"
check "bad table option" 2 "unknown precision" -- "$SIZER" table --precisions fp7
check "bad tables file" 2 "invalid tables" -- bash -c "echo '{\"devices\": [{\"id\": \"x\"}]}' > '$tmp/t.json'; '$SIZER' list devices --tables '$tmp/t.json'"
check "user tables" 0 "x1.*user-supplied" -- bash -c "echo '{\"devices\": [{\"id\": \"x1\", \"name\": \"X1\", \"memory_bytes\": 1e11, \"hbm_bytes_per_s\": 1e12, \"dense_flops\": {\"bf16\": 1e15}, \"scale_up_bytes_per_s\": 1e11}]}' > '$tmp/u.json'; '$SIZER' list devices --tables '$tmp/u.json'"
check "plan" 0 '"mfu_predicted"' -- "$SIZER" plan "$ROOT/docs/examples/megatron-3072-a100.json"
# Eval and plan accept and refuse the same layouts, naming the field.
check "plan refuses a bad layout" 2 "training.layout.tp: TP 7 does not divide the 160 attention heads" -- bash -c "echo '{\"training\": {\"layout\": {\"tp\": 7}}}' | '$SIZER' plan -"
check "eval refuses the same layout" 2 "training.layout.tp: TP 7 does not divide the 160 attention heads" -- bash -c "echo '{\"training\": {\"layout\": {\"tp\": 7}}}' | '$SIZER' eval -"
check "eval refuses 10^18 devices" 2 "training.layout: gives tp × pp × dp × cp × ep = 1.00e18 devices" -- bash -c "echo '{\"training\": {\"layout\": {\"tp\": 1e6, \"pp\": 1e6, \"dp\": 1e6}}}' | '$SIZER' eval -"
check "search" 0 '"layouts_evaluated"' -- bash -c "echo '{\"training\": {\"search\": {\"devices\": [512, 2048], \"top\": 3}}}' | '$SIZER' search -"
check "serve-search" 0 '"schema": "sizer.serve_search.v1"' -- bash -c "echo '{\"model\": \"llama-3-70b\", \"device\": \"h100\", \"serving\": {\"workload\": {\"input_tokens\": 1024, \"output_tokens\": 256, \"concurrency\": 8}, \"slo\": {\"tpot_s\": 0.05}, \"search\": {\"devices\": [1, 8]}}}' | '$SIZER' serve-search -"
check "report disaggregated" 0 "Serving, disaggregated" -- bash -c "echo '{\"model\": \"llama-3-70b\", \"device\": \"h100\", \"serving\": {\"layout\": {\"tp\": 8}, \"workload\": {\"input_tokens\": 4096, \"output_tokens\": 512, \"concurrency\": 64}, \"disaggregation\": {\"prefill\": {\"tp\": 4}, \"decode\": {\"tp\": 8}}}}' | '$SIZER' report -"
check "serve-search on two chips" 0 '"schema": "sizer.serve_search_chips.v1"' -- bash -c "echo '{\"model\": \"llama-3-70b\", \"device\": \"h100\", \"serving\": {\"workload\": {\"input_tokens\": 1024, \"output_tokens\": 256, \"concurrency\": 8}, \"slo\": {\"tpot_s\": 0.05}, \"search\": {\"devices\": [1, 8]}}}' | '$SIZER' serve-search - --devices h100,a100 | grep -c '\"device\": \"' | grep -qx 2 && echo '\"schema\": \"sizer.serve_search_chips.v1\"'"
check "serve-search unknown chip" 2 "--devices: unknown device \"h1000\"" -- bash -c "echo '{\"serving\": {\"workload\": {\"input_tokens\": 8, \"output_tokens\": 8, \"concurrency\": 1}}}' | '$SIZER' serve-search - --devices h1000"
check "serve-search needs a workload" 2 "serving.workload: is required for serve-search" -- bash -c "echo '{}' | '$SIZER' serve-search -"
check "serve-search bad devices" 2 "serving.search.devices: must be \[min, max\] with min ≤ max" -- bash -c "echo '{\"serving\": {\"workload\": {\"input_tokens\": 8, \"output_tokens\": 8, \"concurrency\": 1}, \"search\": {\"devices\": [8, 2]}}}' | '$SIZER' serve-search -"
check "serve-search impossible SLO" 0 '"no_best_reason": "serving.slo.tpot_s binds' -- bash -c "echo '{\"model\": \"llama-3-70b\", \"device\": \"h100\", \"serving\": {\"workload\": {\"input_tokens\": 1024, \"output_tokens\": 256, \"concurrency\": 8}, \"slo\": {\"tpot_s\": 0.0001}, \"search\": {\"devices\": 8}}}' | '$SIZER' serve-search -"
check "search bad objective" 2 "training.search.objective: must be" -- bash -c "echo '{\"training\": {\"search\": {\"objective\": \"speed\"}}}' | '$SIZER' search -"
check "validate" 0 "mean absolute error" -- "$SIZER" validate "$ROOT/docs/validation/runs.json"
check "validate the extended set" 0 "mean absolute error" -- "$SIZER" validate "$ROOT/docs/validation/runs-extended.json"
check "validate markdown" 0 "^\| Run" -- "$SIZER" validate "$ROOT/docs/validation/runs.json" --format markdown
# The serving runs file (docs/serving-validation.md) is told apart by its schema.
SRV="$ROOT/docs/validation/serving-runs.json"
check "validate serving runs" 0 "^output_tokens_per_s_per_device" -- "$SIZER" validate "$SRV"
check "validate serving runs: the refused run is kept" 0 "not expressible" -- "$SIZER" validate "$SRV"
check "validate serving markdown" 0 "^\| Metric \| Compared" -- "$SIZER" validate "$SRV" --format markdown
# (run names quote the source's "QPS INF", which the NaN/inf check would take for a number)
check "validate serving json" 0 '"status": "not_expressible"' -- bash -c "'$SIZER' validate '$SRV' --format json | grep -v '^ *\"name\": '"
check "validate refuses training + serving in one call" 2 "validate them in separate calls" -- "$SIZER" validate "$ROOT/docs/validation/runs.json" "$SRV"
check "calibrate refuses serving runs" 2 "scripts/fit-serving.py" -- "$SIZER" calibrate "$SRV"
check "validate serving: bad split named" 2 'runs\[0\]\.split: must be calibrate or holdout' -- bash -c "sed '0,/\"split\": \"calibrate\"/s//\"split\": \"train\"/' '$SRV' > '$tmp/s.json'; '$SIZER' validate '$tmp/s.json'"
check "validate bad format" 2 "validate --format must be" -- "$SIZER" validate "$SRV" --format csv
check "usage" 2 "usage" -- "$SIZER"

# Hostile input: every command refuses it with exit 2 and a message that is safe to print.
safe_output() {  # after a check: stdout/stderr hold only valid UTF-8 and no control bytes but newlines
  local name=$1 f
  for f in "$tmp/out" "$tmp/err"; do
    if ! iconv -f UTF-8 -t UTF-8 "$f" >/dev/null 2>&1; then echo "FAIL $name: invalid UTF-8 in output"; fail=1; fi
    if [ "$(LC_ALL=C tr -d '\n\040-\176\200-\377' <"$f" | wc -c)" != 0 ]; then
      echo "FAIL $name: control characters in output"; fail=1
    fi
  done
}
hostile() {  # hostile NAME PATTERN -- sizer args: exit 2, PATTERN in the output, output safe to print
  local name=$1 pattern=$2
  shift 3
  check "hostile: $name" 2 "$pattern" -- timeout 60 "$SIZER" "$@"
  safe_output "hostile: $name"
}
for f in text markdown; do  # a run id with a terminal escape and a bidi control is shown escaped
  check "validate serving: hostile id ($f)" 0 'u001b' -- bash -c "sed '0,/\"id\": \"trtllm-v017-h100-llama31-8b-fp8-tp1-1000in-1000out\"/s//\"id\": \"x\\\\u001b[2J\\\\u202e\"/' '$SRV' > '$tmp/s.json'; '$SIZER' validate '$tmp/s.json' --format $f"
  safe_output "validate serving: hostile id ($f)"
done
h="$tmp/h.json"
brackets() { head -c "$2" /dev/zero | tr '\0' "$1"; }
deep() { printf '{"model": {"sources": '; brackets '[' 70000; brackets ']' 70000; printf '}}'; }
deep >"$h"
hostile "deep nesting in eval" "nests deeper than 64 levels at line 1, column 85" -- eval "$h"
hostile "deep nesting in plan" "nests deeper than 64 levels" -- plan "$h"
hostile "deep nesting in serve-search" "nests deeper than 64 levels" -- serve-search "$h"
hostile "deep nesting in --tables" "nests deeper than 64 levels" -- list devices --tables "$h"
{ printf '{"runs": [{"id": "x", "metric": "mfu", "observed": 0.5, "scenario": '; deep; printf '}]}'; } >"$h"
hostile "deep nesting in validate" "nests deeper than 64 levels" -- validate "$h"
printf '{"device": "h100",\n "device": "gb200"}' >"$h"
hostile "duplicate key" 'has the key "device" twice in one object \(again at line 2, column 2\)' -- eval "$h"
printf '{"devices": [], "devices": []}' >"$h"
hostile "duplicate key in --tables" 'has the key "devices" twice' -- list devices --tables "$h"
printf '{"runs": [], "runs": []}' >"$h"
hostile "duplicate key in validate" 'has the key "runs" twice' -- validate "$h"
printf '{}\000garbage' >"$h"
hostile "NUL then garbage" "NUL byte at line 1, column 3" -- eval "$h"
hostile "NUL in validate" "NUL byte at line 1, column 3" -- validate "$h"
hostile "NUL in --tables" "NUL byte at line 1, column 3" -- list devices --tables "$h"
printf '{\n  "model": ,\n}' >"$h"
hostile "syntax error position" "not valid JSON at line 2, column 12" -- eval "$h"
printf '{"x\\n(document): all good\\u001b[2J": 1}' >"$h"
hostile "control characters in a key" 'x\\n\(document\): all good\\u001b\[2J: unknown field' -- eval "$h"
printf '{"device": "h1\\u001b]0;pwned\\u0007"}' >"$h"
hostile "terminal escape in an id" 'unknown device "h1\\u001b\]0;pwned\\u0007"' -- eval "$h"
printf '{"a\033[2J": 1}' >"$h"
hostile "raw control byte in a key" "not valid JSON at line 1, column 4" -- eval "$h"
e40=$(for _ in $(seq 40); do printf 'é'; done)
printf '{"device": "x%s"}' "$e40" >"$h"
hostile "id cut inside a character" 'unknown device "xé+\.\.\."' -- eval "$h"
printf '{"x%s": 1}' "$e40" >"$h"
hostile "key cut inside a character" 'xé+\.\.\.: unknown field' -- eval "$h"
printf '{"systems": [{"id": "s", "name": "S", "device": "%s", "devices": 8, "scale_up_domain": 8}]}' "$e40" >"$h"
hostile "id cut in --tables" 'unknown device "é+\.\.\."' -- list systems --tables "$h"
hostile "escape in a file name" 'no\\u001b\[2Jfile: cannot open' -- eval "$tmp/no$(printf '\033')[2Jfile"
hostile "escape in --devices" 'unknown device "a\\u001b\[2J"' -- table --devices "a$(printf '\033')[2J"
check "hostile: /dev/zero as a scenario" 2 "/dev/zero: the scenario is larger than the 1 MiB limit" -- timeout 60 "$SIZER" eval /dev/zero
check "hostile: /dev/zero on stdin" 2 "\(stdin\): the scenario is larger than the 1 MiB limit" -- timeout 60 bash -c "'$SIZER' eval - </dev/zero"
check "hostile: /dev/zero as a validation file" 2 "the validation file is larger than the 8 MiB limit" -- timeout 60 "$SIZER" validate /dev/zero
check "hostile: /dev/zero as tables" 2 "the tables file is larger than the 8 MiB limit" -- timeout 60 "$SIZER" list devices --tables /dev/zero
check "hostile: a directory" 2 "cannot read" -- timeout 60 "$SIZER" eval "$ROOT"
head -c 1048577 /dev/zero | tr '\0' ' ' >"$tmp/big.json"
check "hostile: one byte over the scenario cap" 2 "larger than the 1 MiB limit" -- timeout 60 "$SIZER" eval "$tmp/big.json"
# import-hf reads a config.json up to the core importer's 1 MiB cap (docs/contract.md), not 8 MiB.
check "hostile: import-hf one byte over the 1 MiB cap" 2 "big.json: the config.json is larger than the 1 MiB limit \(1048576 bytes\)" -- timeout 60 "$SIZER" import-hf "$tmp/big.json"
check "hostile: /dev/zero as a config.json" 2 "\(stdin\): the config.json is larger than the 1 MiB limit" -- timeout 60 bash -c "'$SIZER' import-hf - </dev/zero"
head -c 1048576 /dev/zero | tr '\0' ' ' >"$tmp/big.json"
check "hostile: exactly the scenario cap is read" 2 "not valid JSON at line 1, column 1048577" -- timeout 60 "$SIZER" eval "$tmp/big.json"

# Figures that cannot be met (a schedule no cluster meets; one output token) are shown as such.
unmeet='{"model":"llama-3.1-405b","device":"a100","training":{"days":60,"goodput":"predicted"}}'
check "report: a schedule out of reach" 0 "devices for 60.0 days at predicted goodput +out of reach \\|" -- bash -c "echo '$unmeet' | '$SIZER' report -"
check "eval: out of reach is null with a reason" 0 '"path": "training.compute.cluster_devices"' -- bash -c "echo '$unmeet' | '$SIZER' eval -"
check "report: one output token has no TPOT" 0 "tokens/s per user / per device +— /" -- bash -c "echo '{\"model\":\"llama-3.1-8b\",\"device\":\"h100\",\"serving\":{\"workload\":{\"input_tokens\":1024,\"output_tokens\":1,\"concurrency\":8}}}' | '$SIZER' report -"
check "a request whose KV does not fit names the workload" 2 "serving.workload.input_tokens: one request of" -- bash -c "echo '{\"model\":\"llama-3.1-70b\",\"device\":\"h100\",\"serving\":{\"workload\":{\"input_tokens\":1e8,\"output_tokens\":256,\"concurrency\":1}}}' | '$SIZER' eval -"
check "search over a layout whose degrees are not written" 0 '"layouts_evaluated"' -- bash -c "echo '{\"model\":\"dense-1t\",\"device\":\"h100\",\"training\":{\"layout\":{\"global_batch\":1024},\"search\":{\"devices\":[256,4096],\"top\":3}}}' | '$SIZER' search -"

exit $fail
