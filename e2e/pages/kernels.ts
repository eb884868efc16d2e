// Browser-side kernel checks for e2e/kernels.spec.ts: runs kernels on navigator.gpu against their CPU references
// (and a tokenizer train/roundtrip), the f16 Linear (native where the adapter has 'shader-f16') against its CPU
// emulation, and a walk compiling every pipeline a micro lab uses, all on a device capped at the lab's stated limits
// (src/run/lab-limits.ts). Bundled by the spec with Vite's build API.
import { createBrowserGpu } from '../../src/gpu/browser';
import type { Gpu } from '../../src/gpu/runtime';
import { elementwise, elementwiseRef } from '../../src/gpu/kernels/elementwise';
import {
  embeddingBackward,
  embeddingBackwardRef,
  embeddingForward,
  embeddingForwardRef,
} from '../../src/gpu/kernels/embedding';
import { rmsnormBackward, rmsnormBackwardRef, rmsnormForward, rmsnormForwardRef } from '../../src/gpu/kernels/rmsnorm';
import {
  createRopeTable,
  ropeBackward,
  ropeBackwardRef,
  ropeForward,
  ropeForwardRef,
} from '../../src/gpu/kernels/rope';
import { swigluBackward, swigluBackwardRef, swigluForward, swigluForwardRef } from '../../src/gpu/kernels/swiglu';
import { GRADNORM_OUT, GRADNORM_OUT_BYTES, gradNorm, gradNormRef } from '../../src/gpu/kernels/gradnorm';
import { adamwStep, adamwStepRef, zeroBuffer } from '../../src/gpu/kernels/adamw';
import { trainTokenizer } from '../../src/model/tokenizer-train';
import { loadTokenizer } from '../../src/model/tokenizer';
import { maxAbsDiff, mulberry32, randomF32 } from '../../src/testing/random';
import { fromHalves, toHalves } from '../../src/gpu/f16';
import { linearF16, linearF16Ref, uploadF16Matrix, type F16Variant } from '../../src/gpu/kernels/linear-f16';
import { f16BoundViolation, ulp16 } from '../../src/gpu/kernels/linear-f16-bound';
import type { PipelineVerdict } from '../../src/gpu/pipelines';
import { loadCheckpoint } from '../../src/model/checkpoint';
import { presetConfig } from '../../src/rl/config';
import { labLimits } from '../../src/run/lab-limits';
import { walkLabPipelines } from '../../src/run/pipeline-walk';
import { trainingKernelChecks, type CheckResult } from './kernels-train';

export interface KernelPageResult {
  adapter: string;
  features: string[];
  /** The device's limits as created (capped at the micro lab's needs). */
  limits: Record<string, number>;
  /** Storage buffers per stage on a device with the adapter's own limits, where the training checks ran again. */
  ownStorageBuffers: number;
  results: CheckResult[];
  pipelines: PipelineVerdict[];
}

type Check = (gpu: Gpu, rng: () => number) => Promise<CheckResult[]>;

