// The MoE dispatch of a sort-and-gather stack on the chip it runs on, driven as people do: the
// planner's "SparseCore" switch (training.layout.sparsecore_gather), a mouse click at
// desktop size and a touchscreen tap at phone size, on DeepSeek-V3 under FSDP on 128 TPU7x with the
// JAX / XLA stack (MaxText's Ironwood recipe). On, the dispatch runs at the chip's SparseCore value
// (0.5589 of the stack's v5p cost) instead of its TensorCore one (0.3657): the experts segment grows,
// the GEMMs stay, the step line agrees with plan() of the share link, and the plan's note says which
// path it timed. Off again restores the first numbers. Then the inputs' "Expert biases" switch
// (model.moe.expert_bias), clicked or tapped: the dispatch carries k·(2·f + h) more elements per
// token, and plan() of the link says the biases' share. Choosing a copy-kernel stack hides the
// SparseCore switch.
import path from 'node:path';
import { assert, assertClean, frames, press, resultsText, screenshot, scrollInputs, scrollIntoView, widgetRect } from './lib.mjs';
import { kDesktop, kPhoneTouch, linkWith, near, openPlannerAt, pickFromList, planInPage, sameAsPlan, stepTerms, textChanged } from './planner_lib.mjs';

const kDsv3 = { model: 'deepseek-v3', device: 'tpu-ironwood', training: { precision: 'bf16', zero_stage: 3, stack: 'jax',
  bytes_per_param: 16, layout: { tp: 1, pp: 1, dp: 128, micro_batch: 16, global_batch: 2048, seq_len: 4096, recompute: 'full',
    sequence_parallel: false, offload_activations: true, expert_imbalance: 1 } } };
const kTensorCore = 0.3657, kSparseCore = 0.5589;  // assets/devices.json, tpu-ironwood efficiency
const kDsv3H = 7168, kDsv3F = 2048, kDsv3K = 8;

async function driveSparseCore(browser, origin, shots, size) {
  const field = 'planner:training.layout.sparsecore_gather';
  const { page, watch } = await openPlannerAt(browser, origin, size, kDsv3, field, shots, 'planner-sparsecore');
  const where = (w) => `${size.name}: ${w}`;
  const touch = Boolean(size.hasTouch);

  const before = await stepTerms(page);
  const planOff = await planInPage(page, kDsv3);
  sameAsPlan(before, planOff, where('TensorCore gathers (default)'));
  assert(near(planOff.throughput.dispatch_vs_stack, kTensorCore) && planOff.throughput.dispatch_sparsecore === false,
         where(`default dispatch ${JSON.stringify(planOff.throughput)}`));

  let text = await resultsText(page);
  await press(page, field, touch);
  await textChanged(page, text, where('SparseCore gathers on'));
  const on = await stepTerms(page);
  const scenario = await linkWith(page, 'training.layout.sparsecore_gather', true, where('SparseCore gathers on'));
  const planOn = await planInPage(page, scenario);
  assert(planOn.valid, where('plan() of the link is not valid'));
  sameAsPlan(on, planOn, where('SparseCore gathers on'));
  assert(planOn.throughput.dispatch_sparsecore === true, where(`not on the SparseCore path: ${JSON.stringify(planOn.throughput)}`));
  assert(near(planOn.step.moe_permute_s / planOff.step.moe_permute_s, kSparseCore / kTensorCore),
         where(`dispatch ${planOff.step.moe_permute_s} → ${planOn.step.moe_permute_s} s, not × ${kSparseCore / kTensorCore}`));
  assert(near(on.GEMM, before.GEMM) && on.experts > before.experts && on.step > before.step,
         where(`only the experts segment should grow: ${before.line} → ${on.line}`));
  assert(planOn.explanations.some((n) => n.includes('with the gathers on the SparseCores, fitted on this chip')),
         where(`the plan does not say which path: ${JSON.stringify(planOn.explanations)}`));
  text = await resultsText(page);
  assert(text.includes('with the gathers on the SparseCores'), where('the page does not show the SparseCore note'));
  await frames(page, 3);
  await screenshot(page, path.join(shots, `planner-sparsecore-on-${size.name}.png`));

  // Off again: back to the first numbers.
  text = await resultsText(page);
  await scrollIntoView(page, field, size.viewport);
  await press(page, field, touch);
  await textChanged(page, text, where('SparseCore gathers off'));
  const again = await stepTerms(page);
  assert(again.line === before.line && again.step === before.step, where(`off did not restore the step: ${before.line} → ${again.line}`));

  // The inputs' "Expert biases": each routed copy gathers its expert's biases too.
  // (At phone size the inputs are on the Overview tab: a tap there, then the link and plan().)
  const bias = 'switch:model.moe.expert_bias';
  if (touch) {
    await press(page, 'tab:Overview', true);
    await frames(page, 6);
  }
  await scrollInputs(page, bias, size, touch ? 'tab:Overview' : 'tab:Planner');
  text = await resultsText(page);
  await press(page, bias, touch);
  await textChanged(page, text, where('expert biases on'));
  const biased = await linkWith(page, 'model.moe.expert_bias', true, where('expert biases on'));
  const planBias = await planInPage(page, biased);
  const token = (1 + kDsv3K) * kDsv3H, extra = kDsv3K * (2 * kDsv3F + kDsv3H);
  assert(near(planBias.throughput.dispatch_bias_share, extra / (token + extra)),
         where(`bias share ${planBias.throughput.dispatch_bias_share}, not ${extra / (token + extra)}`));
  assert(near(planBias.step.moe_permute_s / planOff.step.moe_permute_s, (token + extra) / token),
         where(`dispatch ${planOff.step.moe_permute_s} → ${planBias.step.moe_permute_s} s with biases`));
  if (!touch) sameAsPlan(await stepTerms(page), planBias, where('expert biases on'));
  await frames(page, 3);
  await screenshot(page, path.join(shots, `planner-expert-bias-${size.name}.png`));

  if (!touch) {
    // A copy-kernel stack has no sort-and-gather dispatch: the SparseCore switch goes.
    await pickFromList(page, size, 'training.stack', 'megatron', where('Megatron-class stack'));
    const gone = await widgetRect(page, field).then(() => false, () => true);
    assert(gone, where('the SparseCore switch still shows on a copy-kernel stack'));
  }
  assertClean(watch);
  await watch.close();
}

export const tests = [
  ['planner: "SparseCore" and "Expert biases", clicked at desktop size and tapped at phone size, change the MoE dispatch', async ({ browser, origin, shots }) => {
    await driveSparseCore(browser, origin, shots, kDesktop);
    await driveSparseCore(browser, origin, shots, kPhoneTouch);
  }],
];
