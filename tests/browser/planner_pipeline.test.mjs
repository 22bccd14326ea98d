// The planner's "PP overlap" switch (training.layout.pp_comm_overlap), driven with a real mouse click
// at desktop size and a touchscreen tap at phone size, on an interleaved pipeline (Llama 3.1 405B on
// 512 H100: TP 8, PP 8, 8 virtual stages, the megatron stack). On, the step line says how much of
// the pipeline's send/recv an interleaved schedule hides ("hidden by interleaving") and the exposed
// part is what plan() of the share link gives; off, every transfer is on the critical path, the
// step grows and the link carries pp_comm_overlap false; on again restores the first numbers.
import path from 'node:path';
import { assert, assertClean, frames, press, resultsText, screenshot } from './lib.mjs';
import { kDesktop, kPhoneTouch, linkWith, openPlannerAt, planInPage, sameAsPlan, stepTerms, textChanged } from './planner_lib.mjs';

const kInterleaved = { model: 'llama-3.1-405b', device: 'h100', training: { precision: 'bf16', zero_stage: 1,
  layout: { tp: 8, pp: 8, dp: 8, micro_batch: 1, global_batch: 1024, seq_len: 8192, virtual_stages: 8 } } };

async function drivePpOverlap(browser, origin, shots, size) {
  const field = 'planner:training.layout.pp_comm_overlap';
  const { page, watch } = await openPlannerAt(browser, origin, size, kInterleaved, field, shots, 'planner-pp-overlap');
  const where = (w) => `${size.name}: ${w}`;
  const touch = Boolean(size.hasTouch);

  // On by default: most of the send/recv hides; what stays is the fill and drain chains.
  const before = await stepTerms(page);
  const planOn = await planInPage(page, kInterleaved);
  assert(planOn.layout.pp_comm_overlap === true, where(`plan() default pp_comm_overlap ${planOn.layout.pp_comm_overlap}`));
  assert(before['PP hidden'] > before['PP send/recv'], where(`an interleaved pipeline should hide most send/recv: ${before.line}`));
  sameAsPlan(before, planOn, where('PP overlap on (default)'));

  // Off: every transfer is exposed.
  let text = await resultsText(page);
  await press(page, field, touch);
  await textChanged(page, text, where('PP overlap off'));
  const off = await stepTerms(page);
  const scenario = await linkWith(page, 'training.layout.pp_comm_overlap', false, where('PP overlap off'));
  const planOff = await planInPage(page, scenario);
  assert(planOff.layout.pp_comm_overlap === false && planOff.step.pp_p2p_hidden_s === 0, where(`plan() of the link: ${JSON.stringify(planOff.layout)}`));
  assert(!off['PP hidden'] && off['PP send/recv'] > before['PP send/recv'], where(`PP overlap off did not expose the send/recv: ${before.line} → ${off.line}`));
  assert(off.step > before.step, where(`PP overlap off did not lengthen the step: ${before.step} → ${off.step} s`));
  sameAsPlan(off, planOff, where('PP overlap off'));
  await frames(page, 3);
  await screenshot(page, path.join(shots, `planner-pp-overlap-off-${size.name}.png`));

  // On again: back to the first numbers.
  text = await resultsText(page);
  await press(page, field, touch);
  await textChanged(page, text, where('PP overlap on again'));
  const again = await stepTerms(page);
  assert(again.line === before.line && again.step === before.step, where(`PP overlap on again did not restore the step: ${before.line} → ${again.line}`));
  await linkWith(page, 'training.layout.pp_comm_overlap', true, where('PP overlap on again'));
  assertClean(watch);
  await watch.close();
}

export const tests = [
  ['planner: "PP overlap", clicked at desktop size and tapped at phone size, exposes or hides an interleaved pipeline\'s send/recv', async ({ browser, origin, shots }) => {
    await drivePpOverlap(browser, origin, shots, kDesktop);
    await drivePpOverlap(browser, origin, shots, kPhoneTouch);
  }],
];
