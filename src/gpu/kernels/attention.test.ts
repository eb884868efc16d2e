// Causal GQA attention forward/backward against the float64 CPU reference: small random shapes off the workgroup
// grid, left-padding masks (u32 and f32), Dh up to 256, several row tilings, and one long S = 1024 sequence.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import { attentionBackward, attentionForward, type AttentionShape } from './attention';
import { attentionBackwardRef, attentionForwardRef } from './attention-ref';
import { freshSeed, maxAbsDiff, mulberry32, randomF32 } from '../../testing/random';

type MaskKind = 'none' | 'u32' | 'f32';
// rows: query/key rows per invocation (0 = adapter default); odd values leave partial tiles at sequence ends.
// unrolled: false pins the forward to shaders/attention.wgsl (the generated kernel is the default on SwiftShader).
const cases: { s: AttentionShape; mask: MaskKind; tol: number; rows?: number; unrolled?: boolean }[] = [
  { s: { B: 2, S: 13, Hq: 4, Hkv: 2, Dh: 8 }, mask: 'none', tol: 1e-5 },
  { s: { B: 2, S: 13, Hq: 4, Hkv: 2, Dh: 8 }, mask: 'u32', tol: 1e-5, rows: 1 },
  { s: { B: 3, S: 17, Hq: 6, Hkv: 2, Dh: 12 }, mask: 'f32', tol: 1e-5, rows: 3 },
  { s: { B: 2, S: 5, Hq: 2, Hkv: 2, Dh: 64 }, mask: 'u32', tol: 1e-5 },
  { s: { B: 1, S: 9, Hq: 3, Hkv: 1, Dh: 128 }, mask: 'u32', tol: 1e-5 },
  { s: { B: 1, S: 6, Hq: 2, Hkv: 1, Dh: 256 }, mask: 'none', tol: 1e-5 },
  { s: { B: 1, S: 1024, Hq: 2, Hkv: 1, Dh: 8 }, mask: 'u32', tol: 5e-5 },
  // Masked query rows (the model's pad rows): right padding long enough to empty whole row chunks, plus holes.
  { s: { B: 3, S: 37, Hq: 4, Hkv: 2, Dh: 32, maskQueries: true }, mask: 'f32', tol: 1e-5 },
  { s: { B: 2, S: 29, Hq: 6, Hkv: 3, Dh: 8, maskQueries: true }, mask: 'u32', tol: 1e-5, rows: 3 },
  { s: { B: 2, S: 21, Hq: 2, Hkv: 1, Dh: 12, maskQueries: true }, mask: 'u32', tol: 1e-5, rows: 1 },
  { s: { B: 3, S: 37, Hq: 4, Hkv: 2, Dh: 32, maskQueries: true }, mask: 'f32', tol: 1e-5, unrolled: false },
  { s: { B: 3, S: 17, Hq: 6, Hkv: 2, Dh: 12 }, mask: 'u32', tol: 1e-5, rows: 3, unrolled: false },
];

/** Left padding of a random length per sequence plus a few random interior holes. */
function makeMask(s: AttentionShape, rng: () => number): Float32Array {
  const m = new Float32Array(s.B * s.S).fill(1);
  for (let b = 0; b < s.B; b++) {
    const pad = Math.floor(rng() * Math.min(6, s.S - 1));
    for (let p = 0; p < pad; p++) m[b * s.S + p] = 0;
    if (s.S > 8) m[b * s.S + pad + 2] = 0;
    if (s.maskQueries) {
      // Right padding too (0 .. S/2 rows), as in the model's SFT and GRPO batches.
      const right = Math.floor(rng() * (s.S / 2));
      for (let p = s.S - right; p < s.S; p++) m[b * s.S + p] = 0;
    }
  }
  return m;
}