const checks: Check[] = [
  async (gpu, rng) => {
    const n = 1029;
    const a = randomF32(n, rng, 3);
    const b = randomF32(n, rng, 3);
    const out = gpu.buffer('out', n * 4);
    elementwise(gpu, 'silu', out, gpu.buffer('a', a), gpu.buffer('b', b), n);
    return [
      {
        name: 'elementwise silu',
        diff: maxAbsDiff(await gpu.readF32(out, n), elementwiseRef('silu', a, b)),
        tol: 1e-5,
      },
    ];
  },
  async (gpu, rng) => {
    const [T, V, D] = [301, 23, 19];
    const table = randomF32(V * D, rng);
    const ids = Uint32Array.from({ length: T }, () => Math.floor(rng() * V));
    const dOut = randomF32(T * D, rng);
    const dTable0 = randomF32(V * D, rng);
    const gi = gpu.buffer('ids', ids);
    const out = gpu.buffer('out', T * D * 4);
    const dTable = gpu.buffer('dTable', dTable0);
    embeddingForward(gpu, out, gpu.buffer('table', table), gi, T, D, V);
    embeddingBackward(gpu, dTable, gpu.buffer('dOut', dOut), gi, T, D, V);
    return [
      {
        name: 'embedding forward',
        diff: maxAbsDiff(await gpu.readF32(out, T * D), embeddingForwardRef(table, ids, D)),
        tol: 0,
      },
      {
        name: 'embedding backward',
        diff: maxAbsDiff(
          await gpu.readF32(dTable, V * D),
          embeddingBackwardRef(new Float64Array(dTable0), dOut, ids, D),
        ),
        tol: 1e-4,
      },
    ];
  },
  async (gpu, rng) => {
    const [T, D, eps] = [70, 131, 1e-6];
    const x = randomF32(T * D, rng, 2);
    const w = randomF32(D, rng);
    const dy = randomF32(T * D, rng);
    const dw0 = randomF32(D, rng);
    const [gx, gw] = [gpu.buffer('x', x), gpu.buffer('w', w)];
    const [gy, gr, gdx, gdw] = [
      gpu.buffer('y', T * D * 4),
      gpu.buffer('rstd', T * 4),
      gpu.buffer('dx', T * D * 4),
      gpu.buffer('dw', dw0),
    ];
    rmsnormForward(gpu, gy, gr, gx, gw, T, D, eps);
    rmsnormBackward(gpu, gdx, gdw, gpu.buffer('dy', dy), gx, gw, gr, T, D);
    const dwWant = new Float64Array(dw0);
    const dxWant = rmsnormBackwardRef(dwWant, dy, x, w, T, D, eps);
    return [
      {
        name: 'rmsnorm forward',
        diff: maxAbsDiff(await gpu.readF32(gy, T * D), rmsnormForwardRef(x, w, T, D, eps).y),
        tol: 1e-4,
      },
      { name: 'rmsnorm backward dx', diff: maxAbsDiff(await gpu.readF32(gdx, T * D), dxWant), tol: 1e-4 },
      { name: 'rmsnorm backward dw', diff: maxAbsDiff(await gpu.readF32(gdw, D), dwWant), tol: 1e-3 },
    ];
  },
  async (gpu, rng) => {
    const [T, H, Dh, theta] = [19, 3, 32, 1e6];
    const table = createRopeTable(gpu, Dh, theta, 1024);
    const x = randomF32(T * H * Dh, rng);
    const pos = Uint32Array.from({ length: T }, () => Math.floor(rng() * 1024));
    const [gx, gp] = [gpu.buffer('x', x), gpu.buffer('pos', pos)];
    const [gy, gdx] = [gpu.buffer('y', x.length * 4), gpu.buffer('dx', x.length * 4)];
    ropeForward(gpu, gy, gx, gp, table, T, H);
    ropeBackward(gpu, gdx, gx, gp, table, T, H);
    return [
      {
        name: 'rope forward',
        diff: maxAbsDiff(await gpu.readF32(gy, x.length), ropeForwardRef(x, pos, H, Dh, theta)),
        tol: 1e-5,
      },
      {
        name: 'rope backward',
        diff: maxAbsDiff(await gpu.readF32(gdx, x.length), ropeBackwardRef(x, pos, H, Dh, theta)),
        tol: 1e-5,
      },
    ];
  },
  async (gpu, rng) => {
    const n = 7 * 131;
    const [gate, up, dh] = [randomF32(n, rng, 4), randomF32(n, rng), randomF32(n, rng)];
    const [gg, gu] = [gpu.buffer('gate', gate), gpu.buffer('up', up)];
    const [h, dg, du] = [gpu.buffer('h', n * 4), gpu.buffer('dgate', n * 4), gpu.buffer('dup', n * 4)];
    swigluForward(gpu, h, gg, gu, n);
    swigluBackward(gpu, dg, du, gpu.buffer('dh', dh), gg, gu, n);
    const want = swigluBackwardRef(dh, gate, up);
    return [
      { name: 'swiglu forward', diff: maxAbsDiff(await gpu.readF32(h, n), swigluForwardRef(gate, up)), tol: 1e-5 },
      { name: 'swiglu backward dgate', diff: maxAbsDiff(await gpu.readF32(dg, n), want.dgate), tol: 1e-5 },
      { name: 'swiglu backward dup', diff: maxAbsDiff(await gpu.readF32(du, n), want.dup), tol: 1e-5 },
    ];
  },
  async (gpu, rng) => {
    const n = 40_003;
    const cfg = { lr: 1e-2, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1 };
    const p0 = randomF32(n, rng);
    const g = randomF32(n, rng);
    const [gp, gm, gv, gg] = [gpu.buffer('p', p0), gpu.buffer('m', n * 4), gpu.buffer('v', n * 4), gpu.buffer('g', g)];
    const out = gpu.buffer('gradnorm.out', GRADNORM_OUT_BYTES);
    zeroBuffer(gpu, gm, n);
    zeroBuffer(gpu, gv, n);
    const maxNorm = 10;
    gradNorm(gpu, out, gg, n, maxNorm);
    adamwStep(gpu, gp, gm, gv, gg, out, n, cfg, 1);
    const want = gradNormRef(g, maxNorm);
    const [p, m, v] = [new Float64Array(p0), new Float64Array(n), new Float64Array(n)];
    adamwStepRef(p, m, v, g, want.clip, cfg, 1);
    const got = await gpu.readF32(out, 4);
    return [
      { name: 'gradnorm (relative)', diff: Math.abs(got[GRADNORM_OUT.norm] - want.norm) / want.norm, tol: 1e-5 },
      { name: 'adamw params', diff: maxAbsDiff(await gpu.readF32(gp, n), p), tol: 1e-5 },
    ];
  },
];

