// RoPE kernels against float64 references on fresh random data (any H, arbitrary positions), plus an adjoint check.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import { createRopeTable, ropeBackward, ropeBackwardRef, ropeForward, ropeForwardRef } from './rope';
import { freshSeed, maxAbsDiff, mulberry32, randomF32 } from '../../testing/random';

describe('rope', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  const maxPos = 1100;
  // [T, H, Dh, theta]: GQA-like small H, Qwen's theta 1e6, positions up to ~1k (left padding / decode offsets).
  const shapes: [number, number, number, number][] = [
    [1, 1, 2, 10000],
    [7, 3, 16, 1e6],
    [45, 2, 64, 10000],
    [33, 14, 32, 1e6],
  ];
  for (const [T, H, Dh, theta] of shapes) {
    it(`forward and backward T=${T} H=${H} Dh=${Dh} theta=${theta} (seed ${seed})`, async () => {
      const gpu = await sharedNodeGpu();
      const table = createRopeTable(gpu, Dh, theta, maxPos);
      const n = T * H * Dh;
      const x = randomF32(n, rng, 2);
      const pos = new Uint32Array(T);
      for (let t = 0; t < T; t++) pos[t] = Math.floor(rng() * maxPos);
      const gx = gpu.buffer('x', x);
      const gp = gpu.buffer('pos', pos);
      const gy = gpu.buffer('y', n * 4);
      const gdx = gpu.buffer('dx', n * 4);
      ropeForward(gpu, gy, gx, gp, table, T, H);
      ropeBackward(gpu, gdx, gx, gp, table, T, H); // x doubles as dy
      const df = maxAbsDiff(await gpu.readF32(gy, n), ropeForwardRef(x, pos, H, Dh, theta));
      const db = maxAbsDiff(await gpu.readF32(gdx, n), ropeBackwardRef(x, pos, H, Dh, theta));
      console.log(
        `rope T=${T} H=${H} Dh=${Dh} max abs diff forward ${df.toExponential(2)} backward ${db.toExponential(2)}`,
      );
      expect(df).toBeLessThan(1e-5);
      expect(db).toBeLessThan(1e-5);
      [gx, gp, gy, gdx, table.buffer].forEach((b) => b.destroy());
    });
  }
  it(`strided views: rotates the k slice of a fused QKV buffer into a strided output (seed ${seed})`, async () => {
    const gpu = await sharedNodeGpu();
    const [T, Hq, Hkv, Dh, theta] = [9, 4, 2, 16, 1e6];
    const width = (Hq + 2 * Hkv) * Dh;
    const qkv = randomF32(T * width, rng);
    const pos = Uint32Array.from({ length: T }, (_, t) => 5 + 3 * t);
    const table = createRopeTable(gpu, Dh, theta, 64);
    const outStride = Hkv * Dh + 3; // padded rows in the output
    const out0 = randomF32(T * outStride + 2, rng);
    const gOut = gpu.buffer('out', out0);
    ropeForward(gpu, gOut, gpu.buffer('qkv', qkv), gpu.buffer('pos', pos), table, T, Hkv, {
      inOffset: Hq * Dh,
      inStride: width,
      outOffset: 2,
      outStride,
    });
    const k = new Float32Array(T * Hkv * Dh);
    for (let t = 0; t < T; t++) k.set(qkv.subarray(t * width + Hq * Dh, t * width + (Hq + Hkv) * Dh), t * Hkv * Dh);
    const kRot = ropeForwardRef(k, pos, Hkv, Dh, theta);
    const want = Float64Array.from(out0);
    for (let t = 0; t < T; t++) want.set(kRot.subarray(t * Hkv * Dh, (t + 1) * Hkv * Dh), 2 + t * outStride);
    const diff = maxAbsDiff(await gpu.readF32(gOut, out0.length), want);
    console.log(`rope strided max abs diff ${diff.toExponential(2)}`);
    expect(diff).toBeLessThan(1e-5);
  });
  it('backward is the adjoint of forward: <R x, g> = <x, R^T g>', () => {
    const [T, H, Dh, theta] = [5, 2, 8, 10000];
    const x = randomF32(T * H * Dh, rng);
    const g = randomF32(T * H * Dh, rng);
    const pos = Uint32Array.from([0, 3, 17, 900, 4]);
    const rx = ropeForwardRef(x, pos, H, Dh, theta);
    const rtg = ropeBackwardRef(g, pos, H, Dh, theta);
    let a = 0;
    let b = 0;
    for (let i = 0; i < x.length; i++) {
      a += rx[i] * g[i];
      b += x[i] * rtg[i];
    }
    expect(Math.abs(a - b)).toBeLessThan(1e-9);
  });
  it('a position past the table gives NaN, not a wrapped rotation', async () => {
    const gpu = await sharedNodeGpu();
    const table = createRopeTable(gpu, 4, 10000, 8);
    const y = gpu.buffer('y', 16);
    ropeForward(gpu, y, gpu.buffer('x', randomF32(4, rng)), gpu.buffer('pos', Uint32Array.from([8])), table, 1, 1);
    expect(Array.from(await gpu.readF32(y, 4)).every(Number.isNaN)).toBe(true);
  });
});
