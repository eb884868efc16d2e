// GPU re-quantization against the CPU quantizer (src/gpu/quant.ts) on fresh random weights, each format.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import { quantizeGpu } from './qmatmul_quantize';
import { uploadQuantized } from './qmatmul';
import { quantCode, quantize, QUANT_FORMATS, type QuantizedTensor } from '../quant';
import { freshSeed, maxRelDiff, mulberry32, randomF32 } from '../../testing/random';

describe('quantizeGpu', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  for (const format of QUANT_FORMATS) {
    for (const [rows, cols] of [[1, 1], [3, 45], [9, 64], [17, 100]] as const) {
      it(`${format} ${rows}x${cols} matches the CPU quantizer (seed ${seed})`, async () => {
        const gpu = await sharedNodeGpu();
        const off = 12;
        const w = randomF32(off + rows * cols, rng, 0.3);
        const want = quantize(w.subarray(off), rows, cols, format);
        // Start from a different tensor so stale codes would show.
        const dst = uploadQuantized(gpu, quantize(randomF32(rows * cols, rng), rows, cols, format), 'qz');
        const gw = gpu.buffer('qz.w', w);
        quantizeGpu(gpu, { buffer: gw, offset: off }, dst);
        const got: QuantizedTensor = {
          format, rows, cols,
          data: await gpu.readU32(dst.data, want.data.length),
          scales: await gpu.readF32(dst.scales, want.scales.length),
        };
        const scaleErr = maxRelDiff(got.scales, want.scales);
        let off1 = 0;
        let worse = 0;
        const padded = (want.data.length / rows) * (format === 'int4-b32' ? 8 : 4);
        for (let r = 0; r < rows; r++) {
          for (let j = 0; j < padded; j++) {
            const d = Math.abs(quantCode(got, r, j) - quantCode(want, r, j));
            if (d === 1) off1++;
            if (d > 1 || (j >= cols && d > 0)) worse++;
          }
        }
        console.log(`quantizeGpu ${format} ${rows}x${cols} scale rel ${scaleErr.toExponential(2)}, codes off by one ${off1}/${rows * cols}`);
        expect(scaleErr).toBeLessThan(1e-6);
        expect(worse).toBe(0);
        expect(off1).toBeLessThanOrEqual(Math.ceil(rows * cols * 0.01));
        [gw, dst.data, dst.scales].forEach((b) => b.destroy());
      });
    }
  }
});
