// SwiGLU kernels against float64 references on fresh random data (including saturated gates), sizes off the grid.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import {
  splitGateUp,
  swigluBackward,
  swigluBackwardFused,
  swigluBackwardRef,
  swigluForward,
  swigluForwardFused,
  swigluForwardRef,
} from './swiglu';
import { freshSeed, maxAbsDiff, mulberry32, randomF32 } from '../../testing/random';

describe('swiglu', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  for (const [T, F] of [
    [1, 3],
    [7, 37],
    [19, 257],
  ] as const) {
    it(`forward and backward T=${T} F=${F} (seed ${seed})`, async () => {
      const gpu = await sharedNodeGpu();
      const n = T * F;
      const gate = randomF32(n, rng, 6);
      gate[0] = 120; // saturated sigmoid must not produce NaN
      if (n > 1) gate[1] = -120;
      const up = randomF32(n, rng, 2);
      const dh = randomF32(n, rng);
      const [gg, gu, gdh] = [gpu.buffer('gate', gate), gpu.buffer('up', up), gpu.buffer('dh', dh)];
      const [gh, gdg, gdu] = [gpu.buffer('h', n * 4), gpu.buffer('dgate', n * 4), gpu.buffer('dup', n * 4)];
      swigluForward(gpu, gh, gg, gu, n);
      swigluBackward(gpu, gdg, gdu, gdh, gg, gu, n);
      const want = swigluBackwardRef(dh, gate, up);
      const scale = (a: Float64Array) => Math.max(1, ...Array.from(a, Math.abs));
      const hWant = swigluForwardRef(gate, up);
      const dhd = maxAbsDiff(await gpu.readF32(gh, n), hWant);
      const dgd = maxAbsDiff(await gpu.readF32(gdg, n), want.dgate);
      const dud = maxAbsDiff(await gpu.readF32(gdu, n), want.dup);
      console.log(
        `swiglu T=${T} F=${F} max abs diff h ${dhd.toExponential(2)} dgate ${dgd.toExponential(2)} dup ${dud.toExponential(2)}`,
      );
      expect(dhd).toBeLessThan(2e-6 * scale(hWant));
      expect(dgd).toBeLessThan(2e-6 * scale(want.dgate));
      expect(dud).toBeLessThan(2e-6 * scale(want.dup));
      [gg, gu, gdh, gh, gdg, gdu].forEach((b) => b.destroy());
    });
  }
  for (const [T, F] of [
    [1, 5],
    [13, 67],
  ] as const) {
    it(`fused [T, 2F] layout T=${T} F=${F} (seed ${seed})`, async () => {
      const gpu = await sharedNodeGpu();
      const gu = randomF32(T * 2 * F, rng, 5);
      const dh = randomF32(T * F, rng);
      const ggu = gpu.buffer('gu', gu);
      const [gh, gdgu] = [gpu.buffer('h', T * F * 4), gpu.buffer('dgu', T * 2 * F * 4)];
      swigluForwardFused(gpu, gh, ggu, T, F);
      swigluBackwardFused(gpu, gdgu, gpu.buffer('dh', dh), ggu, T, F);
      const { gate, up } = splitGateUp(gu, T, F);
      const want = swigluBackwardRef(dh, gate, up);
      const dgu = await gpu.readF32(gdgu, T * 2 * F);
      const { gate: dgate, up: dup } = splitGateUp(dgu, T, F);
      const dhd = maxAbsDiff(await gpu.readF32(gh, T * F), swigluForwardRef(gate, up));
      const dgd = Math.max(maxAbsDiff(dgate, want.dgate), maxAbsDiff(dup, want.dup));
      console.log(`swiglu fused T=${T} F=${F} max abs diff h ${dhd.toExponential(2)} dgu ${dgd.toExponential(2)}`);
      expect(dhd).toBeLessThan(2e-5);
      expect(dgd).toBeLessThan(2e-5);
    });
  }
});
