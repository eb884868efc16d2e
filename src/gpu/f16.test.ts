// f32 → f16 → f32 rounding (the f16 kernels' CPU emulation) against known values and an independent implementation.
import { describe, expect, it } from 'vitest';
import { f16round as libF16round, getFloat16 } from '@petamoriken/float16';
import { F16_MAX, F16_U, f16Bits, f16Round, fromHalves, halfToFloat } from './f16';
import { freshSeed, mulberry32 } from '../testing/random';

describe('f16 rounding', () => {
  it('known values: exact, ties to even, subnormals, overflow to inf, NaN', () => {
    const cases: [number, number][] = [
      [0, 0x0000],
      [-0, 0x8000],
      [1, 0x3c00],
      [-2, 0xc000],
      [0.1, 0x2e66], // 0.0999755859375
      [65504, 0x7bff], // largest finite half
      [65519.99, 0x7bff], // below the midpoint to 65536: stays finite
      [65520, 0x7c00], // the midpoint ties to even, which is 2^16: overflow to +inf
      [-1e6, 0xfc00],
      [Infinity, 0x7c00],
      [2 ** -14, 0x0400], // smallest normal
      [2 ** -24, 0x0001], // smallest subnormal
      [3 * 2 ** -25, 0x0002], // subnormal tie 1.5 ulp → even (2)
      [5 * 2 ** -25, 0x0002], // subnormal tie 2.5 ulp → even (2)
      [2 ** -25, 0x0000], // half the smallest subnormal ties to even zero
      [2 ** -25 * 1.0001, 0x0001],
      [2 ** -26, 0x0000],
      [1 + 2 ** -11, 0x3c00], // tie → even (down)
      [1 + 3 * 2 ** -11, 0x3c02], // tie → even (up)
      [-(1 + 2 ** -11), 0xbc00],
      [2048 + 1, 0x6800], // integers above 2048 step by 2: 2049 ties to 2048
      [2048 + 3, 0x6802], // 2051 ties to 2052
      [2 - 2 ** -12, 0x4000], // rounds up across the binade
    ];
    for (const [x, bits] of cases) expect(f16Bits(x), `f16Bits(${x})`).toBe(bits);
    expect(Number.isNaN(f16Round(NaN))).toBe(true);
    expect(f16Bits(NaN) & 0x7e00).toBe(0x7e00);
    expect(f16Round(65520)).toBe(Infinity);
    expect(f16Round(-65520)).toBe(-Infinity);
    expect(f16Round(F16_MAX)).toBe(F16_MAX);
  });

  it('every finite half survives the round trip, and decodes as the reference library does', () => {
    const all = Uint16Array.from({ length: 0x10000 }, (_, i) => i);
    const values = fromHalves(all);
    const dv = new DataView(all.buffer);
    const bad: number[] = [];
    let checked = 0;
    for (let h = 0; h < 0x10000; h++) {
      const v = halfToFloat(h);
      const lib = getFloat16(dv, h * 2, true);
      if (Number.isNaN(lib)) {
        if (!Number.isNaN(v)) bad.push(h);
        continue;
      }
      // -0 and +0 keep their sign bit through the round trip.
      if (v !== lib || values[h] !== v || f16Bits(v) !== h) bad.push(h);
      checked++;
    }
    expect(bad.map((h) => `0x${h.toString(16)}`)).toEqual([]);
    expect(checked).toBe(0x10000 - 2 * 1023);
  });

  it('random f32 values round as @petamoriken/float16 does, within u = 2^-11 relative (normal range)', () => {
    const seed = freshSeed();
    const rng = mulberry32(seed);
    const words = new Uint32Array(1);
    const f = new Float32Array(words.buffer);
    let worst = 0;
    const bad: string[] = [];
    for (let i = 0; i < 200_000; i++) {
      // Random bit patterns concentrated on f16's range (exponents 2^-30 .. 2^17), plus exact ties: a mantissa
      // whose low 13 bits are 0x1000 sits halfway between two halves.
      const exp = 97 + Math.floor(rng() * 48);
      let mant = Math.floor(rng() * 2 ** 23);
      if (i % 4 === 0) mant = (mant & ~0x1fff) | 0x1000;
      words[0] = ((rng() < 0.5 ? 1 : 0) << 31) | (exp << 23) | mant;
      const x = f[0];
      const ours = f16Round(x);
      if (ours !== libF16round(x) && bad.length < 5) bad.push(`${x} (bits 0x${words[0].toString(16)})`);
      if (Math.abs(x) >= 2 ** -14 && Math.abs(x) <= F16_MAX) worst = Math.max(worst, Math.abs(ours - x) / Math.abs(x));
    }
    expect(bad, `seed ${seed}`).toEqual([]);
    expect(worst).toBeLessThanOrEqual(F16_U);
    expect(worst).toBeGreaterThan(F16_U * 0.99);
  });
});
