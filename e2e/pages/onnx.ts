// Browser page for e2e/onnx.spec.ts and `npm run bench:onnx`-style runs: exports lab models to ONNX in the page,
// runs them on onnxruntime-web's webgpu and wasm EPs, and compares logits / speed with our engine's WebGPU forward.
// Bundled by e2e/pages/onnx-bundle.ts with onnxruntime-web aliased to its extern-wasm build (the .wasm and its
// loader are served by the caller under `ortBase`).
import * as ort from 'onnxruntime-web';
import { createBrowserGpu } from '../../src/gpu/browser';
import type { Gpu } from '../../src/gpu/runtime';
import { preset, type PresetName } from '../../src/model/config';
import { loadCheckpoint, saveCheckpoint } from '../../src/model/checkpoint';
import { destroyBatch, uploadBatch } from '../../src/model/forward-batch';
import { computeLogits } from '../../src/model/forward-logprobs';
import { initParams } from '../../src/model/init';
import { buildLayout, type Layout } from '../../src/model/layout';
import { GpuModel } from '../../src/model/model';
import { fp32Weights } from '../../src/model/decode-weights';
import { generate, type GenerateStats } from '../../src/model/sampler';
import { exportOnnx, ONNX_IR_VERSION, ONNX_OPSET, type OnnxQuant } from '../../src/model/onnx';
import { GraphBuilder } from '../../src/model/onnx/graph';
import { DT } from '../../src/model/onnx/schema';
import { createOrtSession, emptyKv, ortKvStep, ortLogits } from '../../src/model/onnx/ort-run';
import { maxRelDiff, mulberry32 } from '../../src/testing/random';

export type Ep = 'wasm' | 'webgpu';

export interface OnnxCheck {
  name: string;
  diff: number;
  tol: number;
}

export interface OnnxBenchRow {
  backend: string;
  tokensPerSec: number;
  msPerBatch: number;
  gflops: number;
}

let gpuPromise: Promise<Gpu> | undefined;
const gpu = () => (gpuPromise ??= createBrowserGpu());

function setup(ortBase: string, threads: number): void {
  ort.env.wasm.wasmPaths = ortBase;
  ort.env.wasm.numThreads = threads;
  ort.env.logLevel = 'error';
}

function makeCase(name: PresetName, seed: number, B: number, S: number) {
  const layout = buildLayout(preset(name));
  const params = initParams(layout, seed, { std: 0.1, biasStd: 0.05, normJitter: 0.1 });
  const rng = mulberry32(seed + 1);
  const tokens = Int32Array.from({ length: B * S }, () => Math.floor(rng() * layout.config.vocabSize));
  return { layout, params, tokens };
}

async function engineLogits(
  layout: Layout,
  params: Float32Array,
  tokens: Int32Array,
  B: number,
  S: number,
): Promise<Float32Array> {
  const g = await gpu();
  const model = new GpuModel(g, layout, params, 'onnx-page');
  const batch = uploadBatch(g, { batch: B, seqLen: S, tokens });
  const out = await computeLogits(model, batch);
  destroyBatch(batch);
  return out;
}

function dequantized(layout: Layout, params: Float32Array, quant: OnnxQuant): Float32Array {
  const files = saveCheckpoint(layout, params, { quant });
  return loadCheckpoint({ weights: files['model.safetensors'], config: files['config.json'] }).params;
}

