// The f16 compute path on the transformers fixture models: its CPU emulation against the f32 reference (a bound
// derived from f16's unit roundoff), greedy tokens where the margin exceeds it, and the GPU path (F16Weights:
// the packed kernel on any adapter, the native one where 'shader-f16' exists) against the emulation.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import { F16_U } from '../gpu/f16';
import type { F16Variant } from '../gpu/kernels/linear-f16';
import { forwardAllLogits } from './decode';
import { generate } from './sampler';
import { GpuModel } from './model';
import type { Layout } from './layout';
import { F16Weights } from './f16-weights';
import { f16LinearOp, f16ReferenceForward, greedyReference } from './f16-reference';
import { referenceForward, toF64 } from './reference';
import { fixtureSource, readReference } from './hf/fixtures-node';
import { importHfModel } from './hf/import';

const MODELS = ['qwen2-tied-gqa-f32', 'qwen2-untied-mqa-f32'] as const;
const ref = readReference();
const gpu = await sharedNodeGpu();
const variants: F16Variant[] = gpu.hasF16 ? ['packed', 'native'] : ['packed'];
if (!gpu.hasF16)
  console.log(
    `f16 forward, native kernels: skipped (this adapter, ${gpu.summary.description || gpu.summary.vendor}, has no 'shader-f16'); the packed kernels run the same numbers`,
  );

/**
 * f16 rounding points on the longest path from the embedding to a logit: per layer, the attention branch rounds the
 * normed input, W_q/k/v, q/k/v, the attention output at W_o's input, W_o and its output (6), the MLP branch the
 * normed input, W_gate/up, gate/up, the SwiGLU output at W_down's input, W_down and its output (6); then the final
 * normed state, W_head and the logits (3).
 */
function roundingPoints(layout: Layout): number {
  return 12 * layout.config.layers + 3;
}

/**
 * Bound on |f16 logit − f32 logit| in a row: R · u · max|row|. Each rounding point moves the value it rounds by at
 * most u = 2^-11 relative (f16's unit roundoff; normal range: no activation of these models comes near f16's
 * subnormals or its 65504 limit). To first order the R perturbations add up at the output, and every layer rescales
 * its input by an RMSNorm, so a relative perturbation entering a layer leaves it as one of about the same relative
 * size: each contributes at most u times the row's logit scale. The fixtures measure 1-6 u (printed), well inside.
 */
function rowBounds(logits: Float64Array, V: number, R: number, perPoint = F16_U): Float64Array {
  const rows = logits.length / V;
  const out = new Float64Array(rows);
  for (let r = 0; r < rows; r++) {
    let m = 0;
    for (let i = 0; i < V; i++) m = Math.max(m, Math.abs(logits[r * V + i]));
    out[r] = R * perPoint * m;
  }
  return out;
}

/** Largest |a − b| / bound over rows (≤ 1 passes) and the largest error in units of u · max|row|. */
function compare(a: ArrayLike<number>, b: Float64Array, V: number, bounds: Float64Array, R: number) {
  let ratio = 0;
  let inU = 0;
  for (let r = 0; r < bounds.length; r++) {
    let d = 0;
    for (let i = 0; i < V; i++) d = Math.max(d, Math.abs(a[r * V + i] - b[r * V + i]));
    ratio = Math.max(ratio, d / bounds[r]);
    inU = Math.max(inU, (d / bounds[r]) * R);
  }
  return { ratio, inU };
}

async function loadFixture(name: string) {
  const m = await importHfModel(fixtureSource(name), { maxSeqLen: 64 });
  return { m, p: toF64(m.params), prompts: ref.models[name].f32_compute.prompts };
}

