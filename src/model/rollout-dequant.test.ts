// The fp32 expansion of the rollout weights (rollout_dequantize.wgsl) against the CPU dequantizer, and the two
// rollout matmul paths (fp32 expansion vs qmatmul on the codes) giving the same logits.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import { freshSeed, maxAbsDiff, maxRelDiff } from '../testing/random';
import { preset } from './config';
import { buildLayout } from './layout';
import { initParams } from './init';
import { GpuModel } from './model';
import { dequantize, QUANT_FORMATS } from '../gpu/quant';
import { RolloutWeights } from './rollout-weights';
import { forwardAllLogits } from './decode';

const seed = freshSeed();

describe(`rollout dequantize (seed ${seed})`, () => {
  // Odd column counts exercise the zero padding of the last block.
  const layout = buildLayout(preset('micro', { hidden: 40, intermediate: 72, tiedEmbeddings: false }));
  for (const format of QUANT_FORMATS) {
    it(`fp32 expansion equals dequantize(codes) exactly, and both matmul paths agree: ${format}`, async () => {
      const gpu = await sharedNodeGpu();
      const model = new GpuModel(gpu, layout, initParams(layout, seed, { std: 0.3, biasStd: 0.1 }));
      const deq = new RolloutWeights(model, format, true);
      const plain = new RolloutWeights(model, format, false);
      expect(deq.dequantized).toBeDefined();
      expect(plain.dequantized).toBeUndefined();
      const all = await gpu.readF32(deq.dequantized as GPUBuffer);
      let off = 0;
      let n = 0;
      for (const [t, q] of deq.quant) {
        const want = dequantize({
          format,
          rows: q.rows,
          cols: q.cols,
          data: await gpu.readU32(q.data),
          scales: await gpu.readF32(q.scales),
        });
        const got = all.subarray(off, off + t.size);
        expect(maxAbsDiff(got, want)).toBe(0);
        off += Math.ceil(t.size / 4) * 4;
        n += t.size;
      }
      const seqs = [
        [5, 9, 200, 31, 7],
        [100, 3],
      ];
      const a = forwardAllLogits(deq, seqs, 0);
      const b = forwardAllLogits(plain, seqs, 0);
      const V = layout.config.vocabSize;
      const la = await gpu.readF32(a.logits, seqs.length * a.P * V);
      const lb = await gpu.readF32(b.logits, seqs.length * b.P * V);
      // Pad rows (query with no valid key) are skipped: compare the real positions only.
      const rows = (l: Float32Array) =>
        Float32Array.from(seqs.flatMap((_, i) => Array.from(l.subarray((i * a.P + a.pads[i]) * V, (i + 1) * a.P * V))));
      const rel = maxRelDiff(rows(la), rows(lb));
      console.log(
        `rollout ${format}: ${n} weights expanded exactly; logits fp32-expansion vs qmatmul max rel diff ${rel.toExponential(2)}`,
      );
      expect(rel).toBeLessThan(1e-4);
      [a.logits, b.logits].forEach((x) => x.destroy());
      deq.destroy();
      plain.destroy();
      model.destroy();
    });
  }
});
