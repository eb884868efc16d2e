// Embedding forward/backward kernels against their CPU references on fresh random data, with repeated ids.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import { embeddingBackward, embeddingBackwardRef, embeddingForward, embeddingForwardRef } from './embedding';
import { freshSeed, maxAbsDiff, mulberry32, randomF32 } from '../../testing/random';

function randomIds(T: number, V: number, rng: () => number): Uint32Array {
  const ids = new Uint32Array(T);
  for (let t = 0; t < T; t++) ids[t] = Math.floor(rng() * V);
  return ids;
}

describe('embedding', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  // T off the 256 grid; small V so ids repeat a lot; one case with every token the same id.
  const shapes: [number, number, number][] = [
    [1, 5, 3],
    [37, 11, 8],
    [300, 70, 33],
    [613, 9, 48],
  ];
  for (const [T, V, D] of shapes) {
    it(`forward T=${T} V=${V} D=${D} (seed ${seed})`, async () => {
      const gpu = await sharedNodeGpu();
      const table = randomF32(V * D, rng);
      const ids = randomIds(T, V, rng);
      const out = gpu.buffer('out', T * D * 4);
      const gt = gpu.buffer('table', table);
      const gi = gpu.buffer('ids', ids);
      embeddingForward(gpu, out, gt, gi, T, D, V);
      const diff = maxAbsDiff(await gpu.readF32(out, T * D), embeddingForwardRef(table, ids, D));
      console.log(`embedding forward T=${T} V=${V} D=${D} max abs diff ${diff.toExponential(2)}`);
      expect(diff).toBe(0);
      [out, gt, gi].forEach((b) => b.destroy());
    });
    it(`backward accumulates T=${T} V=${V} D=${D} (seed ${seed})`, async () => {
      const gpu = await sharedNodeGpu();
      const dOut = randomF32(T * D, rng);
      const ids = randomIds(T, V, rng);
      const dTable0 = randomF32(V * D, rng); // nonzero start: the kernel must add, not overwrite
      const g = gpu.buffer('dTable', dTable0);
      const gd = gpu.buffer('dOut', dOut);
      const gi = gpu.buffer('ids', ids);
      embeddingBackward(gpu, g, gd, gi, T, D, V);
      const want = embeddingBackwardRef(new Float64Array(dTable0), dOut, ids, D);
      const diff = maxAbsDiff(await gpu.readF32(g, V * D), want);
      console.log(`embedding backward T=${T} V=${V} D=${D} max abs diff ${diff.toExponential(2)}`);
      expect(diff).toBeLessThan(1e-4);
      [g, gd, gi].forEach((b) => b.destroy());
    });
  }
  it('backward with every token the same id', async () => {
    const gpu = await sharedNodeGpu();
    const T = 520;
    const D = 5;
    const V = 4;
    const ids = new Uint32Array(T).fill(2);
    const dOut = randomF32(T * D, rng);
    const g = gpu.buffer('dTable', new Float32Array(V * D));
    embeddingBackward(gpu, g, gpu.buffer('dOut', dOut), gpu.buffer('ids', ids), T, D, V);
    const want = embeddingBackwardRef(new Float64Array(V * D), dOut, ids, D);
    const diff = maxAbsDiff(await gpu.readF32(g, V * D), want);
    console.log(`embedding backward single-id T=${T} max abs diff ${diff.toExponential(2)}`);
    expect(diff).toBeLessThan(1e-4);
  });
  it('an id past the table gives a NaN row (loud), other rows intact', async () => {
    const gpu = await sharedNodeGpu();
    const [V, D] = [4, 3];
    const table = randomF32(V * D, rng);
    const out = gpu.buffer('out', 2 * D * 4);
    embeddingForward(gpu, out, gpu.buffer('table', table), gpu.buffer('ids', Uint32Array.from([1, 4])), 2, D, V);
    const got = await gpu.readF32(out, 2 * D);
    expect(Array.from(got.subarray(0, D))).toEqual(Array.from(table.subarray(D, 2 * D)));
    expect(Array.from(got.subarray(D)).every(Number.isNaN)).toBe(true);
  });
});
