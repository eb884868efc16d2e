// Prints the memory planner's table for Qwen2.5-Coder-0.5B and 1.5B shapes (README "Bring your own model"):
// `npx tsx scripts/hf-memory-table.ts [--seq 2048] [--rollout 8] [--micro 4] [--rank 16] [--recompute 1] [--chunk 8192]`
// (--recompute 0: every layer's activations kept; --chunk 0: a micro-batch's whole logits at once).
import { parseQwen2Config } from '../src/model/hf/config';
import { fmtBytes, planMemory, type PlanSettings } from '../src/model/hf/memory-plan';
import { LORA_TARGETS } from '../src/model/hf/lora';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const shapes = {
  'Qwen2.5-Coder-0.5B': {
    hidden_size: 896,
    intermediate_size: 4864,
    num_hidden_layers: 24,
    num_attention_heads: 14,
    num_key_value_heads: 2,
  },
  'Qwen2.5-Coder-1.5B': {
    hidden_size: 1536,
    intermediate_size: 8960,
    num_hidden_layers: 28,
    num_attention_heads: 12,
    num_key_value_heads: 2,
  },
};
const seqLen = arg('seq', 2048);
const rolloutBatch = arg('rollout', 8);
const microBatch = arg('micro', 4);
const rank = arg('rank', 16);
const recompute = arg('recompute', 1) !== 0;
const chunk = arg('chunk', 8192);
const lmHeadChunk = chunk > 0 ? chunk : undefined;
const runs: [string, Partial<PlanSettings>][] = [
  ['full fine-tune, f32', { baseFormat: 'f32', lora: undefined }],
  // rollout_quant none: the merged learner (merged f32 weights, an f32 base copy, full weight gradients).
  [`LoRA r${rank}, f32 base (merged learner)`, { baseFormat: 'f32', mergedLearner: true }],
  // rollout_quant int8 / int4: the frozen base held only in that format (FrozenBase), no f32 copy of its Linears.
  [`LoRA r${rank}, int8 base`, { baseFormat: 'int8-b32' }],
  [`LoRA r${rank}, int4 base`, { baseFormat: 'int4-b32' }],
];
const limits = { maxBufferSize: 2 ** 52, maxStorageBufferBindingSize: 2 ** 52, budgetBytes: 2 ** 52 };
console.log(
  `seq ${seqLen}, rollout batch ${rolloutBatch}, micro-batch ${microBatch}, recompute ${recompute ? 'on' : 'off'}, ${lmHeadChunk ? `lm_head chunk ${lmHeadChunk}` : 'whole logits'}\n`,
);
console.log('| model | setting | weights | adapters + grads + AdamW | KV cache | activations + logits | total |');
console.log('| --- | --- | --: | --: | --: | --: | --: |');
for (const [model, shape] of Object.entries(shapes)) {
  const config = parseQwen2Config(
    { ...shape, vocab_size: 151936, tie_word_embeddings: true, rope_theta: 1e6, max_position_embeddings: 32768 },
    { maxSeqLen: seqLen },
  ).config;
  for (const [label, over] of runs) {
    const s: PlanSettings = {
      lora: { rank, alpha: 2 * rank, targets: [...LORA_TARGETS] },
      rolloutBatch,
      seqLen,
      microBatch,
      recompute,
      lmHeadChunk,
      klReference: true,
      baseFormat: 'f32',
      ...over,
    };
    const p = planMemory(config, s, limits);
    const sum = (re: RegExp) => p.items.filter((i) => re.test(i.name)).reduce((a, i) => a + i.bytes, 0);
    const cells = [
      sum(/^weights|^embedding|^norms|^KL|^merged learner: f32/),
      sum(/^LoRA|^gradients|^AdamW|^merged learner: weight/),
      sum(/^KV/),
      sum(/^activations|^logits/),
      p.totalBytes,
    ];
    console.log(`| ${model} | ${label} | ${cells.map(fmtBytes).join(' | ')} |`);
  }
}
