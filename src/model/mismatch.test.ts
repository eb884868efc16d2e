// Rollout/learner mismatch on `micro` with random weights: int8 rollouts stay within 1e-2 nats/token of the fp32
// learner, int4 drifts further; fp32 against itself is zero; the sampler's log-probs equal the cache-free forward's.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import { freshSeed, mulberry32 } from '../testing/random';
import { preset } from './config';
import { buildLayout } from './layout';
import { initParams } from './init';
import { GpuModel } from './model';
import { forwardAllLogits } from './decode';
import { fp32Weights } from './decode-weights';
import { generate } from './sampler';
import { RolloutWeights } from './rollout-weights';
import { exactKl, sampledKl, type MismatchSequence } from './mismatch';

const seed = freshSeed();

describe(`rollout/learner mismatch on micro (seed ${seed})`, () => {
  it('int8 KL < 1e-2 nats/token, int4 larger, fp32 zero', async () => {
    const gpu = await sharedNodeGpu();
    const config = preset('micro');
    const layout = buildLayout(config);
    const rng = mulberry32(seed);
    const model = new GpuModel(gpu, layout, initParams(layout, seed, { std: 0.35, biasStd: 0.1 }));
    const learner = fp32Weights(model);
    const prompts = Array.from({ length: 6 }, (_, i) =>
      Array.from({ length: 3 + i * 2 }, () => 8 + Math.floor(rng() * 500)),
    );
    const figures: Record<string, number> = {};
    for (const format of ['int8-b32', 'int8-row', 'int4-b32'] as const) {
      const rollout = new RolloutWeights(model, format);
      const gen = await generate(rollout, prompts, { maxNewTokens: 16, temperature: 1, seed, stopTokenIds: [] });
      const seqs: MismatchSequence[] = prompts.map((p, b) => ({ prompt: p, completion: gen[b].tokens }));
      const rep = await exactKl(rollout, learner, seqs, 1, 0, 4); // two groups of 4
      // The learner's log-probs of the realised tokens, for the k3 estimate the trainer would report.
      const { logits, P, pads } = forwardAllLogits(
        learner,
        seqs.map((s) => [...s.prompt, ...s.completion]),
        0,
      );
      const L = await gpu.readF32(logits, seqs.length * P * config.vocabSize);
      logits.destroy();
      const V = config.vocabSize;
      const learnerLp: number[] = [];
      const rolloutLp: number[] = [];
      seqs.forEach((s, b) => {
        s.completion.forEach((t, i) => {
          const off = (b * P + pads[b] + s.prompt.length - 1 + i) * V;
          let m = -Infinity;
          for (let j = 0; j < V; j++) m = Math.max(m, L[off + j]);
          let z = 0;
          for (let j = 0; j < V; j++) z += Math.exp(L[off + j] - m);
          learnerLp.push(L[off + t] - m - Math.log(z));
          rolloutLp.push(gen[b].logprobs[i]);
        });
      });
      const k3 = sampledKl(rolloutLp, learnerLp);
      console.log(
        `mismatch ${format}: exact KL ${rep.meanKl.toExponential(3)} nats/token (max ${rep.maxKl.toExponential(2)}, ${rep.tokens} tokens), ` +
          `k3 from sampled log-probs ${k3.toExponential(3)}, mean |Δlogp| ${rep.meanAbsLogprobDiff.toExponential(2)}, ${rollout.bytes()} bytes`,
      );
      figures[format] = rep.meanKl;
      expect(rep.tokens).toBe(6 * 16);
      expect(k3).toBeGreaterThanOrEqual(0);
      rollout.destroy();
    }
    expect(figures['int8-b32']).toBeLessThan(1e-2);
    expect(figures['int8-row']).toBeLessThan(1e-2);
    expect(figures['int4-b32']).toBeGreaterThan(3 * figures['int8-b32']);
    const self = await exactKl(
      learner,
      learner,
      prompts.map((p) => ({ prompt: p, completion: [9, 10, 11] })),
    );
    expect(self.meanKl).toBeLessThan(1e-9);
    model.destroy();
  });

  it('the sampler returns the log-probs of the cache-free forward (T = 1, no truncation)', async () => {
    const gpu = await sharedNodeGpu();
    const config = preset('micro');
    const layout = buildLayout(config);
    const model = new GpuModel(gpu, layout, initParams(layout, seed + 1, { std: 0.35 }));
    const w = new RolloutWeights(model, 'int4-b32');
    const prompts = [
      [20, 30, 40],
      [50, 60, 70, 80, 90, 100, 110],
    ];
    const gen = await generate(w, prompts, { maxNewTokens: 12, temperature: 1, seed, stopTokenIds: [] });
    const seqs = prompts.map((p, b) => [...p, ...gen[b].tokens]);
    const { logits, P, pads } = forwardAllLogits(w, seqs, 0);
    const V = config.vocabSize;
    const L = await gpu.readF32(logits, seqs.length * P * V);
    logits.destroy();
    let worst = 0;
    prompts.forEach((p, b) => {
      gen[b].tokens.forEach((t, i) => {
        const off = (b * P + pads[b] + p.length - 1 + i) * V;
        let m = -Infinity;
        for (let j = 0; j < V; j++) m = Math.max(m, L[off + j]);
        let z = 0;
        for (let j = 0; j < V; j++) z += Math.exp(L[off + j] - m);
        worst = Math.max(worst, Math.abs(L[off + t] - m - Math.log(z) - gen[b].logprobs[i]));
      });
    });
    console.log(`sampler log-probs vs cache-free forward: max |diff| ${worst.toExponential(2)}`);
    expect(worst).toBeLessThan(1e-4);
    w.destroy();
    model.destroy();
  });
});