/** Tokenizer in the browser: train a small vocabulary and roundtrip code with unicode (diff 0 = exact). */
function tokenizerCheck(): CheckResult {
  const code = 'def f(x):\n    return [y * 2 for y in x]  # → ok 世界\n\tpass\n';
  const json = trainTokenizer(
    Array.from({ length: 50 }, (_, i) => code.replace('f', `f${i}`)),
    { vocabSize: 300 },
  );
  const tok = loadTokenizer(JSON.stringify(json));
  const ids = tok.encode(code);
  const ok = tok.decode(ids) === code && ids.length < code.length && tok.encode('<|coder|>')[0] === 2;
  return { name: 'tokenizer train + roundtrip', diff: ok ? 0 : 1, tol: 0 };
}

/**
 * The f16 Linear against its float64 emulation: 'packed' (core WGSL) everywhere, 'native' (`enable f16`) where the
 * device has 'shader-f16'. diff = the worst excess over the proven bound (linear-f16-bound.ts), so tol is 0.
 */
async function f16Checks(gpu: Gpu, rng: () => number): Promise<CheckResult[]> {
  const variants: F16Variant[] = gpu.hasF16 ? ['packed', 'native'] : ['packed'];
  const shapes: [number, number, number][] = [
    [1, 13, 45],
    [8, 37, 30],
    [19, 64, 100],
  ];
  const out: CheckResult[] = [];
  for (const variant of variants) {
    let worst = -Infinity;
    let maxAbs = 0;
    let maxUlps = 0;
    let same = 0;
    let total = 0;
    for (const [M, N, K] of shapes) {
      const x = randomF32(M * K, rng, 2);
      const w = randomF32(N * K, rng, 0.5);
      const wv = fromHalves(toHalves(w));
      const bias = randomF32(N, rng);
      const gx = gpu.buffer('f16.x', x);
      const gw = uploadF16Matrix(gpu, w, N, K, 'f16.w');
      const gb = gpu.buffer('f16.b', bias);
      const gy = gpu.buffer('f16.y', M * N * 4);
      linearF16(gpu, { x: gx, w: gw, y: gy, M, bias: gb, variant });
      const got = await gpu.readF32(gy, M * N);
      const want = linearF16Ref(x, wv, M, N, K, bias);
      worst = Math.max(worst, f16BoundViolation(got, want, want, x, wv, M, N, K, false, bias));
      for (let i = 0; i < got.length; i++) {
        const d = Math.abs(got[i] - want[i]);
        maxAbs = Math.max(maxAbs, d);
        maxUlps = Math.max(maxUlps, d / ulp16(want[i]));
        if (d === 0) same++;
      }
      total += got.length;
      [gx, gw.buffer, gb, gy].forEach((b) => b.destroy());
    }
    out.push({
      name: `linear_f16 ${variant} vs emulation (bound violation)`,
      diff: Math.max(worst, 0),
      tol: 0,
      note: `max |gpu − emulation| ${maxAbs.toExponential(2)} = ${maxUlps.toFixed(2)} f16 ulp; ${same}/${total} outputs equal`,
    });
  }
  return out;
}

