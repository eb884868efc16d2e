// Decode attention and the KV-cache append against the float64 CPU reference, and against the training forward:
// prefilling a cache and decoding the last token must reproduce attentionForward's last row (left padding included).
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import { attentionCacheWrite, attentionCacheWriteRef, attentionDecode, type DecodeShape } from './attention-decode';
import { attentionForward } from './attention';
import { attentionDecodeRef, attentionForwardRef } from './attention-ref';
import { freshSeed, maxAbsDiff, mulberry32, randomF32 } from '../../testing/random';

const cases: { s: DecodeShape; masked: boolean }[] = [
  { s: { B: 3, Hq: 4, Hkv: 2, Dh: 8, maxLen: 37 }, masked: true },
  { s: { B: 2, Hq: 2, Hkv: 1, Dh: 128, maxLen: 150 }, masked: false },
  { s: { B: 2, Hq: 14, Hkv: 2, Dh: 64, maxLen: 300 }, masked: true },
  { s: { B: 5, Hq: 3, Hkv: 3, Dh: 4, maxLen: 70 }, masked: true },
];

describe('attention decode', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  for (const [n, { s, masked }] of cases.entries())
    for (const impl of ['thread', 'workgroup'] as const) {
      it(`${impl} B=${s.B} Hq=${s.Hq} Hkv=${s.Hkv} Dh=${s.Dh} maxLen=${s.maxLen} masked=${masked} (seed ${seed})`, async () => {
        const gpu = await sharedNodeGpu();
        gpu.tuning.attentionDecode = impl;
        const cacheN = s.B * s.Hkv * s.maxLen * s.Dh;
        const q = randomF32(s.B * s.Hq * s.Dh, rng, 1.5);
        const kc = randomF32(cacheN, rng, 1.5);
        const vc = randomF32(cacheN, rng);
        const lens = Uint32Array.from({ length: s.B }, () => 1 + Math.floor(rng() * s.maxLen));
        lens[0] = s.maxLen;
        let valid: Uint32Array | null = null;
        if (masked) {
          valid = new Uint32Array(s.B * s.maxLen).fill(1);
          for (let b = 0; b < s.B; b++) {
            const pad = Math.floor(rng() * Math.min(lens[b], 10));
            for (let j = 0; j < pad; j++) valid[b * s.maxLen + j] = 0;
          }
          // The last sequence sees only masked keys: its output must be 0, not NaN.
          for (let j = 0; j < s.maxLen; j++) valid[(s.B - 1) * s.maxLen + j] = 0;
        }
        const bufs = [q, kc, vc, lens].map((a, i) => gpu.buffer(`in${i}`, a));
        const gValid = valid ? gpu.buffer('valid', valid) : null;
        const out = gpu.buffer('out', s.B * s.Hq * s.Dh * 4);
        attentionDecode(gpu, out, bufs[0], bufs[1], bufs[2], bufs[3], gValid, s);
        gpu.tuning.attentionDecode = 'auto';
        const got = await gpu.readF32(out);
        const diff = maxAbsDiff(got, attentionDecodeRef(q, kc, vc, lens, valid, s));
        console.log(
          `attention decode ${impl} case ${n} B=${s.B} Hq=${s.Hq} Dh=${s.Dh} maxLen=${s.maxLen}: max abs diff ${diff.toExponential(2)}`,
        );
        expect(diff).toBeLessThan(1e-5);
        [...bufs, gValid, out].forEach((b) => b?.destroy());
      });
    }

  it(`prefill via cache append + decode of the last token equals the training forward (seed ${seed})`, async () => {
    const gpu = await sharedNodeGpu();
    const [B, S, Hq, Hkv, Dh, maxLen] = [3, 11, 4, 2, 16, 20];
    const T = B * S;
    const q = randomF32(T * Hq * Dh, rng, 1.5);
    const k = randomF32(T * Hkv * Dh, rng, 1.5);
    const v = randomF32(T * Hkv * Dh, rng);
    const mask = new Uint32Array(T).fill(1);
    const validCache = new Uint32Array(B * maxLen).fill(1);
    for (let b = 0; b < B; b++) {
      for (let p = 0; p < b * 2; p++) {
        mask[b * S + p] = 0; // left padding
        validCache[b * maxLen + p] = 0;
      }
    }
    const [gq, gk, gv, gm, gvc] = [q, k, v, mask, validCache].map((a, i) => gpu.buffer(`in${i}`, a));
    const out = gpu.buffer('out', T * Hq * Dh * 4);
    const lse = gpu.buffer('lse', T * Hq * 4);
    attentionForward(gpu, out, lse, gq, gk, gv, gm, { B, S, Hq, Hkv, Dh });
    // Caches start as garbage beyond what is written; decode must never read past lens.
    const kc0 = randomF32(B * Hkv * maxLen * Dh, rng, 100);
    const vc0 = randomF32(B * Hkv * maxLen * Dh, rng, 100);
    const kCache = gpu.buffer('kCache', kc0);
    const vCache = gpu.buffer('vCache', vc0);
    const start = gpu.buffer('start', new Uint32Array(B));
    const wshape = { B, n: S, Hkv, Dh, maxLen };
    attentionCacheWrite(gpu, kCache, vCache, gk, gv, start, wshape);
    attentionCacheWriteRef(kc0, vc0, k, v, new Uint32Array(B), wshape);
    const cacheDiff = Math.max(maxAbsDiff(await gpu.readF32(kCache), kc0), maxAbsDiff(await gpu.readF32(vCache), vc0));
    // The last token's query of each sequence.
    const qLast = new Float32Array(B * Hq * Dh);
    for (let b = 0; b < B; b++) qLast.set(q.subarray((b * S + S - 1) * Hq * Dh, (b * S + S) * Hq * Dh), b * Hq * Dh);
    const gql = gpu.buffer('qLast', qLast);
    const lens = gpu.buffer('lens', new Uint32Array(B).fill(S));
    const dec = gpu.buffer('dec', B * Hq * Dh * 4);
    attentionDecode(gpu, dec, gql, kCache, vCache, lens, gvc, { B, Hq, Hkv, Dh, maxLen });
    const full = await gpu.readF32(out);
    const lastRows = new Float32Array(B * Hq * Dh);
    for (let b = 0; b < B; b++)
      lastRows.set(full.subarray((b * S + S - 1) * Hq * Dh, (b * S + S) * Hq * Dh), b * Hq * Dh);
    const decoded = await gpu.readF32(dec);
    const diff = maxAbsDiff(decoded, lastRows);
    const refOut = attentionForwardRef(q, k, v, mask, { B, S, Hq, Hkv, Dh }).out;
    const refDiff = maxAbsDiff(full, refOut);
    console.log(
      `attention decode vs training forward: cache append diff ${cacheDiff} decode vs forward ${diff.toExponential(2)} forward vs ref ${refDiff.toExponential(2)}`,
    );
    expect(cacheDiff).toBe(0);
    expect(diff).toBeLessThan(1e-5);
    expect(refDiff).toBeLessThan(1e-5);
    [gq, gk, gv, gm, gvc, out, lse, kCache, vCache, start, gql, lens, dec].forEach((b) => b.destroy());
  });
});
