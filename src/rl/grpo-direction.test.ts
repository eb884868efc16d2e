// The GRPO update moves the policy the right way: one small update on fresh samples raises the advantage-weighted
// log-probs of the completions, and the same update with flipped advantages lowers them (real micro model, WGSL).
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import type { Gpu } from '../gpu/runtime';
import { seqLogp } from '../testing/seq-logp';
import { freshSeed } from '../testing/random';
import { microCoder, microSamples } from '../testing/micro-coder';
import { PRESETS } from './config';
import type { GrpoSettings } from './policy';

let gpu: Gpu;
beforeAll(async () => {
  gpu = await sharedNodeGpu();
}, 300_000);

describe('GRPO update direction (micro coder)', { timeout: 300_000 }, () => {
  it('raises the log-prob of positive-advantage completions and lowers that of negative ones', async () => {
    const seed = freshSeed();
    const cfg = PRESETS.micro;
    const policy = await microCoder(gpu, 'dir');
    const gens = await microSamples(policy, seed);
    expect(gens.length, `seed ${seed}`).toBeGreaterThanOrEqual(4);
    const adv = gens.map((_, i) => (i % 2 === 0 ? 1 : -1));
    const before = await Promise.all(gens.map((g) => seqLogp(policy.model, g)));
    // A small step keeps the first-order picture: one update from the sampling policy (ratio 1, no clipping, no KL,
    // no decay) moves θ along the gradient of J = Σ A_i log p_i (Adam: sign-like, which still has a positive inner
    // product with ∇J), so the advantage-weighted change of the log-probs must be positive.
    const s: GrpoSettings = {
      lr: 1e-4,
      grpo: { ...cfg.grpo, beta: 0 },
      optim: { ...cfg.optim, weight_decay: 0 },
      rollout: { max_completion_length: 16, temperature: 1 },
    };
    const stats = await policy.grpoUpdate(
      gens.map((g, i) => ({
        promptTokens: g.promptTokens,
        completionTokens: g.completionTokens,
        rolloutLogprobs: g.rolloutLogprobs,
        advantage: adv[i],
      })),
      s,
    );
    expect(stats.skipped).toBe(false);
    const after = await Promise.all(gens.map((g) => seqLogp(policy.model, g)));
    const moves = gens.map((_, i) => after[i] - before[i]);
    console.log(
      `seed ${seed}: Δlog p by advantage sign: ${moves.map((d, i) => `${adv[i] > 0 ? '+' : '−'}${d.toFixed(4)}`).join(' ')}`,
    );
    const objective = moves.reduce((a, d, i) => a + adv[i] * d, 0);
    expect(objective, `seed ${seed}`).toBeGreaterThan(0);
    // With the sign flipped the same step must lower the objective: the test can tell the two directions apart.
    const flipped = await microCoder(gpu, 'dir-flip');
    await flipped.grpoUpdate(
      gens.map((g, i) => ({
        promptTokens: g.promptTokens,
        completionTokens: g.completionTokens,
        rolloutLogprobs: g.rolloutLogprobs,
        advantage: -adv[i],
      })),
      s,
    );
    const afterFlip = await Promise.all(gens.map((g) => seqLogp(flipped.model, g)));
    expect(
      afterFlip.reduce((a, x, i) => a + adv[i] * (x - before[i]), 0),
      `seed ${seed}`,
    ).toBeLessThan(0);
    flipped.destroy();
    policy.destroy();
  });
});
