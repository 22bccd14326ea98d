#!/usr/bin/env python3
"""Fits the serving engine defaults on the CALIBRATE split of docs/validation/serving-runs.json.

Development tool (not run by the tests): coordinate descent over a few serving.engine values,
minimising the mean |predicted ÷ observed − 1| over the calibrate rows of the fitted metrics. Each
candidate is written into every run's scenario.serving.engine (a run's own engine values win) in a
temporary copy and scored with `sizer validate --format json`. Holdout rows are never read for the
fit; the script prints their error only after the fit, for the report.

  python3 scripts/fit-serving.py [build/cli/sizer] [--metrics output_tokens_per_s_per_device,tpot_s]
                                 [--leave-out GROUP]

--leave-out GROUP fits without GROUP's runs (calibrate rows of the other groups only) and reports
the error on all of GROUP's rows: a leave-one-source-out check of the fit.
"""
import json, subprocess, sys, tempfile, os

_flags = {'--metrics', '--leave-out'}
SIZER = next((a for i, a in enumerate(sys.argv[1:], 1)
              if not a.startswith('--') and sys.argv[i - 1] not in _flags), 'build/cli/sizer')
METRICS = 'output_tokens_per_s_per_device,tpot_s,ttft_s,e2e_s'
for i, a in enumerate(sys.argv):
    if a == '--metrics': METRICS = sys.argv[i + 1]
LEAVE_OUT = None
for i, a in enumerate(sys.argv):
    if a == '--leave-out': LEAVE_OUT = sys.argv[i + 1]
METRICS = METRICS.split(',')
RUNS = json.load(open('docs/validation/serving-runs.json'))
# name: (start, low, high); the start is the pre-fit assumption
PARAMS = {
    'bandwidth_efficiency': (0.8, 0.7, 0.95),
    'step_overhead_s': (1e-3, 0.0, 1e-2),
    'layer_overhead_s': (0.0, 0.0, 2e-4),
    'seq_overhead_s': (0.0, 0.0, 1e-4),
    'request_overhead_s': (0.0, 0.0, 0.1),
}

def score(values, split='calibrate'):
    d = json.loads(json.dumps(RUNS))
    for r in d['runs']:
        e = r['scenario']['serving'].setdefault('engine', {})
        for k, v in values.items():
            e.setdefault(k, v)
    with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
        json.dump(d, f)
    out = subprocess.run([SIZER, 'validate', f.name, '--format', 'json'], capture_output=True, text=True)
    os.unlink(f.name)
    rows = json.loads(out.stdout)['rows']
    def chosen(r):
        if split == 'left-out': return r['group'] == LEAVE_OUT
        return r['split'] == split and r['group'] != LEAVE_OUT
    errs = [abs(r['error']) for r in rows if r['status'] == 'ok' and chosen(r) and r['metric'] in METRICS]
    return sum(errs) / len(errs), len(errs)

def fit():
    x = {k: v[0] for k, v in PARAMS.items()}
    best, n = score(x)
    print(f'start {best:.4f} over {n} calibrate rows', x, flush=True)
    for sweep in range(4):
        improved = False
        for k, (start, lo, hi) in PARAMS.items():
            span = (hi - lo) / (4 ** (sweep + 1))
            for direction in (+1, -1):
                while True:
                    cand = dict(x)
                    cand[k] = min(hi, max(lo, x[k] + direction * span))
                    if cand[k] == x[k]: break
                    s, _ = score(cand)
                    if s < best - 1e-5:
                        best, x, improved = s, cand, True
                        print(f'  {k} = {x[k]:.6g}: {best:.4f}', flush=True)
                    else:
                        break
        if not improved and sweep >= 1: break
    return x, best

if __name__ == '__main__':
    x, best = fit()
    print('fitted', json.dumps(x), f'calibrate MAE {best:.4f}')
    if LEAVE_OUT:
        h, n = score(x, 'left-out')
        print(f'left-out group {LEAVE_OUT}: MAE {h:.4f} over {n} rows (not fitted)')
    else:
        h, n = score(x, 'holdout')
        print(f'holdout MAE {h:.4f} over {n} rows (reported, not fitted)')
