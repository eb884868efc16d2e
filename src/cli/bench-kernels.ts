// `npm run bench:kernels`: matmul GFLOP/s (fast, workgroup-tiled, naive in the same run) and quantized decode matmul.
// Timing records many dispatches into one submit and syncs once, because a submit+readback round trip costs ~1 ms.
// CODE_A1_ROBUST=1 runs on a Dawn instance created here without 'disable_robustness', to check that flag's effect.
import { createRequire } from 'node:module';
import { Gpu } from '../gpu/runtime';
import { sharedNodeGpu } from '../gpu/node';
import { existsSync } from 'node:fs';
import { matmul, type MatmulArgs } from '../gpu/kernels/matmul';
import { qmatmul, uploadQuantized } from '../gpu/kernels/qmatmul';
import { quantize, QUANT_FORMATS } from '../model/quant';
import { mulberry32, randomF32 } from '../testing/random';

const TARGET_S = Number(process.env.BENCH_SECONDS ?? 0.25);
// The CPU is shared, so each figure is the best of a few timings.
const TRIES = Number(process.env.BENCH_TRIES ?? 2);
// BENCH_ONLY=512x512x512 (substring of "MxNxK form") narrows the fp32 cases while tuning.
const ONLY = process.env.BENCH_ONLY;

let keepInstance: GPU | undefined;

async function acquire(): Promise<{ gpu: Gpu; mode: string }> {
  if (process.env.CODE_A1_ROBUST !== '1') return { gpu: await sharedNodeGpu(), mode: 'robustness disabled (device-node.ts flag)' };
  // Same ICD choice as device-node.ts, but without creating its instance: two Dawn instances in one process crash.
  const icd = '/usr/lib/chromium/vk_swiftshader_icd.json';
  if (!process.env.VK_ICD_FILENAMES && existsSync(icd)) process.env.VK_ICD_FILENAMES = icd;
  const require = createRequire(import.meta.url);
  const mod = require('webgpu') as { create: (flags: string[]) => GPU; globals: Record<string, unknown> };
  Object.assign(globalThis, mod.globals);
  // Keep the instance referenced: if it is garbage-collected, Dawn tears down under the live device and aborts.
  keepInstance = mod.create(process.env.CODE_A1_FLAGS ? process.env.CODE_A1_FLAGS.split(' ') : []);
  return { gpu: await Gpu.create(keepInstance), mode: 'robustness ON (CODE_A1_ROBUST=1, own Dawn instance)' };
}

/** Seconds per call of `record`, timed over as many calls as fit in ~TARGET_S, one submit, one sync. */
export async function timeKernel(gpu: Gpu, record: () => void, maxReps = 400): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < TRIES; i++) best = Math.min(best, await timeOnce(gpu, record, maxReps));
  return best;
}

async function timeOnce(gpu: Gpu, record: () => void, maxReps: number): Promise<number> {
  let t = performance.now();
  record();
  await gpu.sync();
  const once = (performance.now() - t) / 1000;
  if (once > TARGET_S) return once;
  const reps = Math.max(2, Math.min(maxReps, Math.ceil(TARGET_S / once)));
  t = performance.now();
  for (let i = 0; i < reps; i++) record();
  await gpu.sync();
  return (performance.now() - t) / 1000 / reps;
}

interface Row {
  shape: string;
  form: string;
  cells: string[];
}

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function printTable(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  console.log(head.map((h, i) => pad(h, widths[i])).join('  '));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(r.map((c, i) => pad(c, widths[i])).join('  '));
}

const FORMS = {
  'A·B': { transA: false, transB: false },
  'A·Bᵀ': { transA: false, transB: true },
  'Aᵀ·B': { transA: true, transB: false },
} as const;
type Form = keyof typeof FORMS;

// [M, N, K, form]. Model-like: x·Wᵀ forward (A·Bᵀ), dX = dY·W (A·B), dW = dYᵀ·X (Aᵀ·B) for d=128, ffn=512.
const CASES: [number, number, number, Form][] = [
  [256, 256, 256, 'A·B'],
  [512, 512, 512, 'A·B'],
  [1024, 1024, 1024, 'A·B'],
  [64, 128, 512, 'A·B'],
  [512, 128, 512, 'A·B'],
  [512, 512, 128, 'A·Bᵀ'],
  [64, 512, 128, 'A·Bᵀ'],
  [512, 512, 512, 'A·Bᵀ'],
  [512, 128, 512, 'Aᵀ·B'],
  [512, 512, 512, 'Aᵀ·B'],
];

const IMPLS = (process.env.BENCH_IMPLS ?? 'fast,tiled,naive').split(',') as ('fast' | 'tiled' | 'naive')[];
const TM = process.env.BENCH_TM ? (Number(process.env.BENCH_TM) as 1 | 2 | 4 | 8) : undefined;
const WG = process.env.BENCH_WG ? (process.env.BENCH_WG.split('x').map(Number) as [number, number]) : undefined;

