// Node bench for the part-B kernels (attention forward/backward/decode, logprobs, xent, GRPO loss) on the tiny preset's
// shapes: wall ms per call and, on Linux, worker-CPU ms per call (SwiftShader's threads; robust to other people's load).
// Attention runs at S = 64, 128, 256 over the same 1,024 tokens, each with its per-FLOP cost against the model's matmul.
// Run: npm run bench:attention
import { Gpu } from '../gpu/runtime';
import { sharedNodeGpu } from '../gpu/node';
import { nodeGpu } from '../gpu/device-node';
import { mulberry32, randomF32 } from '../testing/random';
import { attentionBackward, attentionForward } from '../gpu/kernels/attention';
import { linearMatmul } from '../gpu/kernels/linear-quad';
import { attentionDecode } from '../gpu/kernels/attention-decode';
import { logprobsBackward, logprobsForward } from '../gpu/kernels/logprobs';
import { xentBackward, xentForward } from '../gpu/kernels/xent';
import { grpoLoss } from '../gpu/kernels/grpo-loss';
import { median, minOf, table, workerCpuSeconds } from './bench-util';
import { runMain } from '../cli/args';
import { parseCli } from '../cli/cli-spec';
import { BENCH_ATTENTION_SPEC } from '../cli/help/bench-specs';

/** GFLOP per worker-CPU second (per wall second where CPU time is not measurable). */
function gflop(flops: number, t: { wall: number; cpu: number }): string {
  const ms = Number.isFinite(t.cpu) && t.cpu > 0 ? t.cpu : t.wall;
  return (flops / ms / 1e6).toFixed(2);
}

/** Timings per call (`reps` calls, one sync) repeated BENCH_REPEATS times: the minimum, with the median beside it. */
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);

async function time(
  gpu: Gpu,
  record: () => void,
  reps: number,
): Promise<{ wall: number; cpu: number; cpuMedian: number }> {
  record(); // compile + warm up
  await gpu.sync();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    const c = workerCpuSeconds();
    const t = performance.now();
    for (let i = 0; i < reps; i++) record();
    await gpu.sync();
    walls.push((performance.now() - t) / reps);
    cpus.push(((workerCpuSeconds() - c) * 1000) / reps);
  }
  return { wall: minOf(walls), cpu: minOf(cpus), cpuMedian: median(cpus) };
}

/** Worker CPU ms per call, min (median). */
function cpuCell(t: { cpu: number; cpuMedian: number }): string {
  return Number.isFinite(t.cpu) ? `${t.cpu.toFixed(1)} (${t.cpuMedian.toFixed(1)})` : '-';
}

