// Shared-prefix no-grad forward: the plan maps each position to a row with the very same prefix (brute force), and
// the mask rows' log-probs equal forward()'s bit for bit on a GRPO-shaped batch (groups repeating a prompt).
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import { freshSeed, mulberry32 } from '../testing/random';
import { preset } from './config';
import { buildLayout } from './layout';
import { initParams } from './init';
import { GpuModel } from './model';
import { destroyBatch, uploadBatch } from './forward-batch';
import { recordLogprobs } from './forward-logprobs';
import { planPrefixes, sharedPrefixes } from './forward-shared';
import { DEFAULT_OPTIM, trainStep } from './backward-step';

const seed = freshSeed();
const rng = mulberry32(seed);
const config = preset('micro');
const layout = buildLayout(config);
const params = initParams(layout, seed, { std: 0.2, biasStd: 0.1, normJitter: 0.1 });
const tok = () => 8 + Math.floor(rng() * (config.vocabSize - 8));
const seqOf = (n: number) => Array.from({ length: n }, tok);

/** Groups of rollouts sharing a prompt, right-padded like the GRPO batches: mask on completion-predicting rows. */
function grpoBatch(groups: { prompt: number; repeats: number }[], pad: number) {
  const rows: { seq: number[]; P: number }[] = [];
  for (const g of groups) {
    const prompt = seqOf(g.prompt);
    for (let r = 0; r < g.repeats; r++)
      rows.push({ seq: [...prompt, ...seqOf(1 + Math.floor(rng() * 9))], P: g.prompt });
  }
  // Two rollouts of the first group agree on their first completion token: a shared prefix past the prompt.
  rows[1].seq[rows[1].P] = rows[0].seq[rows[0].P];
  const B = rows.length;
  const S = Math.max(...rows.map((r) => r.seq.length));
  const T = B * S;
  const tokens = new Uint32Array(T).fill(pad);
  const targets = new Uint32Array(T).fill(pad);
  const valid = new Float32Array(T);
  const mask = new Float32Array(T);
  const positions = new Uint32Array(T);
  rows.forEach(({ seq, P }, b) => {
    for (let t = 0; t < S; t++) {
      positions[b * S + t] = t;
      if (t < seq.length) [tokens[b * S + t], valid[b * S + t]] = [seq[t], 1];
      if (t + 1 < seq.length) targets[b * S + t] = seq[t + 1];
      if (t + 1 >= P && t + 1 < seq.length) mask[b * S + t] = 1;
    }
  });
  return { batch: B, seqLen: S, tokens, targets, valid, mask, positions };
}

