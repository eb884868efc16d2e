// Sampling kernel against its CPU reference: same draws for the same (seed, sequence, step), exact top-k/top-p
// exclusion, empirical frequencies matching the processed distribution, greedy, stop/done masking.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import type { Gpu } from '../runtime';
import { advanceCounters, processRow, sampleRef, sampleTokens, unpackSampleOut, type SampleParams } from './sample';
import { freshSeed, mulberry32, randomF32 } from '../../testing/random';

interface Run {
  tokens: Uint32Array;
  logprobs: Float32Array;
  done: Uint32Array;
  next: Uint32Array;
}

async function runSample(
  gpu: Gpu,
  logits: Float32Array,
  B: number,
  V: number,
  p: SampleParams,
  seqIds: Uint32Array,
  step: number,
  opts: { done?: Uint32Array; stop?: number[]; pad?: number } = {},
): Promise<Run> {
  const cap = 3;
  const col = 1;
  const bufs = {
    logits: gpu.buffer('logits', logits),
    seqIds: gpu.buffer('seqIds', seqIds),
    done: gpu.buffer('done', opts.done ?? new Uint32Array(B)),
    out: gpu.buffer('out', B * cap * 2 * 4),
    next: gpu.buffer('next', B * 4),
  };
  sampleTokens(gpu, bufs, { B, V, cap, col, step }, p, opts.stop ?? [], opts.pad ?? 0);
  const slots = unpackSampleOut(await gpu.readU32(bufs.out, B * cap * 2), B, cap);
  const run = {
    tokens: slots.tokens[col],
    logprobs: slots.logprobs[col],
    done: await gpu.readU32(bufs.done, B),
    next: await gpu.readU32(bufs.next, B),
  };
  Object.values(bufs).forEach((b) => b.destroy());
  return run;
}

