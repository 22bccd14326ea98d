// The planner's layout search for a MoE model, driven as people drive it: the "EP folding" switch
// among the kinds the search may use (clicked, or tapped on a touchscreen), the "Search layouts"
// button, and a click on the best row, which must load exactly the layout the row shows.
import { assert, assertClean, press, resultsText, scrollIntoView, untilText } from './lib.mjs';
import { kDesktop, kPhoneTouch, kUnits, linkWith, linkedScenario, near, openPlanner, planInPage, shot, stepTerms } from './planner_lib.mjs';

// Mixtral 8x22B on 128 H100s in Megatron-Core's original mapping: EP 4 as a factor of the device
// count, expert TP = TP 2 (the MoE Parallel Folding paper's setting, docs/validation/runs-moe.json).
const kScenario = { model: 'mixtral-8x22b', device: 'h100', training: { precision: 'bf16', zero_stage: 1, stack: 'megatron',
  layout: { tp: 2, pp: 8, dp: 2, ep: 4, expert_imbalance: 1, micro_batch: 1, global_batch: 256, seq_len: 4096,
            sequence_parallel: true, tp_comm_overlap: true },
  search: { top: 5 } } };

const kSearchLine = /^Planner search: ([\d,]+) layouts evaluated, ([\d,]+) valid, in ([\d.]+) ms; best (.*?), step ([\d.]+) (µs|ms|s|min|h|days), MFU/m;

// sizer.mjs search() of `scenario` in the page: the best layout and its step.
function searchInPage(page, scenario) {
  return page.evaluate(async (s) => {
    const { default: createSizer } = await import('./sizer.mjs');
    const sizer = await (window.__sizerApi || (window.__sizerApi = createSizer()));
    const r = sizer.search(s);
    return { evaluated: r.layouts_evaluated, best: r.top[0].layout, step_s: r.top[0].result.step.step_s };
  }, scenario);
}

// Presses "Search layouts" and waits for a search summary other than `previous`.
async function searchOnce(page, size, previous, where) {
  await scrollIntoView(page, 'button:planner-search', size.viewport);
  await press(page, 'button:planner-search', Boolean(size.hasTouch));
  const text = await untilText(page, (t) => { const m = t.match(kSearchLine); return m && m[0] !== previous; },
                               where('the search summary'), 20000);
  const m = text.match(kSearchLine);
  return { line: m[0], evaluated: Number(m[1].replace(/,/g, '')), best: m[4], step: Number(m[5]) * kUnits[m[6]] };
}

async function driveFoldingSearch(browser, origin, shots, size) {
  const where = (w) => `${size.name}: ${w}`;
  const touch = Boolean(size.hasTouch);
  const { page, watch } = await openPlanner(browser, origin, size, '#s1.' + Buffer.from(JSON.stringify(kScenario)).toString('base64url'));
  // The switch is shown for a MoE model, on by default; switched off, the search keeps EP a factor.
  await scrollIntoView(page, 'planner:training.search.allow.ep_folding', size.viewport);
  await shot(page, shots, `planner-search-folding-${size.name}.png`);
  await press(page, 'planner:training.search.allow.ep_folding', touch);
  await linkWith(page, 'training.search.allow.ep_folding', false, where('EP folding off'));
  const plain = await searchOnce(page, size, null, where);
  assert(!/folded/.test(plain.best), where(`a folded layout with folding off: ${plain.line}`));
  // Switched back on, the search also tries EP folded into TP × CP × DP, and finds it faster.
  await scrollIntoView(page, 'planner:training.search.allow.ep_folding', size.viewport);
  await press(page, 'planner:training.search.allow.ep_folding', touch);
  const linked = await linkWith(page, 'training.search.allow.ep_folding', true, where('EP folding on'));
  const folded = await searchOnce(page, size, plain.line, where);
  assert(folded.evaluated > plain.evaluated, where(`folding did not widen the search: ${plain.evaluated} → ${folded.evaluated}`));
  assert(/EP \d+ folded/.test(folded.best), where(`the best layout is not folded: ${folded.line}`));
  assert(folded.step < plain.step, where(`folding did not beat the original mapping: ${plain.step} → ${folded.step} s`));
  // The page's search is the JS API's search of the same scenario.
  const api = await searchInPage(page, linked);
  assert(api.evaluated === folded.evaluated && api.best.ep_folding === true && near(api.step_s, folded.step),
         where(`search() gives ${JSON.stringify(api)}; the page shows ${folded.line}`));
  await shot(page, shots, `planner-search-folded-${size.name}.png`);
  // Clicking (tapping) the best row loads that layout, with every setting the search chose.
  await scrollIntoView(page, 'planner:row:1', size.viewport);
  await press(page, 'planner:row:1', touch);
  await untilText(page, (t) => t.includes(`Planner: ${folded.best} =`), where('the picked layout'));
  const loaded = await linkWith(page, 'training.layout.ep_folding', true, where('the loaded layout'));
  for (const key of ['tp', 'pp', 'dp', 'cp', 'ep', 'micro_batch', 'virtual_stages', 'sequence_parallel', 'flash_attention',
                     'tp_comm_overlap', 'dp_overlap']) {
    assert(loaded.training.layout[key] === api.best[key], where(`loaded ${key} = ${loaded.training.layout[key]}, the row has ${api.best[key]}`));
  }
  assert((loaded.training.layout.expert_tp ?? 0) === api.best.expert_tp, where(`expert TP ${loaded.training.layout.expert_tp}, the row has ${api.best.expert_tp}`));
  const plan = await planInPage(page, await linkedScenario(page));
  assert(plan.step.step_s === api.step_s, where(`plan() of the loaded layout gives ${plan.step.step_s} s, the row ${api.step_s} s`));
  const terms = await stepTerms(page);
  assert(near(terms.step, api.step_s), where(`the planner shows ${terms.step} s after loading, the row ${api.step_s} s`));
  const text = await resultsText(page);
  assert(!/NaN|Infinity|The input has \d+ problem/.test(text), where(`after loading:\n${text}`));
  await shot(page, shots, `planner-search-loaded-${size.name}.png`);
  assertClean(watch);
  await watch.close();
}

export const tests = [
  ['planner: a MoE layout search with "EP folding", clicked at desktop size and tapped on a phone, loads the folded best row', async ({ browser, origin, shots }) => {
    await driveFoldingSearch(browser, origin, shots, kDesktop);
    await driveFoldingSearch(browser, origin, shots, kPhoneTouch);
  }],
];