describe(`shared-prefix forward on micro (seed ${seed})`, () => {
  it('plan: every position reads a row with the same tokens and positions up to it', () => {
    const input = grpoBatch(
      [
        { prompt: 9, repeats: 4 },
        { prompt: 5, repeats: 3 },
        { prompt: 12, repeats: 1 },
      ],
      0,
    );
    const { batch: B, seqLen: S } = input;
    const fake = { B, S, T: B * S, host: { ...input } } as unknown as Parameters<typeof planPrefixes>[0];
    const plan = planPrefixes(fake, 32);
    expect(plan).not.toBeNull();
    if (!plan) return;
    const prefix = (i: number) => {
      const b = Math.floor(i / S);
      return Array.from(input.tokens.subarray(b * S, i + 1)).join(',') + '|' + (i - b * S);
    };
    for (let i = 0; i < B * S; i++) {
      if (input.valid[i] === 0) continue;
      expect(prefix(plan.source[plan.expand[i]])).toBe(prefix(i));
    }
    // Distinct rows: no two sources share a prefix.
    expect(new Set(Array.from(plan.source, prefix)).size).toBe(plan.n);
    const validRows = input.valid.reduce((a, v) => a + v, 0);
    console.log(`shared prefixes: ${plan.n} distinct rows for ${validRows} valid of ${B * S}`);
    expect(plan.n).toBeLessThan(validRows - 3 * 9 - 2 * 5);
  });

  it('mask-row log-probs equal the full forward bit for bit', async () => {
    const gpu = await sharedNodeGpu();
    const model = new GpuModel(gpu, layout, params);
    const input = grpoBatch(
      [
        { prompt: 11, repeats: 4 },
        { prompt: 6, repeats: 3 },
        { prompt: 17, repeats: 2 },
      ],
      1,
    );
    const batch = uploadBatch(gpu, input, 'shared-test');
    const run = async (on: boolean) => {
      sharedPrefixes.enabled = on;
      try {
        const { logp, entropy } = recordLogprobs(model, batch, 0.8, { rows: 'mask' });
        const out = await Promise.all([gpu.readF32(logp, batch.T), gpu.readF32(entropy, batch.T)]);
        [logp, entropy].forEach((b) => gpu.release(b));
        return out;
      } finally {
        sharedPrefixes.enabled = true;
      }
    };
    const [shared, full] = [await run(true), await run(false)];
    let diff = 0;
    for (let i = 0; i < batch.T; i++)
      diff = Math.max(diff, Math.abs(shared[0][i] - full[0][i]), Math.abs(shared[1][i] - full[1][i]));
    console.log(`shared vs full forward: max |Δ| ${diff}`);
    expect(full[0].some((v) => v !== 0)).toBe(true);
    expect(shared[0]).toEqual(full[0]);
    expect(shared[1]).toEqual(full[1]);
    destroyBatch(batch);
    model.destroy();
  });

  it('a GRPO step (loss, reference KL, backward, AdamW) gives the very parameters and stats of the full forward', async () => {
    const gpu = await sharedNodeGpu();
    // At least 21 + 12 + 7 − 1 = 39 distinct rows: past the quad matmul's 32, so the shared path is taken.
    const input = grpoBatch(
      [
        { prompt: 21, repeats: 4 },
        { prompt: 12, repeats: 3 },
      ],
      2,
    );
    const fake = { B: input.batch, S: input.seqLen, T: input.batch * input.seqLen, host: { ...input } };
    expect(planPrefixes(fake as unknown as Parameters<typeof planPrefixes>[0], 32)).not.toBeNull();
    const run = async (on: boolean) => {
      sharedPrefixes.enabled = on;
      const model = new GpuModel(gpu, layout, params);
      const ref = new GpuModel(gpu, layout, initParams(layout, seed ^ 3, { std: 0.2, biasStd: 0.1, normJitter: 0.1 }));
      const batch = uploadBatch(gpu, input, 'shared-step');
      try {
        const refLogp = recordLogprobs(ref, batch, 1, { rows: 'mask' });
        const advantages = gpu.buffer(
          'adv',
          Float32Array.from({ length: input.batch }, (_, b) => (b % 3) - 1),
        );
        const config = {
          epsilon_low: 0.2,
          epsilon_high: 0.28,
          dual_clip_c: 10,
          beta: 0.05,
          loss_type: 'dapo' as const,
          max_completion_length: 16,
          is_cap: 2,
        };
        const spec = {
          kind: 'grpo' as const,
          oldLogp: 'detached' as const,
          refLogp: refLogp.logp,
          rolloutLogp: null,
          advantages,
          config,
        };
        const r = await trainStep(model, [{ batch, spec }], null, DEFAULT_OPTIM);
        const out = {
          stats: { loss: r.loss, grpo: r.grpo, entropy: r.entropy, gradNorm: r.gradNorm },
          params: await model.readParams(),
        };
        [refLogp.logp, refLogp.entropy].forEach((b) => gpu.release(b));
        advantages.destroy();
        return out;
      } finally {
        sharedPrefixes.enabled = true;
        destroyBatch(batch);
        model.destroy();
        ref.destroy();
      }
    };
    const [shared, full] = [await run(true), await run(false)];
    let d = 0;
    for (let i = 0; i < full.params.length; i++) d = Math.max(d, Math.abs(shared.params[i] - full.params[i]));
    console.log(
      `GRPO step shared vs full forward: max |Δθ| ${d}, kl ${shared.stats.grpo?.kl} vs ${full.stats.grpo?.kl}`,
    );
    expect(full.stats.grpo?.kl).toBeGreaterThan(0);
    expect(shared.stats).toEqual(full.stats);
    expect(d).toBe(0);
  });
});