async function benchMatmul(gpu: Gpu): Promise<{ rows: Row[]; fast512: number; naive512: number }> {
  const rng = mulberry32(1234);
  const rows: Row[] = [];
  let fast512 = 0;
  let naive512 = 0;
  for (const [M, N, K, form] of CASES) {
    if (ONLY && !`${M}x${N}x${K} ${form}`.includes(ONLY)) continue;
    const a = gpu.buffer('bench.a', randomF32(M * K, rng));
    const b = gpu.buffer('bench.b', randomF32(K * N, rng));
    const c = gpu.buffer('bench.c', M * N * 4);
    const flops = 2 * M * N * K;
    const base: MatmulArgs = { a, b, c, M, N, K, ...FORMS[form] };
    const gflops: Record<string, number> = {};
    for (const impl of IMPLS) {
      // Compile the pipeline on a tiny shape first (shapes are uniforms), so big naive runs are timed once only.
      matmul(gpu, { ...base, M: 4, N: 4, K: 4, impl });
      await gpu.sync();
      const tune = impl === 'fast' ? { tm: TM, wg: WG } : {};
      const s = await timeKernel(gpu, () => matmul(gpu, { ...base, impl, ...tune }));
      gflops[impl] = flops / s / 1e9;
    }
    for (const impl of ['fast', 'tiled', 'naive'] as const) gflops[impl] ??= NaN;
    if (M === 512 && N === 512 && K === 512 && form === 'A·B') {
      fast512 = gflops.fast;
      naive512 = gflops.naive;
    }
    rows.push({
      shape: `${M}x${N}x${K}`,
      form,
      cells: [gflops.fast.toFixed(2), gflops.naive.toFixed(2), `${(gflops.fast / gflops.naive).toFixed(1)}x`, gflops.tiled.toFixed(2)],
    });
    [a, b, c].forEach((x) => x.destroy());
  }
  return { rows, fast512, naive512 };
}

// Decode-like x·Wᵀ: [N = out, K = in] of the tiny preset's LM head and the small preset's MLP, at batch M.
const QCASES: [number, number][] = [
  [1024, 128],
  [2048, 768],
];

async function benchQuant(gpu: Gpu): Promise<string[][]> {
  const rng = mulberry32(99);
  const rows: string[][] = [];
  for (const [N, K] of QCASES) {
    const wf = randomF32(N * K, rng, 0.1);
    const gw = gpu.buffer('bench.w', wf);
    const qs = QUANT_FORMATS.map((f) => uploadQuantized(gpu, quantize(wf, N, K, f), `bench.${f}`));
    for (const M of [1, 16, 64]) {
      if (ONLY && !`${M}x${N}x${K} q`.includes(ONLY)) continue;
      const x = gpu.buffer('bench.x', randomF32(M * K, rng));
      const y = gpu.buffer('bench.y', M * N * 4);
      const flops = 2 * M * N * K;
      const fp32 = await timeKernel(gpu, () => matmul(gpu, { a: x, b: gw, c: y, M, N, K, transB: true }));
      const cells = [`${M}x${N}x${K}`, (fp32 * 1e6).toFixed(0), (flops / fp32 / 1e9).toFixed(2)];
      for (const q of qs) {
        qmatmul(gpu, { x, w: q, y, M });
        const t = await timeKernel(gpu, () => qmatmul(gpu, { x, w: q, y, M }));
        cells.push(`${(t * 1e6).toFixed(0)} (${(fp32 / t).toFixed(2)}x)`);
      }
      rows.push(cells);
      [x, y].forEach((b) => b.destroy());
    }
    gw.destroy();
    qs.forEach((q) => [q.data, q.scales].forEach((b) => b.destroy()));
  }
  return rows;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const { gpu, mode } = await acquire();
  console.log(`adapter: ${gpu.summary.vendor} ${gpu.summary.architecture} ${gpu.summary.description}; ${mode}`);
  const mm = await benchMatmul(gpu);
  console.log('\nfp32 matmul (M x N x K, GFLOP/s; fast = vec4 register tiles, tiled = workgroup memory)');
  printTable(
    ['shape', 'form', 'fast', 'naive', 'fast/naive', 'tiled'],
    mm.rows.map((r) => [r.shape, r.form, ...r.cells]),
  );
  if (process.env.BENCH_SKIP_QUANT !== '1') {
    console.log('\nquantized x·Wᵀ vs fp32 A·Bᵀ (M x out x in; µs per call, speed-up over fp32 in brackets)');
    printTable(['shape', 'fp32 µs', 'fp32 GFLOP/s', ...QUANT_FORMATS], await benchQuant(gpu));
  }
  const ratio = mm.fast512 / mm.naive512;
  const met = mm.fast512 >= 2 && ratio >= 5;
  console.log(
    `\ntargets (512³ A·B: fast >= 2 GFLOP/s and >= 5x naive): ${met ? 'MET' : 'NOT MET'} ` +
      `(fast ${mm.fast512.toFixed(2)} GFLOP/s, ${ratio.toFixed(1)}x naive); total ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  gpu.destroy();
}

await main();
process.exit(0);
