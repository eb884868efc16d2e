// The fused decode KV append (RoPE on k + cache write of k and v from a fused QKV row) against its float64 reference
// and, bit for bit, against the two kernels it replaces (the sampler's tokens must not change with the fusion).
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import { attentionCacheRope, attentionCacheRopeRef, type CacheRopeShape } from './attention-cache-rope';
import { attentionCacheWrite } from './attention-decode';
import { createRopeTable, ropeForward } from './rope';
import { freshSeed, maxAbsDiff, mulberry32, randomF32 } from '../../testing/random';

const cases: CacheRopeShape[] = [
  { B: 3, Hq: 4, Hkv: 2, Dh: 8, maxLen: 37 },
  { B: 5, Hq: 4, Hkv: 2, Dh: 32, maxLen: 90 },
  { B: 2, Hq: 6, Hkv: 3, Dh: 4, maxLen: 20 },
  { B: 70, Hq: 2, Hkv: 1, Dh: 64, maxLen: 12 },
];
const THETA = 10000;

describe('attention cache rope', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  for (const s of cases)
    it(`B=${s.B} Hq=${s.Hq} Hkv=${s.Hkv} Dh=${s.Dh} maxLen=${s.maxLen} (seed ${seed})`, async () => {
      const gpu = await sharedNodeGpu();
      const { B, Hq, Hkv, Dh, maxLen } = s;
      const width = (Hq + 2 * Hkv) * Dh;
      const qkv = randomF32(B * width, rng, 1.5);
      const cacheN = B * Hkv * maxLen * Dh;
      const kc = randomF32(cacheN, rng);
      const vc = randomF32(cacheN, rng);
      const maxPos = 64;
      const positions = Uint32Array.from({ length: B }, () => Math.floor(rng() * maxPos));
      // Some slot past the cache (a row the sampler keeps decoding after its cache is full): dropped.
      const slots = Uint32Array.from({ length: B }, () => Math.floor(rng() * (maxLen + 3)));
      slots[B - 1] = maxLen + Math.floor(rng() * 3);
      const table = createRopeTable(gpu, Dh, THETA, maxPos);
      const gQkv = gpu.buffer('qkv', qkv);
      const gPos = gpu.buffer('pos', positions);
      const gSlots = gpu.buffer('slots', slots);
      const fused = [gpu.buffer('kc', kc), gpu.buffer('vc', vc)];
      attentionCacheRope(gpu, fused[0], fused[1], gQkv, gPos, gSlots, table, s);
      // The kernels it replaces: rope on the strided k slice, a dense copy of v, then the cache write.
      const split = [gpu.buffer('kc2', kc), gpu.buffer('vc2', vc)];
      const k = gpu.buffer('k', B * Hkv * Dh * 4);
      const v = gpu.buffer('v', B * Hkv * Dh * 4);
      ropeForward(gpu, k, gQkv, gPos, table, B, Hkv, { inOffset: Hq * Dh, inStride: width });
      for (let b = 0; b < B; b++) gpu.copy(gQkv, (b * width + (Hq + Hkv) * Dh) * 4, v, b * Hkv * Dh * 4, Hkv * Dh * 4);
      attentionCacheWrite(gpu, split[0], split[1], k, v, gSlots, { B, n: 1, Hkv, Dh, maxLen });
      const [gk, gv, sk, sv] = await Promise.all([...fused, ...split].map((b) => gpu.readF32(b)));
      const rk = kc.slice();
      const rv = vc.slice();
      attentionCacheRopeRef(rk, rv, qkv, positions, slots, THETA, s);
      const dk = maxAbsDiff(gk, rk);
      console.log(
        `cache rope B=${B} Dh=${Dh}: max |Δk| vs float64 ${dk.toExponential(2)}; vs rope + cache write ${maxAbsDiff(gk, sk)}`,
      );
      // Each k output is a·cos ∓ b·sin in f32 with |a|, |b| <= 1.5 and the table rounded to f32: at most a few ulps
      // of 3, i.e. < 1e-6; 1e-5 leaves a 10x margin. v and untouched slots are copies: exact.
      expect(dk).toBeLessThan(1e-5);
      expect(maxAbsDiff(gv, rv)).toBe(0);
      expect(maxAbsDiff(gk, sk)).toBe(0);
      expect(maxAbsDiff(gv, sv)).toBe(0);
      [gQkv, gPos, gSlots, ...fused, ...split, k, v, table.buffer].forEach((b) => b.destroy());
    });
});
