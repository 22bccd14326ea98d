// Sliding-window attention in whole kernel blocks and MaxText's vocabulary GEMMs, as people reach
// them: a share link with gpt-oss-120b on 64 TPU7x under MaxText's recipe (its splash-attention
// blocks and one-hot embedding matmul in training.stack), opened at desktop and phone size. The
// planner's working names both, the stack list shows "JAX / XLA" for the link's stack object, and
// plan() of the link agrees with the step line. An unrelated edit
// (the "SparseCore" switch, clicked or tapped) keeps the stack's keys in the link: the scenario is
// not silently changed. Choosing the Megatron-class stack (FlashAttention-2's 128-token tiles, no
// embedding matmul) shrinks the attention segment and drops both notes.
import path from 'node:path';
import { assert, assertClean, frames, press, resultsText, screenshot, widgetText } from './lib.mjs';
import { kDesktop, kPhoneTouch, linkWith, near, openPlannerAt, pickFromList, planInPage, sameAsPlan, stepTerms, textChanged } from './planner_lib.mjs';

const kBlocks = { q_tokens: 1024, kv_tokens: 1024, q_bwd_tokens: 2048, kv_bwd_tokens: 2048 };  // the recipe's sa_block_*
const kOss = { model: 'gpt-oss-120b', device: 'tpu-ironwood', training: { precision: 'bf16', zero_stage: 3,
  stack: { id: 'jax', attention_blocks: kBlocks, embedding_matmul: true }, bytes_per_param: 16,
  layout: { tp: 1, pp: 1, dp: 64, micro_batch: 20, global_batch: 1280, seq_len: 8192, recompute: 'full',
    sequence_parallel: false, offload_activations: true, fsdp_shard: 32, expert_imbalance: 1 } } };
const kBlockNote = 'the attention kernels compute';
const kVocabNote = 'vocabulary GEMMs beyond the output head';

async function driveBlocks(browser, origin, shots, size) {
  const field = 'planner:training.layout.sparsecore_gather';
  const { page, watch } = await openPlannerAt(browser, origin, size, kOss, field, shots, 'planner-attention-blocks');
  const where = (w) => `${size.name}: ${w}`;
  const touch = Boolean(size.hasTouch);

  // The stack list names the stack the link carries as an object with its own keys.
  const shown = await widgetText(page, 'planner:training.stack');
  assert(shown === 'JAX / XLA', where(`the stack list shows ${JSON.stringify(shown)} for the link's jax stack`));
  const before = await stepTerms(page);
  const plan = await planInPage(page, kOss);
  assert(plan.valid, where('plan() of the scenario is not valid'));
  sameAsPlan(before, plan, where('recipe blocks'));
  // By hand (docs/validation.md, twenty-second pass): 1,920 keys per query in the forward blocks and
  // 3,584 in the backward's for the 18 windowed layers, against 127 attended.
  assert(plan.throughput.attention_block_factor > 1.5, where(`block factor ${plan.throughput.attention_block_factor}`));
  assert(plan.throughput.vocab_extra_share > 0.01, where(`vocabulary share ${plan.throughput.vocab_extra_share}`));
  let text = await resultsText(page);
  assert(text.includes(kBlockNote) && text.includes('128-token window'), where('the page does not name the whole blocks'));
  assert(text.includes(kVocabNote), where('the page does not name the vocabulary GEMMs'));

  // An unrelated edit keeps the stack's keys in the link.
  await press(page, field, touch);
  await textChanged(page, text, where('SparseCore gathers on'));
  const edited = await linkWith(page, 'training.layout.sparsecore_gather', true, where('SparseCore gathers on'));
  const st = edited.training.stack;
  assert(st && st.id === 'jax' && st.embedding_matmul === true && st.attention_blocks &&
         st.attention_blocks.kv_bwd_tokens === 2048 && st.attention_blocks.q_tokens === 1024,
         where(`the link lost the stack's keys: ${JSON.stringify(st)}`));
  const planEdited = await planInPage(page, edited);
  assert(near(planEdited.throughput.attention_block_factor, plan.throughput.attention_block_factor),
         where('the block factor changed with an unrelated edit'));
  sameAsPlan(await stepTerms(page), planEdited, where('after the edit'));
  assert(await widgetText(page, 'planner:training.stack') === 'JAX / XLA', where('the stack list changed with an unrelated edit'));
  await frames(page, 3);
  await screenshot(page, path.join(shots, `planner-attention-blocks-edited-${size.name}.png`));

  if (!touch) {
    // The Megatron-class stack: FlashAttention-2's 128-token tiles, no embedding matmul.
    const { terms, plan: mega } = await pickFromList(page, size, 'training.stack', 'megatron', where('Megatron-class stack'));
    assert(mega.throughput.attention_block_factor < plan.throughput.attention_block_factor && mega.throughput.vocab_extra_share === 0,
           where(`megatron: factor ${mega.throughput.attention_block_factor}, vocabulary ${mega.throughput.vocab_extra_share}`));
    text = await resultsText(page);
    assert(!text.includes(kBlockNote) && !text.includes(kVocabNote), where('the notes stay on the Megatron-class stack'));
    assert(terms.step > 0, where('no step on the Megatron-class stack'));
    assert(await widgetText(page, 'planner:training.stack') === 'Megatron-class', where('the stack list does not show the choice'));
  }
  assertClean(watch);
  await watch.close();
}

export const tests = [
  ['planner: whole attention blocks and vocabulary GEMMs in the working; an edit keeps the stack\'s keys (click and tap)', async ({ browser, origin, shots }) => {
    await driveBlocks(browser, origin, shots, kDesktop);
    await driveBlocks(browser, origin, shots, kPhoneTouch);
  }],
];
