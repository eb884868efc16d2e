// Browser-side kernel checks for e2e/kernels.spec.ts: runs kernels on navigator.gpu against their CPU references
// (and a tokenizer train/roundtrip) and returns one record per check. Bundled by the spec with Vite's build API.
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

export interface CheckResult {
  name: string;
  diff: number;
  tol: number;
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

async function run(seed: number): Promise<CheckResult[]> {
  const gpu = await createBrowserGpu();
  const rng = mulberry32(seed);
  const results: CheckResult[] = [];
  for (const check of checks) results.push(...(await check(gpu, rng)));
  results.push(tokenizerCheck());
  gpu.destroy();
  return results;
}

(globalThis as unknown as { kernelChecks: typeof run }).kernelChecks = run;