async function benchKernelsB(gpu: Gpu, reps = 5): Promise<string[][]> {
  const rng = mulberry32(7);
  const rows: string[][] = [];
  const add = async (name: string, record: () => void) => {
    const t = await time(gpu, record, reps);
    rows.push([name, t.wall.toFixed(1), cpuCell(t), '', '']);
  };
  const buf = (n: number, scale = 1) => gpu.buffer('bench', randomF32(n, rng, scale));
  // Attention, tiny preset heads: B=4 sequences of S=256, Hq=4, Hkv=2, Dh=32.
  const s = { B: 4, S: 256, Hq: 4, Hkv: 2, Dh: 32 };
  const T = s.B * s.S;
  const [q, k, v, dout] = [T * s.Hq * s.Dh, T * s.Hkv * s.Dh, T * s.Hkv * s.Dh, T * s.Hq * s.Dh].map((n) => buf(n));
  const out = buf(T * s.Hq * s.Dh);
  const lse = buf(T * s.Hq);
  const [dq, dk, dv] = [T * s.Hq * s.Dh, T * s.Hkv * s.Dh, T * s.Hkv * s.Dh].map((n) => buf(n));
  // Per-FLOP cost against the model's matmul kernel (linear_quad where it applies) at the same token count: the MLP
  // up projection [T, 128]·[384, 128]ᵀ. Causal attention FLOPs: B·Hq·S(S+1)/2 keys · 4·Dh (q·k and p·v).
  const x = buf(T * 128);
  const wUp = buf(384 * 128);
  const y = buf(T * 384);
  const mmFlops = 2 * T * 384 * 128;
  const mm = await time(gpu, () => linearMatmul(gpu, { a: x, b: wUp, c: y, M: T, N: 384, K: 128, transB: true }), reps);
  rows.push([`matmul (linear) ${T}x384x128`, mm.wall.toFixed(1), cpuCell(mm), gflop(mmFlops, mm), '1.00']);
  const perFlop = (t: { wall: number; cpu: number }, flops: number) => {
    const c = (x: { wall: number; cpu: number }) => (Number.isFinite(x.cpu) && x.cpu > 0 ? x.cpu : x.wall);
    return (c(t) / flops / (c(mm) / mmFlops)).toFixed(2);
  };
  // The same T = 1024 tokens cut into sequences of S = 64, 128, 256 (B = 16, 8, 4): per-FLOP cost should not grow
  // with S (the causal FLOPs do, ~S/2 keys per row).
  for (const unrolled of [true, false]) {
    gpu.tuning.attention.unrolled = unrolled;
    const which = unrolled ? 'generated' : 'WGSL files';
    for (const S of unrolled ? [64, 128, 256] : [256]) {
      const sh = { ...s, B: T / S, S };
      const flops = (sh.B * sh.Hq * sh.S * (sh.S + 1) * 4 * sh.Dh) / 2;
      const t = await time(gpu, () => attentionForward(gpu, out, lse, q, k, v, null, sh), reps);
      rows.push([
        `attention fwd B=${sh.B} S=${S} Hq=4 Hkv=2 Dh=32 (${which})`,
        t.wall.toFixed(1),
        cpuCell(t),
        gflop(flops, t),
        perFlop(t, flops),
      ]);
      // Backward: q·k recomputed in both passes, dP = dO·vᵀ twice, then dq, dk, dv: 3.5× the forward's FLOPs.
      const tb = await time(gpu, () => attentionBackward(gpu, dq, dk, dv, dout, q, k, v, null, out, lse, sh), reps);
      rows.push([
        `attention bwd, same shape (${which})`,
        tb.wall.toFixed(1),
        cpuCell(tb),
        gflop(3.5 * flops, tb),
        perFlop(tb, 3.5 * flops),
      ]);
    }
  }
  gpu.tuning.attention.unrolled = 'auto';
  for (const B of [1, 16, 64]) {
    const maxLen = 512;
    const kc = buf(B * s.Hkv * maxLen * s.Dh);
    const vc = buf(B * s.Hkv * maxLen * s.Dh);
    const qd = buf(B * s.Hq * s.Dh);
    const od = buf(B * s.Hq * s.Dh);
    const lens = gpu.buffer('bench.lens', new Uint32Array(B).fill(256));
    const shape = { B, Hq: s.Hq, Hkv: s.Hkv, Dh: s.Dh, maxLen };
    await add(`attention decode B=${B} len=256`, () => attentionDecode(gpu, od, qd, kc, vc, lens, null, shape));
    [kc, vc, qd, od, lens].forEach((b) => b.destroy());
  }
  // Vocabulary kernels, tiny preset vocab: T=1024 rows of V=1024.
  const V = 1024;
  const logits = buf(T * V, 4);
  const targets = gpu.buffer(
    'bench.targets',
    new Uint32Array(T).map(() => Math.floor(rng() * V)),
  );
  const mask = gpu.buffer('bench.mask', new Float32Array(T).fill(1));
  const [lp, ent, lseV, loss, dlp] = [T, T, T, T, T].map((n) => buf(n));
  const stats = buf(8);
  const dlogits = buf(T * V);
  await add(`logprobs fwd T=${T} V=${V}`, () => logprobsForward(gpu, lp, ent, lseV, logits, targets, { T, V }));
  await add(`logprobs bwd T=${T} V=${V}`, () =>
    logprobsBackward(gpu, dlogits, dlp, null, logits, targets, lseV, ent, { T, V }),
  );
  await add(`xent fwd+bwd T=${T} V=${V}`, () => {
    xentForward(gpu, loss, lseV, stats, logits, targets, mask, { T, V });
    xentBackward(gpu, dlogits, logits, targets, mask, lseV, stats, { T, V });
  });
  const inputs = { logp: lp, oldLogp: lseV, refLogp: ent, rolloutLogp: loss, advantages: buf(s.B), mask };
  const cfg = {
    epsilon_low: 0.2,
    epsilon_high: 0.28,
    dual_clip_c: 10,
    beta: 0.001,
    loss_type: 'grpo' as const,
    max_completion_length: 256,
    is_cap: 2,
  };
  await add(`grpo loss+grad B=${s.B} S=${s.S}`, () => grpoLoss(gpu, dlp, stats, inputs, { B: s.B, S: s.S }, cfg));
  return rows;
}

