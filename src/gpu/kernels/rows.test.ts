// Row gather / scatter against the CPU references on fresh random data.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import { gatherRows, gatherRowsRef, scatterRows, scatterRowsRef } from './rows';
import { freshSeed, maxAbsDiff, mulberry32, randomF32 } from '../../testing/random';

describe('rows', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  it(`gather then scatter a random row subset (seed ${seed})`, async () => {
    const gpu = await sharedNodeGpu();
    const [T, D] = [57, 12];
    const rows = Uint32Array.from(Array.from({ length: T }, (_, i) => i).filter(() => rng() < 0.6));
    const n = rows.length;
    const src = randomF32(T * D, rng);
    const dst0 = randomF32(T * D, rng);
    const [gs, gr, gOut, gDst] = [
      gpu.buffer('src', src),
      gpu.buffer('rows', rows),
      gpu.buffer('out', n * D * 4),
      gpu.buffer('dst', dst0),
    ];
    gatherRows(gpu, gOut, gs, gr, n, T, D);
    const gathered = await gpu.readF32(gOut, n * D);
    const g = maxAbsDiff(gathered, gatherRowsRef(src, rows, D));
    const small = randomF32(n * D, rng);
    gpu.write(gOut, small);
    scatterRows(gpu, gDst, gOut, gr, n, T, D);
    const s = maxAbsDiff(await gpu.readF32(gDst, T * D), scatterRowsRef(dst0, small, rows, D));
    console.log(`rows: ${n}/${T} rows, gather max abs diff ${g}, scatter max abs diff ${s}`);
    expect(g).toBe(0);
    expect(s).toBe(0);
    expect(() => scatterRows(gpu, gDst, gOut, gr, n, T + 1, D)).toThrow(/dst/);
    [gs, gr, gOut, gDst].forEach((b) => b.destroy());
  });
});
