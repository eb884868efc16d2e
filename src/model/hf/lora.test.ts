// LoRA float64 reference: analytic gradients of A and B against central finite differences (SFT and GRPO, padded
// batch, tied and untied), and merging against an explicit per-token W·x + s·B·(A·x).
import { describe, expect, it } from 'vitest';
import { freshSeed, mulberry32 } from '../../testing/random';
import { makeGradCase } from '../reference-fixture';
import { LORA_TARGETS, initLora, mergeLora, validateLoraConfig } from './lora';
import { loraReferenceLoss, loraToF64 } from './lora-reference';
import type { Objective } from '../reference-grad';

describe('LoRA float64 reference', () => {
  const seed = freshSeed();

  for (const [which, tied] of [
    ['sft', true],
    ['grpo', false],
  ] as const) {
    it(`dA and dB match finite differences: ${which}, ${tied ? 'tied' : 'untied'} (seed ${seed})`, () => {
      const gc = makeGradCase(seed, { tiedEmbeddings: tied });
      const obj: Objective = which === 'sft' ? gc.sft : gc.grpo;
      const lora = loraToF64(
        initLora(gc.layout, { rank: 2, alpha: 6, targets: [...LORA_TARGETS] }, seed + 1, { bStd: 0.2 }),
      );
      const base = Float64Array.from(gc.params);
      const { grads } = loraReferenceLoss(gc.layout, base, lora, gc.input, obj);
      const rng = mulberry32(seed + 2);
      const h = 1e-5;
      let worst = 0;
      for (const [name, pair] of lora.pairs) {
        const g = grads.get(name);
        if (!g) throw new Error(`no gradient for ${name}`);
        for (const [factor, an] of [
          [pair.A, g.dA],
          [pair.B, g.dB],
        ] as const) {
          // The largest analytic entry and a random one, per factor.
          let big = 0;
          for (let i = 1; i < an.length; i++) if (Math.abs(an[i]) > Math.abs(an[big])) big = i;
          for (const i of [big, Math.floor(rng() * an.length)]) {
            const saved = factor[i];
            factor[i] = saved + h;
            const plus = loraReferenceLoss(gc.layout, base, lora, gc.input, obj, false).loss;
            factor[i] = saved - h;
            const minus = loraReferenceLoss(gc.layout, base, lora, gc.input, obj, false).loss;
            factor[i] = saved;
            const fd = (plus - minus) / (2 * h);
            const err = Math.abs(fd - an[i]) / Math.max(Math.abs(an[big]), 1e-8);
            worst = Math.max(worst, err);
            expect(err, `${name} ${factor === pair.A ? 'A' : 'B'}[${i}]: analytic ${an[i]} vs fd ${fd}`).toBeLessThan(
              1e-6,
            );
          }
        }
      }
      console.log(`LoRA ${which} (tied=${tied}, seed ${seed}): worst rel err of dA/dB vs FD ${worst.toExponential(2)}`);
    });
  }

  it('merged weights give y = W·x + (alpha/r)·B·(A·x)', () => {
    const gc = makeGradCase(seed);
    const lora = initLora(gc.layout, { rank: 3, alpha: 5, targets: ['v_proj'] }, seed, { bStd: 0.3 });
    const merged = mergeLora(Float64Array.from(gc.params), lora);
    const rng = mulberry32(seed);
    for (const { base: t, A, B } of lora.pairs.values()) {
      const [out, inp] = t.shape;
      const x = Array.from({ length: inp }, () => rng() - 0.5);
      const ax = Array.from({ length: 3 }, (_, k) => x.reduce((a, xi, i) => a + A[k * inp + i] * xi, 0));
      for (let o = 0; o < out; o++) {
        const want =
          x.reduce((a, xi, i) => a + gc.params[t.offset + o * inp + i] * xi, 0) +
          (5 / 3) * ax.reduce((a, v, k) => a + B[o * 3 + k] * v, 0);
        const got = x.reduce((a, xi, i) => a + merged[t.offset + o * inp + i] * xi, 0);
        expect(got).toBeCloseTo(want, 10);
      }
    }
    const untouched = gc.layout.layers[0].q;
    expect(merged.subarray(untouched.offset, untouched.offset + untouched.size)).toEqual(
      Float64Array.from(gc.params.subarray(untouched.offset, untouched.offset + untouched.size)),
    );
  });

  it('PEFT default init (B = 0) leaves the model unchanged; bad configs are refused', () => {
    const gc = makeGradCase(seed);
    const lora = initLora(gc.layout, { rank: 4, alpha: 8, targets: ['q_proj', 'up_proj'] }, seed);
    expect(mergeLora(gc.params, lora)).toEqual(gc.params);
    expect(() => validateLoraConfig({ rank: 0, alpha: 1, targets: ['q_proj'] })).toThrow(
      /rank must be a positive integer/,
    );
    expect(() => validateLoraConfig({ rank: 2, alpha: 1, targets: [] })).toThrow(/no target modules/);
    expect(() => validateLoraConfig({ rank: 2, alpha: 1, targets: ['lm_head' as 'q_proj'] })).toThrow(
      /unknown target module lm_head/,
    );
  });
});
