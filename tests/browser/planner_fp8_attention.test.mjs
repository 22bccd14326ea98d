// The planner's "FP8 attention" switch (training.fp8_attention), driven with a real mouse click at
// desktop size and a touchscreen tap at phone size, on Llama 3.1 8B on 8 B200 in NVFP4 (MLPerf
// v5.1's one-node shape). On, the attention segment shrinks by the FP8 peak at 0.81 of the BF16
// utilisation (FlashAttention-3) — about 1.6× — while the GEMMs stay; the step line and the
// attention tooltip say so and agree with plan() of the share link. Off again restores the first
// numbers. At desktop size, choosing BF16 in the inputs hides the switch and drops the key, so the
// scenario never carries a setting the contract refuses. The step time's accuracy band (the held-out
// runs' 80th percentile) is FP8/FP4's, then dense BF16's, as plan() says.
import path from 'node:path';
import { assert, assertClean, frames, press, resultsText, screenshot, scrollInputs, scrollIntoView, widgetRect } from './lib.mjs';
import { hoverSegment, kDesktop, kPhoneTouch, linkWith, near, openPlannerAt, planInPage, sameAsPlan, sameBand, stepTerms, textChanged } from './planner_lib.mjs';

const kNvfp4 = { model: 'llama-3.1-8b', device: 'b200', training: { precision: 'fp4', fp8_recipe: 'mx', zero_stage: 1,
  layout: { tp: 1, pp: 1, dp: 8, micro_batch: 2, global_batch: 16, seq_len: 8192, recompute: 'none' } } };
const kFp8AttentionVsBf16 = 0.81;  // sizer/formulas/low_precision.h

async function driveFp8Attention(browser, origin, shots, size) {
  const field = 'planner:training.fp8_attention';
  const { page, watch } = await openPlannerAt(browser, origin, size, kNvfp4, field, shots, 'planner-fp8-attention');
  const where = (w) => `${size.name}: ${w}`;
  const touch = Boolean(size.hasTouch);

  // Off by default: attention in BF16.
  const before = await stepTerms(page);
  const planOff = await planInPage(page, kNvfp4);
  sameAsPlan(before, planOff, where('FP8 attention off (default)'));
  // The step time is quoted with the FP8/FP4 runs' band, under the headline numbers.
  assert(await sameBand(page, planOff, where('NVFP4 band')) === 'FP8/FP4', where(`band ${JSON.stringify(planOff.accuracy)}`));
  const caption = await widgetRect(page, 'caption:plan-accuracy');
  assert(caption.w > 0 && caption.h > 0, where('the accuracy caption is not drawn'));

  // On: only the attention moves, by the FP8/BF16 peak ratio (2 on the B200) times 0.81.
  let text = await resultsText(page);
  await press(page, field, touch);
  await textChanged(page, text, where('FP8 attention on'));
  const on = await stepTerms(page);
  const scenario = await linkWith(page, 'training.fp8_attention', true, where('FP8 attention on'));
  const planOn = await planInPage(page, scenario);
  assert(planOn.valid, where('plan() of the link is not valid'));
  sameAsPlan(on, planOn, where('FP8 attention on'));
  assert(near(planOn.step.attention_s, planOff.step.attention_s / (2 * kFp8AttentionVsBf16)),
         where(`attention ${planOff.step.attention_s} → ${planOn.step.attention_s} s, not ÷ ${2 * kFp8AttentionVsBf16}`));
  assert(near(on.GEMM, before.GEMM), where(`the GEMMs moved: ${before.line} → ${on.line}`));
  assert(on.step < before.step, where(`FP8 attention did not shorten the step: ${before.step} → ${on.step} s`));
  if (!touch) {
    const tip = await hoverSegment(page, planOn.step, 'attention');
    assert(/in FP8 \(training\.fp8_attention\)/.test(tip) && /1\.6×/.test(tip), where(`the attention tooltip: ${JSON.stringify(tip)}`));
    // The step time's working says the attention ran in FP8.
    const value = await scrollIntoView(page, 'value:plan.result.step.step_s', size.viewport);
    await page.mouse.move(value.x + value.w / 2, value.y + value.h / 2);
    await frames(page, 6);
    const working = await page.evaluate(() => window.sizerHover || '');
    assert(/\(attention in FP8\)/.test(working), where(`the step working does not say FP8 attention: ${working}`));
  }
  await frames(page, 3);
  await screenshot(page, path.join(shots, `planner-fp8-attention-on-${size.name}.png`));

  // Off again: back to the first numbers.
  text = await resultsText(page);
  await scrollIntoView(page, field, size.viewport);
  await press(page, field, touch);
  await textChanged(page, text, where('FP8 attention off again'));
  const again = await stepTerms(page);
  assert(again.line === before.line && again.step === before.step, where(`off again did not restore the step: ${before.line} → ${again.line}`));
  await linkWith(page, 'training.fp8_attention', undefined, where('FP8 attention off again'));

  if (!touch) {
    // On, then BF16 in the inputs: the switch goes and so does the key (BF16 has no FP8 attention).
    await press(page, field, false);
    await linkWith(page, 'training.fp8_attention', true, where('FP8 attention on before BF16'));
    await scrollInputs(page, 'combo:training.precision', size, 'tab:Planner');
    await press(page, 'combo:training.precision', false);
    await frames(page, 4);
    await press(page, 'option:training.precision=bf16', false);
    const bf16 = await linkWith(page, 'training.precision', 'bf16', where('BF16 chosen'));
    const linked = await linkWith(page, 'training.fp8_attention', undefined, where('BF16 chosen'));
    assert(!('fp8_attention' in linked.training), where(`the link kept fp8_attention under BF16: ${JSON.stringify(linked.training)}`));
    assert((await planInPage(page, linked)).valid === true && bf16.training.precision === 'bf16', where('plan() of the BF16 link is not valid'));
    // BF16 dense: the dense BF16 runs' band, narrower than FP8/FP4's.
    const planBf16 = await planInPage(page, linked);
    assert(await sameBand(page, planBf16, where('BF16 band')) === 'dense BF16', where(`band ${JSON.stringify(planBf16.accuracy)}`));
    const width = (a) => a.step_ratio_p90 - a.step_ratio_p10;
    assert(width(planBf16.accuracy) < width(planOff.accuracy), where('the dense BF16 band is not narrower than FP8/FP4\'s'));
    const gone = await widgetRect(page, field).then(() => false, () => true);
    assert(gone, where('the FP8 attention switch still shows under BF16'));
  }
  assertClean(watch);
  await watch.close();
}

export const tests = [
  ['planner: "FP8 attention", clicked at desktop size and tapped at phone size, runs the attention at the FP8 peak', async ({ browser, origin, shots }) => {
    await driveFp8Attention(browser, origin, shots, kDesktop);
    await driveFp8Attention(browser, origin, shots, kPhoneTouch);
  }],
];
