// The 8-storage-buffer kernel variants (merge-storage.ts) on a Dawn device capped at WebGPU's default of 8 storage
// buffers per stage, against the float64 CPU references on fresh random data: attention backward (generated and WGSL
// file kernels, key and query masks) and the GRPO loss gradient. Plus the rewrite's refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gpu } from '../runtime';
import { nodeGpu } from '../device-node';
import { attentionBackward, attentionForward, type AttentionShape } from './attention';
import { attentionBackwardRef, attentionForwardRef } from './attention-ref';
import { mergeStorage, packedStorage } from './merge-storage';
import { freshSeed, maxAbsDiff, mulberry32, randomF32 } from '../../testing/random';
import { grpoLossAgainstRef } from '../../testing/grpo-loss-check';

const seed = freshSeed();
const rng = mulberry32(seed);
let gpu: Gpu;

beforeAll(async () => {
  gpu = await Gpu.create(nodeGpu(), { limitCaps: { maxStorageBuffersPerShaderStage: 8 } });
});
afterAll(() => gpu?.destroy());

describe(`kernels on a device with 8 storage buffers per stage (seed ${seed})`, () => {
  it('the device is capped at 8 and the launchers choose the packed variants', () => {
    expect(gpu.device.limits.maxStorageBuffersPerShaderStage).toBe(8);
    expect(packedStorage(gpu.device)).toBe(true);
  });

  // unrolled false: the WGSL files' kernels (real GPUs); auto: the generated ones (SwiftShader's default here).
  const cases: { s: AttentionShape; unrolled: boolean | 'auto'; rows: number }[] = [
    { s: { B: 2, S: 13, Hq: 4, Hkv: 2, Dh: 8 }, unrolled: 'auto', rows: 0 },
    { s: { B: 3, S: 37, Hq: 4, Hkv: 2, Dh: 16, maskQueries: true }, unrolled: 'auto', rows: 3 },
    { s: { B: 3, S: 17, Hq: 6, Hkv: 2, Dh: 12 }, unrolled: false, rows: 3 },
    { s: { B: 2, S: 29, Hq: 6, Hkv: 3, Dh: 8, maskQueries: true }, unrolled: false, rows: 1 },
  ];
  for (const c of cases) {
    const { B, S, Hq, Hkv, Dh } = c.s;
    it(`attention backward B=${B} S=${S} Hq=${Hq} Hkv=${Hkv} Dh=${Dh}${c.s.maskQueries ? ' +queries' : ''} unrolled=${c.unrolled}`, async () => {
      gpu.tuning.attention.unrolled = c.unrolled;
      gpu.tuning.attention.rows = c.rows;
      const T = B * S;
      const q = randomF32(T * Hq * Dh, rng, 1.5);
      const k = randomF32(T * Hkv * Dh, rng, 1.5);
      const v = randomF32(T * Hkv * Dh, rng);
      const dout = randomF32(T * Hq * Dh, rng);
      // Left pads, one hole, and (for maskQueries) right pads.
      const mask = new Float32Array(T).fill(1);
      for (let b = 0; b < B; b++) {
        const pad = Math.floor(rng() * 5);
        for (let p = 0; p < pad; p++) mask[b * S + p] = 0;
        mask[b * S + pad + 2] = 0;
        if (c.s.maskQueries) for (let p = S - Math.floor(rng() * (S / 2)); p < S; p++) mask[b * S + p] = 0;
      }
      const [gq, gk, gv, gdo, gm] = [q, k, v, dout, Uint32Array.from(mask)].map((a, i) => gpu.buffer(`in${i}`, a));
      const [out, lse, dq, dk, dv] = [Hq * Dh, Hq, Hq * Dh, Hkv * Dh, Hkv * Dh].map((n) => gpu.buffer('o', T * n * 4));
      attentionForward(gpu, out, lse, gq, gk, gv, gm, c.s);
      attentionBackward(gpu, dq, dk, dv, gdo, gq, gk, gv, gm, out, lse, c.s);
      gpu.tuning.attention.unrolled = 'auto';
      gpu.tuning.attention.rows = 0;
      const bwd = attentionBackwardRef(q, k, v, mask, dout, c.s);
      const diffs = {
        out: maxAbsDiff(await gpu.readF32(out), attentionForwardRef(q, k, v, mask, c.s).out),
        dq: maxAbsDiff(await gpu.readF32(dq), bwd.dq),
        dk: maxAbsDiff(await gpu.readF32(dk), bwd.dk),
        dv: maxAbsDiff(await gpu.readF32(dv), bwd.dv),
      };
      console.log(
        `8-buffer attention ${JSON.stringify(c.s)} unrolled=${c.unrolled}: ` +
          Object.entries(diffs)
            .map(([n, d]) => `${n} ${d.toExponential(2)}`)
            .join(' '),
      );
      for (const d of Object.values(diffs)) expect(d).toBeLessThan(1e-5);
      [gq, gk, gv, gdo, gm, out, lse, dq, dk, dv].forEach((b) => b.destroy());
    });
  }

  for (const loss_type of ['grpo', 'dapo'] as const)
    it(`grpo loss ${loss_type}: stats and dL/dlogp`, async () => {
      const d = await grpoLossAgainstRef(gpu, rng, loss_type);
      console.log(
        `8-buffer grpo ${loss_type}: stats rel diff ${d.stats.toExponential(2)} dlogp ${d.dlogp.toExponential(2)}`,
      );
      expect(d.stats).toBeLessThan(2e-5);
      expect(d.dlogp).toBeLessThan(1e-6);
    });
});

describe('mergeStorage', () => {
  const src = [
    '@group(0) @binding(1) var<storage, read> a: array<f32>;',
    '@group(0) @binding(2) var<storage, read_write> b: array<f32>; // note',
    '@group(0) @binding(3) var<storage, read_write> c: array<f32>;',
    'fn f(i: u32) { c[i] = a[i] + b[i]; }',
  ].join('\n');

  it('merges two arrays into the first binding and moves the later bindings down', () => {
    const out = mergeStorage(src, 'a', 'b', 'ab', 'n');
    expect(out).toContain('@group(0) @binding(1) var<storage, read_write> ab: array<f32>;');
    expect(out).toContain('@group(0) @binding(2) var<storage, read_write> c: array<f32>;');
    expect(out).toContain('c[i] = ab[i] + ab[n + i];');
    expect(out).not.toMatch(/binding\(3\)/);
  });

  it('refuses a use it cannot rewrite, or arrays it cannot find', () => {
    expect(() => mergeStorage(src + '\nfn g() -> u32 { return arrayLength(&b); }', 'a', 'b', 'ab', 'n')).toThrow(
      /'b' is used other than indexed/,
    );
    expect(() => mergeStorage(src, 'a', 'z', 'az', 'n')).toThrow(/no f32 storage arrays 'a' and 'z'/);
    expect(() => mergeStorage(src, 'b', 'a', 'ba', 'n')).toThrow(/must come before/);
  });
});
