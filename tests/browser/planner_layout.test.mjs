// The planner's layout editor switches that change the step-time model, driven with real mouse
// clicks at a desktop and at a phone-size viewport: "TP overlap" (training.layout.tp_comm_overlap)
// on a TP 8 layout moves TP communication from exposed to hidden and shortens the step; "Software
// stack" (training.stack) set to PyTorch FSDP and to JAX / XLA changes the step. Every change is
// checked three ways: the step breakdown mirrored into the page (#results-text), the scenario in
// the share link (the address bar), and sizer.mjs plan() of that scenario in the same page; a link
// carrying the new keys opens with them in a fresh browser. Hovering the step bar's attention and
// overheads segments, and the step time's working, shows text that names them (window.sizerHover,
// the text of the tooltip on screen).
import path from 'node:path';
import { assert, assertClean, clickWidget, frames, press, resultsText, screenshot, scrollIntoView, typeInto, untilText, widgetRect } from './lib.mjs';
import {
  hoverSegment, kDesktop, kPhone, kPhoneTouch, kUnits, linkedScenario, linkWith, near, openPlanner, pickFromList, planInPage, sameAsPlan,
  shot, signedPercent, stepTerms, textChanged,
} from './planner_lib.mjs';

// Toggles TP overlap and the software stack with the mouse at one viewport size.
async function driveSwitches(browser, origin, shots, size) {
  const { page, watch } = await openPlanner(browser, origin, size);
  const where = (w) => `${size.name}: ${w}`;
  const tp = 'planner:training.layout.tp_comm_overlap';
  const stack = 'planner:training.stack';
  await scrollIntoView(page, stack, size.viewport);
  await shot(page, shots, `planner-switches-${size.name}.png`);

  // The default layout is TP 8 without TP overlap: TP communication is all exposed.
  const before = await stepTerms(page);
  assert(/Planner: TP 8 × /.test(await resultsText(page)), where('the default layout is not TP 8'));
  assert(before.TP > 0 && !before['TP hidden'], where(`TP 8 without overlap should expose all TP time: ${before.line}`));
  assert(before.attention > 0 && before.GEMM > 0, where(`GEMM and attention missing: ${before.line}`));

  // TP overlap on: part of the TP time is hidden, the exposed part and the step shrink.
  let text = await resultsText(page);
  await clickWidget(page, tp);
  await textChanged(page, text, where('TP overlap on'));
  const on = await stepTerms(page);
  assert(on['TP hidden'] > 0 && on.TP < before.TP, where(`TP overlap did not hide TP time: ${before.line} → ${on.line}`));
  assert(on.step < before.step, where(`TP overlap did not shorten the step: ${before.step} → ${on.step} s`));
  let scenario = await linkWith(page, 'training.layout.tp_comm_overlap', true, where('TP overlap on'));
  const planOn = await planInPage(page, scenario);
  assert(planOn.layout.tp_comm_overlap === true && planOn.step.tp_comm_hidden_s > 0, where(`plan() of the link: ${JSON.stringify(planOn.layout)}`));
  sameAsPlan(on, planOn, where('TP overlap on'));
  // Issue 11 item 7: with the layout written, the Training view's headline step time is this
  // prediction, and the assumed-MFU figure is labelled the seed's method (in the text mirror too).
  text = await resultsText(page);
  const predicted = text.match(/^Step time, predicted for the layout: ([\d.]+) (µs|ms|s|min|h|days)/m);
  assert(predicted, where(`no predicted step time in the mirror:\n${text}`));
  assert(near(Number(predicted[1]) * kUnits[predicted[2]], planOn.step.step_s, 0.01),
         where(`mirror's predicted step ${predicted[1]} ${predicted[2]} vs plan() ${planOn.step.step_s} s`));
  assert(/^Step time at the assumed MFU \(the seed's method\): /m.test(text), where(`the seed's step time is not labelled:\n${text}`));
  // ... quoted with the same band as the planner's (plan().result.accuracy).
  const band = text.match(/^Step time, predicted for the layout: .*, ([−+][\d.]+%) to ([−+][\d.]+%) for 80% of ([\d,]+) held-out .+ runs$/m);
  assert(band && Math.abs(1 + signedPercent(band[1]) - planOn.accuracy.step_ratio_p10) <= 0.005 &&
         Math.abs(1 + signedPercent(band[2]) - planOn.accuracy.step_ratio_p90) <= 0.005 &&
         Number(band[3].replace(/,/g, '')) === planOn.accuracy.held_out_runs,
         where(`the predicted step's band ${band && band[0]} vs plan() ${JSON.stringify(planOn.accuracy)}`));
  // ... and with the planner's notes on the layout (the default 1T layout's micro-batches are short).
  const notes = [...text.matchAll(/^Note on the layout: (.*)$/mg)].map((m) => m[1]);
  assert(notes.length > 0 && JSON.stringify(notes) === JSON.stringify(planOn.explanations),
         where(`the Training view's notes ${JSON.stringify(notes)} vs plan() ${JSON.stringify(planOn.explanations)}`));
  assert(notes.some((n) => n.includes('read this step time as optimistic')), where(`no short micro-batch note: ${JSON.stringify(notes)}`));
  const overlapLink = await page.evaluate(() => location.hash);
  await shot(page, shots, `planner-tp-overlap-${size.name}.png`);

  // And off again: back to the first numbers.
  text = await resultsText(page);
  await clickWidget(page, tp);
  await textChanged(page, text, where('TP overlap off'));
  const off = await stepTerms(page);
  assert(off.line === before.line && off.step === before.step, where(`TP overlap off did not restore the step: ${before.line} → ${off.line}`));
  await linkWith(page, 'training.layout.tp_comm_overlap', undefined, where('TP overlap off'));

  // Software stack: open the list with a click, pick PyTorch FSDP, then JAX / XLA.
  const seen = { megatron: before };
  for (const [id, label] of [['pytorch', 'PyTorch FSDP'], ['jax', 'JAX / XLA']]) {
    text = await resultsText(page);
    await clickWidget(page, stack);
    await frames(page, 3);
    await screenshot(page, path.join(shots, `planner-stack-open-${size.name}.png`));
    await clickWidget(page, `${stack}=${id}`);
    await textChanged(page, text, where(`stack ${id}`));
    const terms = await stepTerms(page);
    scenario = await linkWith(page, 'training.stack', id, where(`stack ${id}`));
    const plan = await planInPage(page, scenario);
    sameAsPlan(terms, plan, where(`stack ${id}`));
    for (const [other, t] of Object.entries(seen)) {
      assert(terms.step !== t.step || terms.line !== t.line, where(`stack ${id} predicts the same step as ${other}: ${terms.line}`));
    }
    assert(terms.overheads !== seen.megatron.overheads || terms.attention !== seen.megatron.attention,
           where(`stack ${id} changed neither attention nor overheads: ${terms.line}`));
    if (id === 'pytorch') assert(terms.overheads > 0, where(`PyTorch FSDP has no per-layer overheads: ${terms.line}`));
    seen[id] = terms;
    // The field shows the chosen stack (its preview is the entry's label).
    await frames(page, 3);
    assert(!(await page.evaluate(() => Object.keys(window.sizerUi).some((k) => k.startsWith('planner:training.stack=')))),
           where(`the stack list stayed open after choosing ${label}`));
  }
  await shot(page, shots, `planner-stack-jax-${size.name}.png`);
  assertClean(watch);
  await watch.close();
  return { overlapLink, seen };
}

// Picks each pipeline schedule from the "PP schedule" list with the pointer (a click, or a tap on a
// phone) on the default PP 64 layout: zero bubble keeps a third of the 1F1B bubble, DualPipe none,
// and the bubble's hover names the schedule.
async function drivePipelineSchedule(browser, origin, shots, size) {
  const { page, watch } = await openPlanner(browser, origin, size);
  const where = (w) => `${size.name}: ${w}`;
  const field = 'planner:training.layout.pp_schedule';
  await scrollIntoView(page, field, size.viewport);
  const before = await stepTerms(page);
  assert(before.bubble > 0, where(`no bubble in the default layout: ${before.line}`));
  for (const [id, share] of [['zero_bubble', 1 / 3], ['dualpipe', 0], ['1f1b', 1]]) {
    const open = id === 'zero_bubble' ? path.join(shots, `planner-pp-schedule-open-${size.name}.png`) : null;
    const { terms, plan } = await pickFromList(page, size, 'training.layout.pp_schedule', id, where(`schedule ${id}`), open);
    sameAsPlan(terms, plan, where(`schedule ${id}`));
    assert(near(plan.step.pp_bubble_s, share * (before.bubble || 0), 0.02),
           where(`${id}: bubble ${plan.step.pp_bubble_s} s, expected ${share} × ${before.bubble} s`));
    assert(near(terms.bubble || 0, plan.step.pp_bubble_s), where(`${id}: shown bubble ${terms.bubble} vs plan ${plan.step.pp_bubble_s}`));
    if (id === 'zero_bubble') {
      await scrollIntoView(page, 'chart:step-bar', size.viewport);
      const tip = await hoverSegment(page, plan.step, 'bubble');
      assert(/zero bubble/.test(tip), where(`the bubble hover does not name the schedule: ${JSON.stringify(tip)}`));
      await screenshot(page, path.join(shots, `planner-pp-zero-bubble-${size.name}.png`));
      await page.mouse.move(2, 2);
      await frames(page, 3);
    }
  }
  assertClean(watch);
  await watch.close();
}

// A DeepSeek-V3 layout on H800s with EP 16 over two 8-GPU NVLink domains: picking "DeepEP" in the
// "EP dispatcher" list with the pointer sends each token over InfiniBand once per other domain
// instead of once per routed copy, so the exposed all-to-all ("EP" in the step line) shrinks, as
// plan() of the linked scenario says; picking all-to-all again restores it.
async function driveEpDispatcher(browser, origin, shots, size) {
  const scenario = { model: 'deepseek-v3', device: 'h800', training: { precision: 'bf16', zero_stage: 1,
    layout: { tp: 1, pp: 16, ep: 16, dp: 8, micro_batch: 1, global_batch: 15360, seq_len: 4096, sequence_parallel: false } } };
  const hash = '#s1.' + Buffer.from(JSON.stringify(scenario)).toString('base64url');
  const { page, watch } = await openPlanner(browser, origin, size, hash);
  const where = (w) => `${size.name}: ${w}`;
  const before = await stepTerms(page);
  assert(before.EP > 0, where(`no exposed all-to-all in the EP 16 layout: ${before.line}`));
  let deep = null;
  for (const id of ['deepep', 'alltoall']) {
    const open = id === 'deepep' ? path.join(shots, `planner-ep-dispatcher-open-${size.name}.png`) : null;
    const { terms, plan } = await pickFromList(page, size, 'training.layout.ep_dispatcher', id, where(`dispatcher ${id}`), open);
    assert(plan.layout.ep_dispatcher === id, where(`plan() read ep_dispatcher ${plan.layout.ep_dispatcher}`));
    assert(near(terms.EP || 0, plan.step.ep_comm_s), where(`${id}: EP shown ${terms.EP} s, plan() gives ${plan.step.ep_comm_s} s`));
    assert(near(terms.step, plan.step.step_s), where(`${id}: step shown ${terms.step} s, plan() gives ${plan.step.step_s} s`));
    if (id === 'deepep') {
      deep = terms;
      assert(terms.EP < 0.5 * before.EP, where(`DeepEP did not shrink the all-to-all: ${before.EP} → ${terms.EP} s`));
      assert(terms.step < before.step, where(`DeepEP did not shorten the step: ${before.step} → ${terms.step} s`));
      await shot(page, shots, `planner-ep-dispatcher-deepep-${size.name}.png`);
    } else {
      assert(near(terms.EP, before.EP), where(`all-to-all again: EP ${terms.EP} s, first ${before.EP} s`));
      assert(terms.EP > deep.EP, where('all-to-all again did not restore the all-to-all'));
    }
  }
  assertClean(watch);
  await watch.close();
}

// Opens the planner on `scenario` at `size`, types `text` into the field for `key` (a click, or a
// tap with a touchscreen, Ctrl+A, the digits, Enter) and waits until the link holds `value` there
// and the results text has changed; the step shown then must match plan() of the linked scenario.
// Returns the page, its watch, the field's name and the step terms before and after.
async function typeIntoPlanner(browser, origin, size, scenario, key, text, value) {
  const hash = '#s1.' + Buffer.from(JSON.stringify(scenario)).toString('base64url');
  const { page, watch } = await openPlanner(browser, origin, size, hash);
  const what = `${size.name}: ${key} ${text}`;
  const field = `planner:${key}`;
  await scrollIntoView(page, field, size.viewport);
  const before = await stepTerms(page);
  const text0 = await resultsText(page);
  await typeInto(page, field, text, Boolean(size.hasTouch));
  const linked = await linkWith(page, key, value, what);
  await textChanged(page, text0, what);
  const after = await stepTerms(page);
  sameAsPlan(after, await planInPage(page, linked), what);
  return { page, watch, field, before, after };
}

// A Llama 3 70B FP8 layout on 64 H100s: typing 20 into "BF16 layers" keeps a quarter of the layers'
// linears in BF16, which lengthens the GEMM time and the step; the link carries
// training.bf16_layers and plan() of it gives what the page shows.
// Typing 81 (more than the model's 80 layers) is refused, naming the field, and the last valid
// layout's results stay.
async function driveBf16Layers(browser, origin, shots, size) {
  const scenario = { model: 'llama-3-70b', device: 'h100', training: { precision: 'fp8',
    layout: { tp: 8, pp: 1, dp: 8, micro_batch: 1, global_batch: 64, seq_len: 8192 } } };
  const { page, watch, field, before, after: terms } =
    await typeIntoPlanner(browser, origin, size, scenario, 'training.bf16_layers', '20', 20);
  const where = (w) => `${size.name}: ${w}`;
  assert(terms.GEMM > before.GEMM, where(`BF16 layers did not lengthen the GEMMs: ${before.GEMM} → ${terms.GEMM} s`));
  assert(terms.step > before.step, where(`BF16 layers did not lengthen the step: ${before.step} → ${terms.step} s`));
  await shot(page, shots, `planner-bf16-layers-${size.name}.png`);
  const text1 = await resultsText(page);
  await typeInto(page, field, '81', Boolean(size.hasTouch));
  const refused = await untilText(page, (t) => /training\.bf16_layers: must be at most the model's 80 layers; got 81/.test(t),
                                  where('the refusal names the field'));
  assert(refused.includes(text1.match(/^Planner: .*$/m)[0]), where(`the last valid layout was not kept:\n${refused}`));
  assert(!/NaN|Infinity/.test(refused), where(`NaN in the results:\n${refused}`));
  await shot(page, shots, `planner-bf16-layers-refused-${size.name}.png`);
  assertClean(watch);
  await watch.close();
}

// A Llama 3 70B layout with full recompute: typing 50 into "Recomputed %" (the share of each
// layer's forward the backward redoes) shortens the step and the link carries
// training.layout.recompute_fraction 0.5, as plan() of it agrees; clicking the "selective" radio
// button then drops the share from the link (the contract takes it only with full recompute)
// with no problem reported.
async function driveRecomputeShare(browser, origin, shots, size) {
  const scenario = { model: 'llama-3-70b', device: 'h100', training: { precision: 'bf16', zero_stage: 1,
    layout: { tp: 8, pp: 1, dp: 8, micro_batch: 1, global_batch: 64, seq_len: 8192, recompute: 'full' } } };
  const { page, watch, before, after: terms } =
    await typeIntoPlanner(browser, origin, size, scenario, 'training.layout.recompute_fraction', '50', 0.5);
  const where = (w) => `${size.name}: ${w}`;
  assert(terms.step < before.step, where(`recomputing half the forward did not shorten the step: ${before.step} → ${terms.step} s`));
  await shot(page, shots, `planner-recompute-share-${size.name}.png`);
  await scrollIntoView(page, 'planner:training.layout.recompute=selective', size.viewport);
  await press(page, 'planner:training.layout.recompute=selective', Boolean(size.hasTouch));
  const sel = await linkWith(page, 'training.layout.recompute', 'selective', where('selective'));
  assert(sel.training.layout.recompute_fraction === undefined,
         where(`the link kept recompute_fraction with selective recompute: ${JSON.stringify(sel.training.layout)}`));
  const text = await resultsText(page);
  assert(!/The input has \d+ problem/.test(text) && !/recompute_fraction/.test(text),
         where(`a problem after leaving full recompute:\n${text}`));
  assertClean(watch);
  await watch.close();
}

// Mixtral 8x22B on 128 H100s in Megatron-Core's old mapping (the MoE Parallel Folding paper's
// Table 3: TP 2 × PP 8, EP 4 drawn from TP × DP, expert TP 2): the EP segment's hover says it holds
// expert TP's gather of the routed copies; typing 1 into "Expert TP" (a click, or a tap with a
// touchscreen) drops that gather, so the EP time shrinks, the link carries training.layout.expert_tp
// 1, and plan() of the link gives what the page shows; typing 8 into "Expert (EP)" then gives the
// paper's folded layout, whose step is shorter than the one the page opened on.
async function driveExpertTp(browser, origin, shots, size) {
  const scenario = { model: 'mixtral-8x22b', device: 'h100', training: { precision: 'bf16', zero_stage: 1, stack: 'megatron',
    layout: { tp: 2, pp: 8, dp: 8, ep: 4, expert_tp: 2, ep_folding: true, expert_imbalance: 1, micro_batch: 1,
              global_batch: 256, seq_len: 4096, sequence_parallel: true, tp_comm_overlap: true } } };
  const hash = '#s1.' + Buffer.from(JSON.stringify(scenario)).toString('base64url');
  const where = (w) => `${size.name}: ${w}`;
  {
    const { page, watch } = await openPlanner(browser, origin, size, hash);
    const plan = await planInPage(page, await linkedScenario(page));
    assert(plan.step.etp_comm_s > 0, where(`no expert-TP gather in plan(): ${JSON.stringify(plan.step)}`));
    await scrollIntoView(page, 'chart:step-bar', size.viewport);
    const tip = await hoverSegment(page, plan.step, 'EP');
    assert(tip.split('\n')[0] === 'EP' && /with expert TP > 1 also its all-gather and reduce-scatter of the routed copies/.test(tip),
           where(`EP hover: ${JSON.stringify(tip)}`));
    await screenshot(page, path.join(shots, `planner-expert-tp-hover-${size.name}.png`));
    // The folding switch is shown for a MoE model.
    await scrollIntoView(page, 'planner:training.layout.ep_folding', size.viewport);
    assertClean(watch);
    await watch.close();
  }
  const { page, watch, before, after: terms } =
    await typeIntoPlanner(browser, origin, size, scenario, 'training.layout.expert_tp', '1', 1);
  const plan = await planInPage(page, await linkedScenario(page));
  assert(plan.step.etp_comm_s === 0, where(`expert TP 1 still gathers: ${plan.step.etp_comm_s} s`));
  assert(terms.EP < before.EP, where(`expert TP 1 did not shrink the EP time: ${before.EP} → ${terms.EP} s`));
  // EP 4 × expert TP 1 holds twice the expert weights per device (more gradient traffic); the
  // paper's folded layout also doubles EP. Typing 8 into "Expert (EP)" gives it, and it is faster
  // than the old mapping the page opened on.
  await scrollIntoView(page, 'planner:training.layout.ep', size.viewport);
  const text0 = await resultsText(page);
  await typeInto(page, 'planner:training.layout.ep', '8', Boolean(size.hasTouch));
  const folded = await linkWith(page, 'training.layout.ep', 8, where('EP 8'));
  await textChanged(page, text0, where('EP 8'));
  const last = await stepTerms(page);
  sameAsPlan(last, await planInPage(page, folded), where('EP 8 × expert TP 1'));
  assert(last.step < before.step, where(`folding (EP 8 × expert TP 1) did not beat EP 4 × expert TP 2: ${before.step} → ${last.step} s`));
  await shot(page, shots, `planner-expert-tp-${size.name}.png`);
  assertClean(watch);
  await watch.close();
}

export const tests = [
  ['planner: "Expert TP", typed at desktop and phone size, drops expert TP\'s gather of the routed copies', async ({ browser, origin, shots }) => {
    await driveExpertTp(browser, origin, shots, kDesktop);
    await driveExpertTp(browser, origin, shots, kPhoneTouch);
  }],

  ['planner: "Recomputed %", typed at desktop and phone size, recomputes a share of the forward', async ({ browser, origin, shots }) => {
    await driveRecomputeShare(browser, origin, shots, kDesktop);
    await driveRecomputeShare(browser, origin, shots, kPhoneTouch);
  }],

  ['planner: "BF16 layers", typed at desktop and phone size, keeps layers in BF16; too many is refused', async ({ browser, origin, shots }) => {
    await driveBf16Layers(browser, origin, shots, kDesktop);
    await driveBf16Layers(browser, origin, shots, kPhoneTouch);
  }],

  ['planner: the EP dispatcher, picked with the pointer at desktop and phone size, changes the all-to-all', async ({ browser, origin, shots }) => {
    await driveEpDispatcher(browser, origin, shots, kDesktop);
    await driveEpDispatcher(browser, origin, shots, kPhone);
  }],


  ['planner: the pipeline schedule, picked with the pointer at desktop and phone size, shrinks the bubble', async ({ browser, origin, shots }) => {
    await drivePipelineSchedule(browser, origin, shots, kDesktop);
    await drivePipelineSchedule(browser, origin, shots, kPhone);
  }],

  ['planner: TP overlap and software stack, clicked at desktop size, change the step and the link', async ({ browser, origin, shots }) => {
    const { overlapLink } = await driveSwitches(browser, origin, shots, kDesktop);
    // The link with TP overlap on opens in a fresh browser with it on, and shows the same step.
    const { page, watch } = await openPlanner(browser, origin, kDesktop, overlapLink);
    const terms = await stepTerms(page);
    assert(terms['TP hidden'] > 0, `the linked TP overlap was lost: ${terms.line}`);
    const scenario = await linkedScenario(page);
    assert(scenario.training.layout.tp_comm_overlap === true, 'fresh browser: link lacks tp_comm_overlap');
    sameAsPlan(terms, await planInPage(page, scenario), 'fresh browser');
    await scrollIntoView(page, 'planner:training.layout.tp_comm_overlap', kDesktop.viewport);
    await shot(page, shots, 'planner-linked-overlap.png');
    assertClean(watch);
    await watch.close();
  }],

  ['planner: TP overlap and software stack, tapped at phone size, change the step and the link', async ({ browser, origin, shots }) => {
    await driveSwitches(browser, origin, shots, kPhone);
  }],

  ['planner: the memory bar hovers name the activations; FP8 on the megatron stack keeps quantized linear inputs', async ({ browser, origin, shots }) => {
    const scenarioWith = (training) => '#s1.' + Buffer.from(JSON.stringify({ training })).toString('base64url');
    const memoryOf = async (page, scenario) => (await planInPage(page, scenario)).memory;
    for (const size of [kDesktop, kPhone]) {
      const { page, watch } = await openPlanner(browser, origin, size, scenarioWith({ precision: 'fp8' }));
      await scrollIntoView(page, 'chart:memory-bar', size.viewport);
      const scenario = await linkedScenario(page);
      assert(scenario && scenario.training.precision === 'fp8', `${size.name}: the link lost FP8: ${JSON.stringify(scenario)}`);
      const mem = await memoryOf(page, scenario);
      // The same layout in BF16, and FP8 on the PyTorch stack (torchao keeps the 16-bit inputs).
      const bf16 = await memoryOf(page, { ...scenario, training: { ...scenario.training, precision: 'bf16' } });
      const torchao = await memoryOf(page, { ...scenario, training: { ...scenario.training, stack: 'pytorch' } });
      assert(mem.activation_bytes < bf16.activation_bytes, `${size.name}: FP8 activations ${mem.activation_bytes} not below BF16 ${bf16.activation_bytes}`);
      assert(near(torchao.activation_bytes, bf16.activation_bytes), `${size.name}: PyTorch-stack FP8 activations ${torchao.activation_bytes} != BF16 ${bf16.activation_bytes}`);
      // Hover the activations segment with the pointer: weights, grads, optimizer come first; the
      // bar spans the larger of the total and usable HBM, plus 4%.
      const bar = await widgetRect(page, 'chart:memory-bar');
      const scale = Math.max(mem.device_memory_bytes, mem.usable_memory_bytes) * 1.04;
      const start = mem.weight_bytes + mem.grad_bytes + mem.optimizer_bytes;
      await page.mouse.move(bar.x + bar.w * (start + mem.activation_bytes / 2) / scale, bar.y + bar.h / 2);
      await frames(page, 3);
      const tip = await page.evaluate(() => window.sizerHover || '');
      const lines = tip.split('\n');
      assert(lines[0] === 'activations', `${size.name}: hovering the activations segment shows ${JSON.stringify(tip)}`);
      assert(/Transformer Engine/.test(tip) && /quantized/.test(tip), `${size.name}: activations hover: ${tip}`);
      const share = lines[1].match(/\(([\d.]+)%\)$/);
      assert(share && near(Number(share[1]) / 100, mem.activation_bytes / mem.device_memory_bytes, 0.05),
             `${size.name}: activations share ${lines[1]} vs ${mem.activation_bytes / mem.device_memory_bytes}`);
      await screenshot(page, path.join(shots, `planner-memory-hover-${size.name}.png`));
      await page.mouse.move(2, 2);
      await frames(page, 4);
      assertClean(watch);
      await watch.close();
    }
  }],
  ['planner: the step bar hovers name attention and overheads; the step working lists them', async ({ browser, origin, shots }) => {
    // PyTorch FSDP has per-layer host overheads on this chip (Megatron-class fits none).
    const link = '#s1.' + Buffer.from(JSON.stringify({ training: { stack: 'pytorch' } })).toString('base64url');
    for (const size of [kDesktop, kPhone]) {
      const { page, watch } = await openPlanner(browser, origin, size, link);
      await scrollIntoView(page, 'chart:step-bar', size.viewport);
      const plan = await planInPage(page, await linkedScenario(page));
      const tips = new Map();
      // On a GPU even wholly hidden data-parallel traffic leaves a segment: the SMs it takes.
      assert(plan.step.dp_comm_exposed_s > 0, `${size.name}: no exposed DP in ${JSON.stringify(plan.step)}`);
      for (const label of ['GEMM', 'attention', 'TP', 'exposed DP', 'overheads']) {
        const tip = await hoverSegment(page, plan.step, label);
        assert(tip.split('\n')[0] === label, `${size.name}: hovering the ${label} segment shows ${JSON.stringify(tip)}`);
        tips.set(label, tip);
      }
      assert(/QKᵀ and AV/.test(tips.get('attention')), `${size.name}: attention hover: ${tips.get('attention')}`);
      assert(/kernel launches/.test(tips.get('overheads')), `${size.name}: overheads hover: ${tips.get('overheads')}`);
      assert(/on a GPU plus 10% of the hidden part for the SMs it takes/.test(tips.get('exposed DP')),
             `${size.name}: exposed DP hover: ${tips.get('exposed DP')}`);
      // The hovered value and share match the mirrored breakdown: "<value>  (<share>%)".
      const terms = await stepTerms(page);
      for (const label of ['attention', 'overheads']) {
        const m = tips.get(label).split('\n')[1].match(/^([\d.]+) (µs|ms|s|min|h|days)\s+\(([\d.]+)%\)$/);
        assert(m, `${size.name}: ${label} hover value line: ${tips.get(label)}`);
        assert(near(Number(m[1]) * kUnits[m[2]], terms[label]), `${size.name}: ${label} hover ${m[1]} ${m[2]} vs text ${terms[label]} s`);
        assert(near(Number(m[3]) / 100, terms[label] / terms.step, 0.05), `${size.name}: ${label} share ${m[3]}% of ${terms.step} s`);
      }
      // A picture with the attention segment outlined and its tooltip up.
      await hoverSegment(page, plan.step, 'attention');
      await screenshot(page, path.join(shots, `planner-step-hover-${size.name}.png`));
      // The step time's working names the new terms with their values.
      const value = await scrollIntoView(page, 'value:plan.result.step.step_s', size.viewport);
      await page.mouse.move(value.x + value.w / 2, value.y + value.h / 2);
      await frames(page, 6);
      const working = await page.evaluate(() => window.sizerHover || '');
      assert(working.startsWith('plan.result.step.step_s\n'), `${size.name}: step working not shown on hover: ${working}`);
      assert(/GEMM \+ attention \+ experts \+ .*overheads/.test(working), `${size.name}: step working formula: ${working}`);
      await screenshot(page, path.join(shots, `planner-step-working-${size.name}.png`));
      // Moving away clears the hover text.
      await page.mouse.move(2, 2);
      await frames(page, 4);
      assert(await page.evaluate(() => window.sizerHover === ''), `${size.name}: hover text left after the tooltip closed`);
      assertClean(watch);
      await watch.close();
    }
  }],
];
