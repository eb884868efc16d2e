// Row-chunked lookup and column-block moves on the GPU against CPU references, on fresh random data.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import { chunkedLookup, chunkedLookupRef, placeColumns, rowRanges, takeColumns } from './chunk-rows';
import { freshSeed, mulberry32, randomF32 } from '../../testing/random';

describe('chunk-rows kernels', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);

  it(`lookup from a table split into uneven row chunks equals the whole-table lookup (seed ${seed})`, async () => {
    const gpu = await sharedNodeGpu();
    const [V, D, n] = [37, 5, 23];
    const table = randomF32(V * D, rng);
    // Every id once or more, plus an out-of-range id (NaN row, as the unchunked kernel).
    const ids = Uint32Array.from({ length: n }, (_, i) => (i === n - 1 ? V + 3 : Math.floor(rng() * V)));
    const out = gpu.buffer('chunk.out', n * D * 4);
    const gids = gpu.buffer('chunk.ids', ids);
    const ranges = rowRanges(V, 1 + Math.floor(rng() * 15));
    const chunks = ranges.map((r) => ({
      ...r,
      buffer: gpu.buffer('chunk.t', table.slice(r.lo * D, (r.lo + r.rows) * D)),
    }));
    chunkedLookup(gpu, out, chunks, gids, n, D, V);
    expect(await gpu.readF32(out, n * D)).toEqual(chunkedLookupRef(table, ids, D, V));
    [out, gids, ...chunks.map((c) => c.buffer)].forEach((b) => b.destroy());
  });

  it(`place then take a column block round-trips and leaves the other columns (seed ${seed})`, async () => {
    const gpu = await sharedNodeGpu();
    const [R, ld, w, c0] = [7, 19, 6, 11];
    const big = randomF32(R * ld, rng);
    const small = randomF32(R * w, rng);
    const gb = gpu.buffer('cols.big', big);
    const gs = gpu.buffer('cols.small', small);
    placeColumns(gpu, gb, gs, R, w, ld, c0);
    const want = big.slice();
    for (let r = 0; r < R; r++) for (let j = 0; j < w; j++) want[r * ld + c0 + j] = small[r * w + j];
    expect(await gpu.readF32(gb, R * ld)).toEqual(want);
    const back = gpu.buffer('cols.back', R * w * 4);
    takeColumns(gpu, back, gb, R, w, ld, c0);
    expect(await gpu.readF32(back, R * w)).toEqual(small);
    [gb, gs, back].forEach((b) => b.destroy());
  });
});
