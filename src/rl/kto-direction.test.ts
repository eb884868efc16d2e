// The KTO update moves the policy the right way: one small step from the reference raises the log-probs of desirable
// completions against undesirable ones, and swapped labels move them the other way (real micro model, WGSL).
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import type { Gpu } from '../gpu/runtime';
import { seqLogp } from '../testing/seq-logp';
import { microCoder, microSamples } from '../testing/micro-coder';
import { freshSeed } from '../testing/random';
import { PRESETS } from './config';
import type { KtoItem, KtoSettings } from './policy';

let gpu: Gpu;
beforeAll(async () => {
  gpu = await sharedNodeGpu();
}, 300_000);

describe('KTO update direction (micro coder)', { timeout: 300_000 }, () => {
  it('raises desirable completions against undesirable ones, and the reverse with swapped labels', async () => {
    const seed = freshSeed();
    const cfg = PRESETS.micro;
    const policy = await microCoder(gpu, 'kto-dir');
    const gens = await microSamples(policy, seed);
    expect(gens.length, `seed ${seed}`).toBeGreaterThanOrEqual(4);
    const labels = gens.map((_, i) => (i % 2 === 0 ? 1 : -1) as 1 | -1);
    const items = (sign: 1 | -1): KtoItem[] =>
      gens.map((g, i) => ({
        promptTokens: g.promptTokens,
        completionTokens: g.completionTokens,
        rolloutLogprobs: g.rolloutLogprobs,
        label: (labels[i] * sign) as 1 | -1,
      }));
    const before = await Promise.all(gens.map((g) => seqLogp(policy.model, g)));
    // At the start the learner is the reference: every r_b = 0, z = 0, and dL/dlogp = −λ·β/4·label / n for each token,
    // so one small Adam step (sign-like, a positive inner product with −∇L) raises J = Σ λ_label·label·log p_i.
    const s: KtoSettings = {
      lr: 1e-4,
      grpo: cfg.grpo,
      optim: { ...cfg.optim, weight_decay: 0 },
      rollout: { max_completion_length: 16, temperature: 1 },
      kto: { beta: 0.1, lambda_d: 1, lambda_u: 1 },
    };
    const stats = await policy.ktoUpdate(items(1), s);
    expect(stats.skipped).toBe(false);
    // Learner = reference: the loss is (1 − σ(0)) = 0.5 per sequence and z = 0.
    expect(stats.loss).toBeCloseTo(0.5, 4);
    expect(stats.kl).toBeCloseTo(0, 4);
    const after = await Promise.all(gens.map((g) => seqLogp(policy.model, g)));
    const objective = gens.reduce((a, _, i) => a + labels[i] * (after[i] - before[i]), 0);
    console.log(`seed ${seed}: KTO Σ label·Δlog p = ${objective.toFixed(5)}`);
    expect(objective, `seed ${seed}`).toBeGreaterThan(0);
    const swapped = await microCoder(gpu, 'kto-dir-swap');
    await swapped.ktoUpdate(items(-1), s);
    const afterSwap = await Promise.all(gens.map((g) => seqLogp(swapped.model, g)));
    expect(
      gens.reduce((a, _, i) => a + labels[i] * (afterSwap[i] - before[i]), 0),
      `seed ${seed}`,
    ).toBeLessThan(0);
    swapped.destroy();
    policy.destroy();
  });
});