/**
 * The kernels with an 8-buffer variant (merge-storage.ts) on this device and on one capped at 8 storage buffers per
 * stage (WebGPU's default), timed in turn in the same run: worker CPU ms per call and the 8-buffer/own ratio.
 */
async function benchPacked(own: Gpu, reps = 5): Promise<string[][]> {
  const low = await Gpu.create(nodeGpu(), { limitCaps: { maxStorageBuffersPerShaderStage: 8 } });
  const s = { B: 4, S: 256, Hq: 4, Hkv: 2, Dh: 32 };
  const T = s.B * s.S;
  const setup = (gpu: Gpu) => {
    const rng = mulberry32(7);
    const buf = (n: number) => gpu.buffer('bench', randomF32(n, rng));
    const [q, k, v, dout, out, dq, dk, dv] = [4, 2, 2, 4, 4, 4, 2, 2].map((h) => buf(T * h * s.Dh));
    const lse = buf(T * s.Hq);
    const [lp, old, ref, roll, mask] = [0, 1, 2, 3, 4].map(() => buf(T));
    const [dlp, stats, adv] = [buf(T), buf(8), buf(s.B)];
    const inputs = { logp: lp, oldLogp: old, refLogp: ref, rolloutLogp: roll, advantages: adv, mask };
    const cfg = { epsilon_low: 0.2, epsilon_high: 0.28, dual_clip_c: 10, beta: 0.001, is_cap: 2 };
    return {
      attention: () => attentionBackward(gpu, dq, dk, dv, dout, q, k, v, null, out, lse, s),
      grpo: () => grpoLoss(gpu, dlp, stats, inputs, s, { ...cfg, loss_type: 'dapo', max_completion_length: s.S }),
    };
  };
  const runs = { own: setup(own), low: setup(low) };
  const rows: string[][] = [];
  for (const unrolled of [true, false, null]) {
    const name =
      unrolled === null
        ? `grpo loss+grad B=${s.B} S=${s.S}`
        : `attention bwd B=4 S=256 Hq=4 Hkv=2 Dh=32 (${unrolled ? 'generated' : 'WGSL files'})`;
    const t: Record<'own' | 'low', { wall: number; cpu: number; cpuMedian: number }[]> = { own: [], low: [] };
    for (const gpu of [own, low]) gpu.tuning.attention.unrolled = unrolled ?? 'auto';
    // Interleaved, so both devices see the same background load; the GRPO loss is tiny, so many calls per timing.
    for (let r = 0; r < 3; r++)
      for (const [key, gpu] of [
        ['own', own],
        ['low', low],
      ] as const)
        t[key].push(
          await time(gpu, unrolled === null ? runs[key].grpo : runs[key].attention, unrolled === null ? 100 : reps),
        );
    const min = (k: 'own' | 'low', f: 'wall' | 'cpu') => minOf(t[k].map((x) => x[f]));
    rows.push([
      name,
      `${min('own', 'wall').toFixed(2)} / ${min('low', 'wall').toFixed(2)}`,
      `${min('own', 'cpu').toFixed(2)} / ${min('low', 'cpu').toFixed(2)}`,
      (min('low', 'wall') / min('own', 'wall')).toFixed(2),
      (min('low', 'cpu') / min('own', 'cpu')).toFixed(2),
    ]);
  }
  for (const gpu of [own, low]) gpu.tuning.attention.unrolled = 'auto';
  low.destroy();
  return rows;
}

runMain(
  async () => {
    if (!parseCli(BENCH_ATTENTION_SPEC, process.argv.slice(2))) return;
    const gpu = await sharedNodeGpu();
    table(
      '',
      ['kernel', 'wall ms (min)', 'worker cpu ms, min (median)', 'GFLOP/cpu-s (min)', 'cost per FLOP vs matmul (min)'],
      await benchKernelsB(gpu),
    );
    table(
      `8 storage buffers per stage (the packed variants) against this device's ${gpu.device.limits.maxStorageBuffersPerShaderStage}, min of 3 interleaved`,
      ['kernel', 'wall ms: own / 8', 'worker cpu ms: own / 8', 'wall 8/own', 'cpu 8/own'],
      await benchPacked(gpu),
    );
  },
  { usage: 'usage: npm run bench:attention   (no options; BENCH_REPEATS=N repeats, default 3)' },
);