describe('sample', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  const cases: [string, SampleParams, number][] = [
    ['greedy', { temperature: 0, seed: 1 }, 999],
    ['T=1', { temperature: 1, seed: 7 }, 999],
    ['T=0.7 top-k 5', { temperature: 0.7, topK: 5, seed: 3 }, 999],
    ['T=1.3 top-p 0.8', { temperature: 1.3, topP: 0.8, seed: 11 }, 999],
    ['T=0.9 top-k 40 top-p 0.6', { temperature: 0.9, topK: 40, topP: 0.6, seed: 5 }, 999],
    // Above 4096 the launcher uses 64 threads per row.
    ['V=5000 T=1 top-k 100 top-p 0.9', { temperature: 1, topK: 100, topP: 0.9, seed: 9 }, 5000],
  ];
  for (const [name, params, V] of cases) {
    it(`matches the CPU reference: ${name} (seed ${seed})`, async () => {
      const gpu = await sharedNodeGpu();
      const B = 6;
      const logits = randomF32(B * V, rng, 4);
      const seqIds = new Uint32Array(B).map(() => Math.floor(rng() * 2 ** 32));
      const step = Math.floor(rng() * 1000);
      const p = { ...params, seed: params.seed ^ seed };
      const got = await runSample(gpu, logits, B, V, p, seqIds, step);
      const want = sampleRef(logits, B, V, p, seqIds, step);
      let maxLp = 0;
      for (let r = 0; r < B; r++) {
        // A flip is only acceptable where f32 Gumbel noise cannot separate the two best scores.
        if (got.tokens[r] !== want.tokens[r]) expect(want.gaps[r]).toBeLessThan(1e-4);
        else maxLp = Math.max(maxLp, Math.abs(got.logprobs[r] - want.logprobs[r]));
        expect(want.processed[r].probs.has(got.tokens[r])).toBe(true);
      }
      console.log(
        `sample ${name}: tokens ${Array.from(got.tokens).join(',')} max |logprob diff| ${maxLp.toExponential(2)}`,
      );
      expect(maxLp).toBeLessThan(1e-4);
      expect(Array.from(got.next)).toEqual(Array.from(got.tokens));
    });
  }

  it(`empirical frequencies match the processed distribution; exclusion is exact (seed ${seed})`, async () => {
    const gpu = await sharedNodeGpu();
    const V = 24;
    const N = 6000;
    const row = randomF32(V, rng, 2);
    const p: SampleParams = { temperature: 0.8, topK: 12, topP: 0.85, seed: seed ^ 0x5bd1e995 };
    const logits = new Float32Array(N * V);
    for (let r = 0; r < N; r++) logits.set(row, r * V);
    const seqIds = new Uint32Array(N).map((_, r) => r);
    const got = await runSample(gpu, logits, N, V, p, seqIds, 17);
    const pr = processRow(row, p);
    const counts = new Map<number, number>();
    for (const t of got.tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    let worst = 0;
    let chi2 = 0;
    for (const t of counts.keys()) expect(pr.probs.has(t), `token ${t} is outside the top-k/top-p set`).toBe(true);
    for (const [t, q] of pr.probs) {
      const c = counts.get(t) ?? 0;
      const sd = Math.sqrt(N * q * (1 - q) || 1);
      worst = Math.max(worst, Math.abs(c - N * q) / sd);
      chi2 += (c - N * q) ** 2 / (N * q);
    }
    console.log(
      `sample distribution: kept ${pr.kept.length}/${V}, worst z ${worst.toFixed(2)}, chi2 ${chi2.toFixed(1)} (df ${pr.kept.length - 1})`,
    );
    expect(pr.kept.length).toBeGreaterThan(1);
    expect(pr.kept.length).toBeLessThan(12);
    expect(worst).toBeLessThan(4.5);
    // chi2 with df <= 11: 0.1% critical value is 31.3
    expect(chi2).toBeLessThan(31.3);
    // Sampled log-probs are the processed ones.
    for (let r = 0; r < 50; r++)
      expect(Math.abs(got.logprobs[r] - Math.log(pr.probs.get(got.tokens[r]) ?? 0))).toBeLessThan(1e-4);
  });

  it(`a row's draw does not depend on the batch around it (seed ${seed})`, async () => {
    const gpu = await sharedNodeGpu();
    const V = 300;
    const p: SampleParams = { temperature: 1, topP: 0.95, seed: seed };
    const a = randomF32(5 * V, rng, 3);
    const ids = new Uint32Array([10, 11, 12, 13, 14]);
    const full = await runSample(gpu, a, 5, V, p, ids, 4);
    // Row 3 alone, and rows 3 and 1 swapped into a different batch.
    const alone = await runSample(gpu, a.slice(3 * V, 4 * V), 1, V, p, ids.slice(3, 4), 4);
    const swapped = new Float32Array(2 * V);
    swapped.set(a.subarray(3 * V, 4 * V), 0);
    swapped.set(a.subarray(1 * V, 2 * V), V);
    const sw = await runSample(gpu, swapped, 2, V, p, new Uint32Array([13, 11]), 4);
    expect(alone.tokens[0]).toBe(full.tokens[3]);
    expect(sw.tokens[0]).toBe(full.tokens[3]);
    expect(sw.tokens[1]).toBe(full.tokens[1]);
    expect(alone.logprobs[0]).toBe(full.logprobs[3]);
  });

  it('top-k keeps every token tied with the k-th value', async () => {
    const gpu = await sharedNodeGpu();
    const V = 40;
    const N = 400;
    const row = randomF32(V, rng, 1);
    for (const i of [3, 17, 29, 31]) row[i] = 4; // four tokens tied for the top, k = 2
    const logits = new Float32Array(N * V);
    for (let r = 0; r < N; r++) logits.set(row, r * V);
    const p: SampleParams = { temperature: 1, topK: 2, seed: seed };
    const got = await runSample(
      gpu,
      logits,
      N,
      V,
      p,
      new Uint32Array(N).map((_, r) => r),
      0,
    );
    expect(processRow(row, p).kept.sort((a, b) => a - b)).toEqual([3, 17, 29, 31]);
    expect(new Set(got.tokens)).toEqual(new Set([3, 17, 29, 31]));
  });

  it('done rows emit the pad id; a sampled stop id marks the row done', async () => {
    const gpu = await sharedNodeGpu();
    const V = 50;
    const B = 3;
    const logits = randomF32(B * V, rng, 1);
    logits[0 * V + 7] = 5; // row 0 greedily picks the stop id 7
    logits[1 * V + 9] = 5;
    logits[2 * V + 7] = 5; // row 2 is already done
    const got = await runSample(gpu, logits, B, V, { temperature: 0, seed: 0 }, new Uint32Array([0, 1, 2]), 0, {
      done: new Uint32Array([0, 0, 1]),
      stop: [7, 8],
      pad: 3,
    });
    expect(Array.from(got.tokens)).toEqual([7, 9, 3]);
    expect(Array.from(got.done)).toEqual([1, 0, 1]);
    expect(Array.from(got.next)).toEqual([7, 9, 3]);
    expect(got.logprobs[2]).toBe(0);
    expect(got.logprobs[0]).toBeLessThan(0);
  });

  it('advances the decode counters', async () => {
    const gpu = await sharedNodeGpu();
    const B = 70;
    const p0 = new Uint32Array(B).map(() => Math.floor(rng() * 100));
    const bufs = [p0, p0.map((x) => x + 3), p0.map((x) => x * 2)].map((a, i) => gpu.buffer(`c${i}`, a));
    advanceCounters(gpu, bufs[0], bufs[1], bufs[2], B);
    advanceCounters(gpu, bufs[0], bufs[1], bufs[2], B);
    expect(Array.from(await gpu.readU32(bufs[0], B))).toEqual(Array.from(p0, (x) => x + 2));
    expect(Array.from(await gpu.readU32(bufs[1], B))).toEqual(Array.from(p0, (x) => x + 5));
    expect(Array.from(await gpu.readU32(bufs[2], B))).toEqual(Array.from(p0, (x) => x * 2 + 2));
    bufs.forEach((b) => b.destroy());
  });
});
