// CPU quantization formats: layout, round-trip error bounds per format, padding codes, edge cases.
import { describe, expect, it } from 'vitest';
import { dequantize, quantCode, quantize, quantRelError, QUANT_FORMATS, scalesPerRow, wordsPerRow } from './quant';
import { freshSeed, mulberry32, randomF32 } from '../testing/random';

describe('quant', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);

  for (const format of QUANT_FORMATS) {
    for (const [rows, cols] of [
      [1, 1],
      [5, 33],
      [16, 64],
      [7, 100],
    ] as const) {
      it(`${format} ${rows}x${cols}: every element within half a step of its scale (seed ${seed})`, () => {
        const w = randomF32(rows * cols, rng, 0.5);
        const q = quantize(w, rows, cols, format);
        expect(q.data.length).toBe(rows * wordsPerRow(format, cols));
        expect(q.scales.length).toBe(rows * scalesPerRow(format, cols));
        const d = dequantize(q);
        const spr = scalesPerRow(format, cols);
        let worst = 0;
        for (let r = 0; r < rows; r++) {
          for (let j = 0; j < cols; j++) {
            const s = q.scales[r * spr + (format === 'int8-row' ? 0 : Math.floor(j / 32))];
            const err = Math.abs(d[r * cols + j] - w[r * cols + j]);
            worst = Math.max(worst, err / s);
            expect(err).toBeLessThanOrEqual(s * 0.5 * (1 + 1e-5) + 1e-12);
          }
        }
        // Padding columns hold the zero code.
        const padded = wordsPerRow(format, cols) * (format === 'int4-b32' ? 8 : 4);
        for (let j = cols; j < padded; j++) expect(quantCode(q, rows - 1, j)).toBe(0);
        console.log(
          `${format} ${rows}x${cols} worst error ${worst.toFixed(3)} steps, rel ${quantRelError(w, q).toExponential(2)}`,
        );
      });
    }
  }

  it(`int8 per-row reconstruction error is small on a weight-like matrix (seed ${seed})`, () => {
    const [rows, cols] = [64, 256];
    const w = randomF32(rows * cols, rng, 0.05);
    const rel8 = quantRelError(w, quantize(w, rows, cols, 'int8-row'));
    const rel8b = quantRelError(w, quantize(w, rows, cols, 'int8-b32'));
    const rel4 = quantRelError(w, quantize(w, rows, cols, 'int4-b32'));
    console.log(
      `rel err int8-row ${rel8.toExponential(2)} int8-b32 ${rel8b.toExponential(2)} int4-b32 ${rel4.toExponential(2)}`,
    );
    expect(rel8).toBeLessThan(1 / 127);
    expect(rel4).toBeLessThan(1 / 7);
    expect(rel8b).toBeLessThan(1 / 127);
    expect(rel4).toBeGreaterThan(rel8b);
  });

  it('codes hit the extremes and zero rows get scale 0', () => {
    const w = new Float32Array([1, -1, 0.5, 0, 0, 0, 0, 0]);
    for (const format of QUANT_FORMATS) {
      const q = quantize(w, 2, 4, format);
      const top = format === 'int4-b32' ? 7 : 127;
      expect([quantCode(q, 0, 0), quantCode(q, 0, 1), quantCode(q, 0, 3)]).toEqual([top, -top, 0]);
      expect(q.scales[q.scales.length - 1]).toBe(0);
      expect(Array.from(dequantize(q).subarray(4))).toEqual([0, 0, 0, 0]);
    }
    expect(() => quantize(new Float32Array([NaN]), 1, 1, 'int8-row')).toThrow(/non-finite/);
  });
});