/** The micro preset's coder checkpoint, served by the spec's test server under /models/ (the lab's public/). */
async function microCheckpoint() {
  const dir = `/models/${presetConfig('micro').model.coderCheckpoint.replace(/^models\//, '')}`;
  const get = async (f: string) => {
    const r = await fetch(`${dir}/${f}`);
    if (!r.ok) throw new Error(`${dir}/${f}: HTTP ${r.status}`);
    return r;
  };
  return loadCheckpoint({
    weights: await (await get('model.safetensors')).arrayBuffer(),
    config: await (await get('config.json')).text(),
    tokenizerJson: await (await get('tokenizer.json')).text(),
  });
}

async function run(seed: number): Promise<KernelPageResult> {
  const ck = await microCheckpoint();
  const needs = labLimits(ck.layout.totalFloats);
  // The device a smallest adapter able to run the micro lab would give (WebGPU never grants below its defaults).
  const gpu = await createBrowserGpu({
    limitCaps: {
      maxStorageBuffersPerShaderStage: needs.maxStorageBuffersPerShaderStage,
      maxComputeInvocationsPerWorkgroup: needs.maxComputeInvocationsPerWorkgroup,
      maxComputeWorkgroupStorageSize: needs.maxComputeWorkgroupStorageSize,
      maxComputeWorkgroupSizeX: 256,
      maxComputeWorkgroupSizeY: 256,
      maxComputeWorkgroupSizeZ: 64,
    },
  });
  const rng = mulberry32(seed);
  const results: CheckResult[] = [];
  for (const check of checks) results.push(...(await check(gpu, rng)));
  results.push(...(await trainingKernelChecks(gpu, rng)));
  results.push(...(await f16Checks(gpu, rng)));
  results.push(tokenizerCheck());
  const pipelines = await walkLabPipelines(gpu, presetConfig('micro', { seed }), ck);
  const lim = gpu.device.limits;
  const limits = {
    maxStorageBuffersPerShaderStage: lim.maxStorageBuffersPerShaderStage,
    maxComputeInvocationsPerWorkgroup: lim.maxComputeInvocationsPerWorkgroup,
    maxComputeWorkgroupStorageSize: lim.maxComputeWorkgroupStorageSize,
  };
  const s = gpu.summary;
  const adapter = [s.vendor, s.architecture, s.description].filter((x) => x && x !== 'unknown').join(' ') || '(hidden)';
  const features = [...gpu.device.features].map(String).sort();
  gpu.destroy();
  // Again with the adapter's own limits: where it offers 9 or more storage buffers per stage (real GPUs, Chrome on
  // Metal) the training kernels run their 9-buffer form, so each browser's compiler checks both forms.
  const own = await createBrowserGpu();
  const ownStorageBuffers = own.device.limits.maxStorageBuffersPerShaderStage;
  results.push(...(await trainingKernelChecks(own, rng)));
  own.destroy();
  return { adapter, features, limits, ownStorageBuffers, results, pipelines };
}

(globalThis as unknown as { kernelChecks: typeof run }).kernelChecks = run;