describe('attention', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  for (const c of cases) {
    const { B, S, Hq, Hkv, Dh } = c.s;
    it(`B=${B} S=${S} Hq=${Hq} Hkv=${Hkv} Dh=${Dh} mask=${c.mask}${c.s.maskQueries ? '+queries' : ''} rows=${c.rows ?? 'auto'}${c.unrolled === false ? ' attention.wgsl' : ''} (seed ${seed})`, async () => {
      const gpu = await sharedNodeGpu();
      gpu.tuning.attention.rows = c.rows ?? 0;
      gpu.tuning.attention.unrolled = c.unrolled ?? 'auto';
      const T = B * S;
      const q = randomF32(T * Hq * Dh, rng, 1.5);
      const k = randomF32(T * Hkv * Dh, rng, 1.5);
      const v = randomF32(T * Hkv * Dh, rng);
      const dout = randomF32(T * Hq * Dh, rng);
      const mask = c.mask === 'none' ? null : makeMask(c.s, rng);
      const gMask = mask ? gpu.buffer('mask', c.mask === 'u32' ? Uint32Array.from(mask) : mask) : null;
      const [gq, gk, gv, gdo] = [q, k, v, dout].map((a, i) => gpu.buffer(`in${i}`, a));
      const out = gpu.buffer('out', T * Hq * Dh * 4);
      const lse = gpu.buffer('lse', T * Hq * 4);
      const dq = gpu.buffer('dq', T * Hq * Dh * 4);
      const dk = gpu.buffer('dk', T * Hkv * Dh * 4);
      const dv = gpu.buffer('dv', T * Hkv * Dh * 4);
      attentionForward(gpu, out, lse, gq, gk, gv, gMask, c.s);
      attentionBackward(gpu, dq, dk, dv, gdo, gq, gk, gv, gMask, out, lse, c.s);
      gpu.tuning.attention.rows = 0;
      gpu.tuning.attention.unrolled = 'auto';
      const fwd = attentionForwardRef(q, k, v, mask, c.s);
      const bwd = attentionBackwardRef(q, k, v, mask, dout, c.s);
      const diffs = {
        out: maxAbsDiff(await gpu.readF32(out), fwd.out),
        lse:
          maxAbsDiff(await gpu.readF32(lse), fwd.lse) / Math.max(1, ...fwd.lse.map(Math.abs).filter((x) => x < 1e30)),
        dq: maxAbsDiff(await gpu.readF32(dq), bwd.dq),
        dk: maxAbsDiff(await gpu.readF32(dk), bwd.dk),
        dv: maxAbsDiff(await gpu.readF32(dv), bwd.dv),
      };
      console.log(
        `attention B=${B} S=${S} Hq=${Hq} Hkv=${Hkv} Dh=${Dh} mask=${c.mask} rows=${c.rows ?? 'auto'}: max abs diff ${Object.entries(
          diffs,
        )
          .map(([n, d]) => `${n} ${d.toExponential(2)}`)
          .join(' ')}`,
      );
      for (const d of Object.values(diffs)) expect(d).toBeLessThan(c.tol);
      [gq, gk, gv, gdo, gMask, out, lse, dq, dk, dv].forEach((b) => b?.destroy());
    });
  }

  it('rejects an undersized buffer with a message naming it (Dawn runs without robustness in Node)', async () => {
    const gpu = await sharedNodeGpu();
    const s = { B: 1, S: 4, Hq: 2, Hkv: 1, Dh: 8 };
    const [q, k, v, lse] = [64, 32, 32, 8].map((n) => gpu.buffer('x', n * 4));
    const short = gpu.buffer('short', 63 * 4);
    expect(() => attentionForward(gpu, short, lse, q, k, v, null, s)).toThrow(/attention: out needs 256 bytes/);
    const shortK = gpu.buffer('shortK', 31 * 4);
    expect(() => attentionForward(gpu, q, lse, q, shortK, v, null, s)).toThrow(/attention: k needs 128 bytes/);
    [q, k, v, lse, short, shortK].forEach((b) => b.destroy());
  });

  for (const maskQueries of [false, true])
    it(`reference backward matches finite differences of the reference forward (maskQueries ${maskQueries})`, () => {
      const s = { B: 2, S: 4, Hq: 4, Hkv: 2, Dh: 4, maskQueries };
      const T = s.B * s.S;
      const mask = [0, 1, 1, 0, 1, 0, 1, 1];
      const q = Array.from(randomF32(T * s.Hq * s.Dh, rng, 1.5), Number);
      const k = Array.from(randomF32(T * s.Hkv * s.Dh, rng, 1.5), Number);
      const v = Array.from(randomF32(T * s.Hkv * s.Dh, rng), Number);
      const dout = randomF32(T * s.Hq * s.Dh, rng);
      const f = (qq: number[], kk: number[], vv: number[]) =>
        attentionForwardRef(qq, kk, vv, mask, s).out.reduce((a, o, i) => a + o * dout[i], 0);
      const bwd = attentionBackwardRef(q, k, v, mask, dout, s);
      const h = 1e-6;
      const fd = (x: number[], which: 0 | 1 | 2) =>
        x.map((_, i) => {
          const p = x.slice();
          const m = x.slice();
          p[i] += h;
          m[i] -= h;
          const args = (y: number[]): [number[], number[], number[]] =>
            which === 0 ? [y, k, v] : which === 1 ? [q, y, v] : [q, k, y];
          return (f(...args(p)) - f(...args(m))) / (2 * h);
        });
      const diff = Math.max(maxAbsDiff(bwd.dq, fd(q, 0)), maxAbsDiff(bwd.dk, fd(k, 1)), maxAbsDiff(bwd.dv, fd(v, 2)));
      console.log(`attention reference vs finite differences: max abs diff ${diff.toExponential(2)}`);
      expect(diff).toBeLessThan(1e-7);
    });
});