describe('f16 compute: CPU emulation vs the f32 reference', () => {
  for (const name of MODELS) {
    it(`${name}: logits within R·u·max|row|; greedy tokens equal wherever the margin exceeds twice that`, async () => {
      const { m, p, prompts } = await loadFixture(name);
      const V = m.config.vocabSize;
      const R = roundingPoints(m.layout);
      let worst = 0;
      let worstU = 0;
      let checked = 0;
      for (const pr of prompts) {
        const input = { batch: 1, seqLen: pr.ids.length, tokens: pr.ids };
        const f32 = referenceForward(m.layout, p, input).logits;
        const f16 = f16ReferenceForward(m.layout, p, input).logits;
        const c = compare(f16, f32, V, rowBounds(f32, V, R), R);
        worst = Math.max(worst, c.ratio);
        worstU = Math.max(worstU, c.inU);
        // Greedy: a token can only change where the f32 margin is below twice the logit bound of its row.
        const want = greedyReference(m.layout, p, pr.ids, pr.greedy.length);
        expect(want.map((s) => s.token)).toEqual(pr.greedy); // the f32 reference is transformers' greedy
        const got = greedyReference(m.layout, p, pr.ids, pr.greedy.length, f16LinearOp);
        for (let s = 0; s < want.length; s++) {
          if (want[s].margin <= 2 * R * F16_U * want[s].scale) break;
          expect(got[s].token, `${name} prompt step ${s} (margin ${want[s].margin.toFixed(3)})`).toBe(want[s].token);
          checked++;
        }
      }
      console.log(
        `${name}: f16 emulation vs f32, worst logit error ${worstU.toFixed(2)} u·max|row| (bound R = ${R}); ${checked} greedy steps above the margin matched`,
      );
      expect(worst).toBeLessThanOrEqual(1);
      expect(checked).toBeGreaterThan(0);
    });
  }
});

describe('f16 compute on the GPU vs its CPU emulation', () => {
  for (const variant of variants) {
    for (const name of MODELS) {
      it(`${variant} ${name}: prompt logits and greedy tokens`, async () => {
        const { m, p, prompts } = await loadFixture(name);
        const V = m.config.vocabSize;
        const R = roundingPoints(m.layout);
        const model = GpuModel.fromCheckpoint(gpu, m, `f16:${name}`);
        const w = new F16Weights(model, { variant });
        let worst = 0;
        let worstU = 0;
        let checked = 0;
        try {
          for (const pr of prompts) {
            const out = forwardAllLogits(w, [pr.ids], 0);
            const got = await gpu.readF32(out.logits, pr.ids.length * V);
            out.logits.destroy();
            const emu = f16ReferenceForward(m.layout, p, { batch: 1, seqLen: pr.ids.length, tokens: pr.ids }).logits;
            // Same R points, but here each may round to the other neighbour: the GPU's f32 sums and f32
            // activations differ from the emulation's float64 ones by ~2^-24 relative, and where that straddles an
            // f16 rounding boundary the two results are one f16 spacing (≤ 2u relative) apart. Hence 2u per point.
            const c = compare(got, emu, V, rowBounds(emu, V, R, 2 * F16_U), R);
            worst = Math.max(worst, c.ratio);
            worstU = Math.max(worstU, 2 * c.inU);
            const want = greedyReference(m.layout, p, pr.ids, pr.greedy.length, f16LinearOp);
            const [seq] = await generate(w, [pr.ids], {
              maxNewTokens: pr.greedy.length,
              temperature: 0,
              seed: 1,
              stopTokenIds: [],
            });
            for (let s = 0; s < want.length; s++) {
              if (want[s].margin <= 2 * R * 2 * F16_U * want[s].scale) break;
              expect(seq.tokens[s], `step ${s}`).toBe(want[s].token);
              checked++;
            }
          }
        } finally {
          w.destroy();
          model.destroy();
        }
        console.log(
          `${variant} ${name}: GPU f16 vs emulation, worst ${worstU.toFixed(2)} u·max|row| (bound 2R·u = ${2 * R} u); ${checked} greedy steps above the margin matched`,
        );
        expect(worst).toBeLessThanOrEqual(1);
        expect(checked).toBeGreaterThan(0);
      });
    }
  }
});
