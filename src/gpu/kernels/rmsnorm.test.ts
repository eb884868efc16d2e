// RMSNorm forward/backward kernels against float64 CPU references on fresh random data, shapes off the grid.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import { rmsnormBackward, rmsnormBackwardRef, rmsnormForward, rmsnormForwardRef, type RowImpl } from './rmsnorm';
import { freshSeed, maxAbsDiff, mulberry32, randomF32 } from '../../testing/random';

describe('rmsnorm', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  const eps = 1e-6;
  const shapes: [number, number][] = [
    [1, 7],
    [5, 130],
    [67, 64],
    [131, 333],
  ];
  for (const impl of ['rows', 'workgroup'] as RowImpl[])
    for (const [T, D] of shapes) {
      it(`${impl} forward T=${T} D=${D} (seed ${seed})`, async () => {
        const gpu = await sharedNodeGpu();
        const x = randomF32(T * D, rng, 2);
        const w = randomF32(D, rng, 1.5);
        const [gx, gw, gy, gr] = [
          gpu.buffer('x', x),
          gpu.buffer('w', w),
          gpu.buffer('y', T * D * 4),
          gpu.buffer('rstd', T * 4),
        ];
        rmsnormForward(gpu, gy, gr, gx, gw, T, D, eps, impl);
        const want = rmsnormForwardRef(x, w, T, D, eps);
        const dy = maxAbsDiff(await gpu.readF32(gy, T * D), want.y);
        const dr = maxAbsDiff(await gpu.readF32(gr, T), want.rstd);
        console.log(
          `rmsnorm ${impl} forward T=${T} D=${D} max abs diff y ${dy.toExponential(2)} rstd ${dr.toExponential(2)}`,
        );
        expect(dy).toBeLessThan(1e-4);
        expect(dr).toBeLessThan(1e-4);
        [gx, gw, gy, gr].forEach((b) => b.destroy());
      });
      it(`${impl} backward T=${T} D=${D} (seed ${seed})`, async () => {
        const gpu = await sharedNodeGpu();
        const x = randomF32(T * D, rng, 2);
        const w = randomF32(D, rng, 1.5);
        const dy = randomF32(T * D, rng);
        const dw0 = randomF32(D, rng); // nonzero: dw must accumulate
        const gx = gpu.buffer('x', x);
        const gw = gpu.buffer('w', w);
        const gy = gpu.buffer('y', T * D * 4);
        const gr = gpu.buffer('rstd', T * 4);
        const gdy = gpu.buffer('dy', dy);
        const gdx = gpu.buffer('dx', T * D * 4);
        const gdw = gpu.buffer('dw', dw0);
        rmsnormForward(gpu, gy, gr, gx, gw, T, D, eps, impl);
        rmsnormBackward(gpu, gdx, gdw, gdy, gx, gw, gr, T, D, impl);
        const dwWant = new Float64Array(dw0);
        const dxWant = rmsnormBackwardRef(dwWant, dy, x, w, T, D, eps);
        const ddx = maxAbsDiff(await gpu.readF32(gdx, T * D), dxWant);
        const ddw = maxAbsDiff(await gpu.readF32(gdw, D), dwWant);
        console.log(
          `rmsnorm ${impl} backward T=${T} D=${D} max abs diff dx ${ddx.toExponential(2)} dw ${ddw.toExponential(2)}`,
        );
        expect(ddx).toBeLessThan(1e-4);
        expect(ddw).toBeLessThan(1e-4 * Math.max(1, Math.sqrt(T)));
        [gx, gw, gy, gr, gdy, gdx, gdw].forEach((b) => b.destroy());
      });
    }
});