/** Logits of exported micro and tiny models on both EPs vs our WebGPU forward (fp32, int8-row), and the KV form. */
async function onnxChecks(seed: number, ortBase: string, eps: Ep[] = ['wasm', 'webgpu']): Promise<OnnxCheck[]> {
  setup(ortBase, 1);
  const out: OnnxCheck[] = [];
  const [B, S] = [2, 12];
  for (const name of ['micro', 'tiny'] as const) {
    const t0 = performance.now();
    const { layout, params, tokens } = makeCase(name, seed, B, S);
    const want = await engineLogits(layout, params, tokens, B, S);
    const deq = dequantized(layout, params, 'int8-row');
    const wantDeq = await engineLogits(layout, deq, tokens, B, S);
    const fp32 = exportOnnx(params, layout);
    const int8 = exportOnnx(params, layout, { quant: 'int8-row' });
    console.log(`${name} engine + export: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    for (const ep of eps) {
      const t0 = performance.now();
      const s32 = await createOrtSession(fp32, ep);
      out.push({
        name: `${name} fp32 ${ep} vs engine`,
        diff: maxRelDiff(await ortLogits(s32, tokens, B, S), want),
        tol: 1e-4,
      });
      await s32.release();
      const s8 = await createOrtSession(int8, ep);
      const got8 = await ortLogits(s8, tokens, B, S);
      out.push({
        name: `${name} int8-row ${ep} vs engine on dequantized weights`,
        diff: maxRelDiff(got8, wantDeq),
        tol: 1e-4,
      });
      // Stated int8 tolerance: rounding each weight to max|row|/127 moves these random-weight logits by ~1 % (micro)
      // to ~4.5 % (tiny, 4 layers) of their range; 10 % leaves room across seeds.
      out.push({
        name: `${name} int8-row ${ep} vs engine fp32 (stated tolerance)`,
        diff: maxRelDiff(got8, want),
        tol: 0.1,
      });
      await s8.release();
      console.log(`${name} ${ep}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
  }
  // KV form with attention_mask + position_ids (what the UI's Download ONNX exports): a batch of 2 with row 1
  // left-padded by 3, prefill 8 then 4 single-token steps, vs our engine given the same validity and positions.
  const kvCase = makeCase('micro', seed + 7, 2, S);
  const c = kvCase.layout.config;
  const V = c.vocabSize;
  const kvValid = Int32Array.from({ length: 2 * S }, (_, i) => (i >= S && i < S + 3 ? 0 : 1));
  const kvPos = Int32Array.from({ length: 2 * S }, (_, i) => (i < S ? i : Math.max(0, i - S - 3)));
  const kvModel = new GpuModel(await gpu(), kvCase.layout, kvCase.params, 'onnx-page-kv');
  const kvBatch = uploadBatch(await gpu(), {
    batch: 2,
    seqLen: S,
    tokens: kvCase.tokens,
    valid: kvValid,
    positions: kvPos,
  });
  const kvWant = await computeLogits(kvModel, kvBatch);
  destroyBatch(kvBatch);
  const kvReal = (a: Float32Array) => a.filter((_, i) => kvValid[Math.floor(i / V)] === 1);
  const cols = (a: Int32Array, lo: number, hi: number) => {
    const o = new Int32Array(2 * (hi - lo));
    for (let b = 0; b < 2; b++) o.set(a.subarray(b * S + lo, b * S + hi), b * (hi - lo));
    return o;
  };
  const kvBytes = exportOnnx(kvCase.params, kvCase.layout, { kvCache: true, attentionMask: true });
  for (const ep of eps) {
    const kv = await createOrtSession(kvBytes, ep);
    let state = emptyKv(c, 2);
    const got = new Float32Array(2 * S * V);
    for (const [lo, hi] of [
      [0, 8],
      [8, 9],
      [9, 10],
      [10, 11],
      [11, 12],
    ]) {
      const n = hi - lo;
      const pad = { attentionMask: cols(kvValid, 0, hi), positionIds: cols(kvPos, lo, hi) };
      const step = await ortKvStep(kv, c, state, cols(kvCase.tokens, lo, hi), 2, n, pad);
      state = step.state;
      for (let b = 0; b < 2; b++) got.set(step.logits.subarray(b * n * V, (b + 1) * n * V), (b * S + lo) * V);
    }
    out.push({
      name: `micro KV form + attention_mask ${ep} (left pad 3; prefill 8 + 4 steps) vs engine on real tokens`,
      diff: maxRelDiff(kvReal(got), kvReal(kvWant)),
      tol: 1e-4,
    });
    await kv.release();
  }
  // attention_mask / position_ids: a left-padded batch vs our engine given the same validity and positions.
  const padded = makeCase('micro', seed + 9, 2, S);
  const valid = Int32Array.from({ length: 2 * S }, (_, i) => (i >= S && i < S + 4 ? 0 : 1));
  const positions = Int32Array.from({ length: 2 * S }, (_, i) => (i < S ? i : Math.max(0, i - S - 4)));
  const g = await gpu();
  const pm = new GpuModel(g, padded.layout, padded.params, 'onnx-page-pad');
  const pb = uploadBatch(g, { batch: 2, seqLen: S, tokens: padded.tokens, valid, positions });
  const padWant = await computeLogits(pm, pb);
  destroyBatch(pb);
  const real = (a: Float32Array) => a.filter((_, i) => valid[Math.floor(i / V)] === 1);
  const padBytes = exportOnnx(padded.params, padded.layout, { attentionMask: true });
  for (const ep of eps) {
    const s = await createOrtSession(padBytes, ep);
    const got = await ortLogits(s, padded.tokens, 2, S, { attentionMask: valid, positionIds: positions });
    out.push({
      name: `micro attention_mask (left pad 4) ${ep} vs engine on real tokens`,
      diff: maxRelDiff(real(got), real(padWant)),
      tol: 1e-4,
    });
    await s.release();
  }
  return out;
}

/** Forward FLOPs per token at sequence length S (matmuls only: 2 per weight, plus q·kᵀ and p·v over ~S/2 keys). */
export function flopsPerToken(layout: Layout, S: number): number {
  const c = layout.config;
  const perLayer =
    2 *
    (c.hidden * (c.heads + 2 * c.kvHeads) * c.headDim + c.heads * c.headDim * c.hidden + 3 * c.hidden * c.intermediate);
  return c.layers * (perLayer + 2 * 2 * c.heads * c.headDim * ((S + 1) / 2)) + 2 * c.hidden * c.vocabSize;
}

async function timeIt(iters: number, fn: () => Promise<unknown>): Promise<number> {
  await fn(); // warm-up: shader compilation, session first run
  const t = performance.now();
  for (let i = 0; i < iters; i++) await fn();
  return (performance.now() - t) / iters;
}

/** Full-sequence forward (prefill) speed, logits read back to the host, for our engine and both ORT EPs. */
export async function onnxBench(opts: {
  preset: PresetName;
  B: number;
  S: number;
  iters: number;
  threads: number;
  ortBase: string;
  eps?: Ep[];
}): Promise<OnnxBenchRow[]> {
  setup(opts.ortBase, opts.threads);
  const { B, S, iters } = opts;
  const { layout, params, tokens } = makeCase(opts.preset, 1, B, S);
  const flops = flopsPerToken(layout, S) * B * S;
  const row = (backend: string, ms: number): OnnxBenchRow => ({
    backend,
    msPerBatch: ms,
    tokensPerSec: (B * S * 1000) / ms,
    gflops: flops / ms / 1e6,
  });
  const rows: OnnxBenchRow[] = [];
  const g = await gpu();
  const model = new GpuModel(g, layout, params, 'onnx-bench');
  const batch = uploadBatch(g, { batch: B, seqLen: S, tokens });
  rows.push(row('ours (WebGPU)', await timeIt(iters, () => computeLogits(model, batch))));
  destroyBatch(batch);
  const bytes = exportOnnx(params, layout);
  for (const ep of opts.eps ?? ['webgpu', 'wasm']) {
    const s = await createOrtSession(bytes, ep);
    rows.push(
      row(
        `onnxruntime-web ${ep}${ep === 'wasm' ? ` (${opts.threads} thread${opts.threads > 1 ? 's' : ''})` : ''}`,
        await timeIt(iters, () => ortLogits(s, tokens, B, S)),
      ),
    );
    await s.release();
  }
  return rows;
}

/**
 * Decode speed with a KV cache: our generate() (sampling on the GPU, read-back every 8 tokens) vs the exported KV
 * form on each EP (one session.run per token, greedy argmax on the host from the returned logits — how ORT is used
 * without IO binding). tokensPerSec counts decode steps after the prefill, summed over the batch.
 */
export async function onnxDecodeBench(opts: {
  preset: PresetName;
  B: number;
  prompt: number;
  newTokens: number;
  threads: number;
  ortBase: string;
  eps?: Ep[];
}): Promise<OnnxBenchRow[]> {
  setup(opts.ortBase, opts.threads);
  const { B, prompt, newTokens } = opts;
  const { layout, params, tokens } = makeCase(opts.preset, 2, B, prompt);
  const c = layout.config;
  const V = c.vocabSize;
  const perToken = (S: number) => flopsPerToken(layout, S);
  const flops = B * (newTokens - 1) * perToken(2 * (prompt + newTokens / 2) - 1); // attention over ~prompt + n/2 keys
  const row = (backend: string, ms: number): OnnxBenchRow => ({
    backend,
    msPerBatch: ms / (newTokens - 1),
    tokensPerSec: (B * (newTokens - 1) * 1000) / ms,
    gflops: flops / ms / 1e6,
  });
  const rows: OnnxBenchRow[] = [];
  const prompts = Array.from({ length: B }, (_, b) => Array.from(tokens.subarray(b * prompt, (b + 1) * prompt)));
  const model = new GpuModel(await gpu(), layout, params, 'onnx-decode');
  const w = fp32Weights(model);
  const gen = { temperature: 1, seed: 3, stopTokenIds: [] as number[] };
  await generate(w, prompts, { ...gen, maxNewTokens: 2 }); // compile
  const stats: GenerateStats = { prefillMs: 0, decodeMs: 0, steps: 0, readbacks: 0 };
  await generate(w, prompts, { ...gen, maxNewTokens: newTokens, stats });
  rows.push({
    ...row('ours (WebGPU, sampling on GPU)', stats.decodeMs),
    tokensPerSec: (B * (stats.steps - 1) * 1000) / stats.decodeMs,
  });
  const bytes = exportOnnx(params, layout, { kvCache: true });
  for (const ep of opts.eps ?? ['webgpu', 'wasm']) {
    const s = await createOrtSession(bytes, ep);
    const run = async (steps: number) => {
      let { logits, state } = await ortKvStep(s, c, emptyKv(c, B), tokens, B, prompt);
      let last = prompt;
      const t = performance.now();
      for (let i = 1; i < steps; i++) {
        const next = new Int32Array(B);
        for (let b = 0; b < B; b++) {
          const off = (b * last + last - 1) * V;
          let best = 0;
          for (let v = 1; v < V; v++) if (logits[off + v] > logits[off + best]) best = v;
          next[b] = best;
        }
        ({ logits, state } = await ortKvStep(s, c, state, next, B, 1));
        last = 1;
      }
      return performance.now() - t;
    };
    await run(2); // warm-up
    const threads = globalThis.crossOriginIsolated ? opts.threads : 1;
    rows.push(
      row(
        `onnxruntime-web ${ep}${ep === 'wasm' ? ` (${threads} thread${threads > 1 ? 's' : ''})` : ''}, KV form`,
        await run(newTokens),
      ),
    );
    await s.release();
  }
  return rows;
}

/** One [n, n] × [n, n] MatMul per EP: the raw GFLOP/s each EP reaches here, to read the model rows against. */
export async function onnxMatmulProbe(opts: {
  n: number;
  iters: number;
  threads: number;
  ortBase: string;
}): Promise<OnnxBenchRow[]> {
  setup(opts.ortBase, opts.threads);
  const { n } = opts;
  const rng = mulberry32(3);
  const g = new GraphBuilder();
  const a = g.input('a', DT.FLOAT, [n, n]);
  const b = g.init(
    'b',
    DT.FLOAT,
    [n, n],
    Float32Array.from({ length: n * n }, () => rng() - 0.5),
  );
  g.output(g.op('MatMul', [a, b], {}, 'c'), DT.FLOAT, [n, n]);
  const bytes = g.encode({ name: 'matmul_probe', opset: ONNX_OPSET, irVersion: ONNX_IR_VERSION });
  const input = new ort.Tensor(
    'float32',
    Float32Array.from({ length: n * n }, () => rng() - 0.5),
    [n, n],
  );
  const rows: OnnxBenchRow[] = [];
  for (const ep of ['webgpu', 'wasm'] as const) {
    const s = await createOrtSession(bytes, ep);
    const ms = await timeIt(opts.iters, async () => {
      const out = await s.run({ a: input });
      await out.c.getData();
      out.c.dispose();
    });
    rows.push({
      backend: `onnxruntime-web ${ep} MatMul ${n}³`,
      msPerBatch: ms,
      tokensPerSec: 0,
      gflops: (2 * n ** 3) / ms / 1e6,
    });
    await s.release();
  }
  return rows;
}

/**
 * Verbose session log of an int8-row micro model on the webgpu EP with graph optimisations off (so DequantizeLinear is
 * not constant-folded away): ORT prints "Node placements", which the spec parses to prove the webgpu EP (JSEP)
 * really runs DequantizeLinear, MatMul and Softmax, and only shape bookkeeping falls back to the CPU. The log goes to
 * the page console (ORT's own logger), which the spec collects.
 */
async function onnxPlacement(ortBase: string): Promise<void> {
  setup(ortBase, 1);
  try {
    ort.env.logLevel = 'verbose';
    const layout = buildLayout(preset('micro'));
    const bytes = exportOnnx(initParams(layout, 1), layout, { quant: 'int8-row' });
    const s = await ort.InferenceSession.create(bytes, {
      executionProviders: ['webgpu'],
      graphOptimizationLevel: 'disabled',
      logSeverityLevel: 0,
      logVerbosityLevel: 0,
    });
    await ortLogits(s, [1, 2, 3], 1, 3);
    await s.release();
  } finally {
    ort.env.logLevel = 'error';
  }
}

Object.assign(globalThis, {
  onnxPlacement,
  onnxChecks,
  onnxBench,
  onnxDecodeBench,
  onnxMatmulProbe,
  onnxPageReady: true,
});
