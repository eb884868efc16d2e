// The f16 Linear and the f32 → f16 weight conversion on the GPU against their CPU emulation (linear-f16.ts). The
// packed variant runs everywhere (SwiftShader here); the native `enable f16` one only on a device with 'shader-f16'.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import { f16Round, fromHalves, halfToFloat, toHalves } from '../f16';
import { f16BoundViolation as violation } from './linear-f16-bound';
import { allocF16Matrix, convertToF16, linearF16, linearF16Ref, uploadF16Matrix, type F16Variant } from './linear-f16';
import { softwareAdapter } from './logprobs';
import { freshSeed, mulberry32, randomF32 } from '../../testing/random';

// [M, N = out, K = in]: decode-sized M, odd N (partial feature tiles) and K (row padding), prefill-sized M.
const SHAPES: [number, number, number][] = [
  [1, 1, 1],
  [1, 13, 45],
  [3, 20, 64],
  [8, 37, 30],
  [19, 64, 100],
];

const gpu = await sharedNodeGpu();
const software = softwareAdapter(gpu);
const variants: F16Variant[] = gpu.hasF16 ? ['packed', 'native'] : ['packed'];
if (!gpu.hasF16)
  console.log(
    `linear_f16 native variant: skipped, this adapter (${gpu.summary.description || gpu.summary.vendor}) has no 'shader-f16'; the packed variant runs the same numbers`,
  );

describe('f16 Linear (GPU vs CPU emulation)', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  for (const variant of variants) {
    for (const [M, N, K] of SHAPES) {
      it(`${variant} ${M}x${N}x${K}, with bias and accumulate (seed ${seed})`, async () => {
        const x = randomF32(M * K, rng, 2);
        const w = randomF32(N * K, rng, 0.5);
        const wv = fromHalves(toHalves(w));
        const bias = randomF32(N, rng);
        const y0 = randomF32(M * N, rng, 4);
        const gx = gpu.buffer('f16.x', x);
        const gw = uploadF16Matrix(gpu, w, N, K, 'f16.w');
        const gb = gpu.buffer('f16.b', bias);
        const gy = gpu.buffer('f16.y', M * N * 4);
        const gacc = gpu.buffer('f16.acc', y0);
        linearF16(gpu, { x: gx, w: gw, y: gy, M, bias: gb, variant });
        linearF16(gpu, { x: gx, w: gw, y: gacc, M, accumulate: true, variant });
        const got = await gpu.readF32(gy, M * N);
        const gotAcc = await gpu.readF32(gacc, M * N);
        const want = linearF16Ref(x, wv, M, N, K, bias);
        const wantAcc = linearF16Ref(x, wv, M, N, K, undefined, y0);
        // Outputs are f16 values (not merely close to them).
        expect(got.every((v) => f16Round(v) === v)).toBe(true);
        expect(violation(got, want, want, x, wv, M, N, K, false, bias)).toBeLessThanOrEqual(0);
        expect(violation(gotAcc, wantAcc, linearF16Ref(x, wv, M, N, K), x, wv, M, N, K, true)).toBeLessThanOrEqual(0);
        let same = 0;
        for (let i = 0; i < got.length; i++) if (got[i] === want[i]) same++;
        console.log(`linear_f16 ${variant} ${M}x${N}x${K}: ${same}/${got.length} outputs equal the emulation exactly`);
        [gx, gw.buffer, gb, gy, gacc].forEach((b) => b.destroy());
      });
    }

    it(`${variant}: every tile shape and offsets into x, y and the bias (seed ${seed})`, async () => {
      const [M, N, K] = [11, 27, 50];
      const [xOff, yOff, bOff] = [7, 5, 3];
      const x = randomF32(xOff + M * K, rng);
      const w = randomF32(N * K, rng);
      const wv = fromHalves(toHalves(w));
      const bias = randomF32(bOff + N, rng);
      const gx = gpu.buffer('f16.x', x);
      const gw = uploadF16Matrix(gpu, toHalves(w), N, K, 'f16.w');
      const gb = gpu.buffer('f16.b', bias);
      const want = linearF16Ref(x.subarray(xOff), wv, M, N, K, bias.subarray(bOff));
      for (const tm of [1, 2, 4, 8] as const) {
        for (const nf of [4, 8] as const) {
          const gy = gpu.buffer('f16.y', (yOff + M * N) * 4);
          linearF16(gpu, {
            x: { buffer: gx, offset: xOff },
            w: gw,
            y: { buffer: gy, offset: yOff },
            bias: { buffer: gb, offset: bOff },
            M,
            variant,
            tm,
            nf,
            wg: 16,
          });
          const got = await gpu.readF32(gy, M * N, yOff);
          expect(
            violation(got, want, want, x.subarray(xOff), wv, M, N, K, false, bias.subarray(bOff)),
            `tm ${tm} nf ${nf}`,
          ).toBeLessThanOrEqual(0);
          gy.destroy();
        }
      }
      [gx, gw.buffer, gb].forEach((b) => b.destroy());
    });
  }

  it(`converts f32 weights at an offset to row-padded f16, rounding to nearest even (seed ${seed})`, async () => {
    const [rows, cols, off] = [9, 14, 6];
    const src = randomF32(off + rows * cols, rng, 3);
    // Exact ties, subnormals, a value past the largest half and signed zero among the random values.
    const special = [1 + 2 ** -11, 1 + 3 * 2 ** -11, 3 * 2 ** -25, 2 ** -20 * 1.3, -0, 70000, -(2048 + 1)];
    special.forEach((v, i) => (src[off + i * 5] = v));
    const g = gpu.buffer('f16.src', src);
    const dst = allocF16Matrix(gpu, rows, cols, 'f16.dst');
    convertToF16(gpu, dst, { buffer: g, offset: off });
    const words = await gpu.readU32(dst.buffer, rows * dst.rowVec4 * 2);
    const halves = new Uint16Array(words.buffer);
    const bad: string[] = [];
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < dst.rowVec4 * 4; c++) {
        const got = halves[r * dst.rowVec4 * 4 + c];
        const want = c < cols ? toHalves([src[off + r * cols + c]])[0] : 0;
        // 70000 is past f16's range: WGSL leaves the converted value indeterminate, so only finite inputs count.
        if (c < cols && Math.abs(src[off + r * cols + c]) > 65504) continue;
        // WGSL lets pack2x16float round to either neighbour; SwiftShader (CI) rounds to nearest even, as the CPU does.
        const ok = got === want || (!software && Math.abs(got - want) === 1 && (got ^ want) < 0x8000);
        if (!ok) bad.push(`(${r},${c}) ${src[off + r * cols + c]}: got ${halfToFloat(got)}, want ${halfToFloat(want)}`);
      }
    }
    expect(bad).toEqual([]);
    g.destroy();
    dst.buffer.destroy();
  });
});
