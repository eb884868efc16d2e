// `npm run bench:engine -- --preset micro|tiny`: forward and training tokens/s, decode tokens/s at batch 1/16/64 for
// fp32, int8 and int4 rollout weights, a per-kernel-family GPU time table, and the int8/int4 rollout mismatch KL.
// Random weights (the engine's speed does not depend on them). Progress goes to stderr, tables to stdout.
import { sharedNodeGpu } from '../gpu/node';
import type { Gpu } from '../gpu/runtime';
import { parseArgs, intArg } from './args';
import { table } from './bench-util';
import { DEFAULT_ONNX_BENCH, printOnnxBench, runOnnxBench, type OnnxBenchOptions } from './bench-onnx';
import { preset, paramCount, type PresetName } from '../model/config';
import { buildLayout } from '../model/layout';
import { initParams } from '../model/init';
import { GpuModel } from '../model/model';
import { forward, releaseForward } from '../model/forward';
import { uploadBatch, destroyBatch, type GpuBatch } from '../model/forward-batch';
import { trainStep, DEFAULT_OPTIM } from '../model/backward-step';
import { fp32Weights, type DecodeWeights } from '../model/decode';
import { generate, type GenerateStats } from '../model/sampler';
import { RolloutWeights } from '../model/rollout-weights';
import { exactKl } from '../model/mismatch';
import { mulberry32 } from '../testing/random';

const HELP = `usage: npm run bench:engine -- [--preset micro|tiny] [--batch-tokens N] [--new N] [--prompt N] [--batches 1,16,64] [--top-p P] [--no-onnx]`;

const log = (s: string) => process.stderr.write(`[bench:engine ${((performance.now() - T0) / 1000).toFixed(1)}s] ${s}\n`);
const T0 = performance.now();

async function timed(gpu: Gpu, fn: () => Promise<unknown> | void): Promise<number> {
  const t = performance.now();
  await fn();
  await gpu.sync();
  return (performance.now() - t) / 1000;
}

function randomTokens(n: number, V: number, rng: () => number): number[] {
  return Array.from({ length: n }, () => 8 + Math.floor(rng() * (V - 8)));
}

function trainBatch(gpu: Gpu, B: number, S: number, V: number, rng: () => number): GpuBatch {
  const tokens = randomTokens(B * S, V, rng);
  const targets = tokens.map((_, i) => tokens[(i + 1) % tokens.length]);
  return uploadBatch(gpu, { batch: B, seqLen: S, tokens, targets, mask: new Float32Array(B * S).fill(1) }, 'bench.batch');
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), { preset: 'string', 'batch-tokens': 'string', new: 'string', prompt: 'string', batches: 'string', 'top-p': 'string', 'no-onnx': 'boolean', help: 'boolean' });
  if (args.help) {
    console.log(HELP);
    return;
  }
  const name = (args.preset ?? 'micro') as PresetName;
  if (name !== 'micro' && name !== 'tiny' && name !== 'small') throw new Error(`--preset must be micro, tiny or small\n${HELP}`);
  const config = preset(name);
  const layout = buildLayout(config);
  const V = config.vocabSize;
  const S = Math.min(config.maxSeqLen, name === 'micro' ? 64 : 128);
  const batchTokens = intArg(args, 'batch-tokens', 512);
  const B = Math.max(1, Math.floor(batchTokens / S));
  const promptLen = intArg(args, 'prompt', 16);
  const newTokens = intArg(args, 'new', name === 'micro' ? 32 : 16);
  const batches = (typeof args.batches === 'string' ? args.batches : '1,16,64').split(',').map(Number);
  const topP = typeof args['top-p'] === 'string' ? Number(args['top-p']) : 1;
  const gpu = await sharedNodeGpu();
  const rng = mulberry32(7);
  console.log(`adapter: ${gpu.summary.vendor} ${gpu.summary.architecture} ${gpu.summary.description}`);
  console.log(`preset ${name}: ${paramCount(config)} params, vocab ${V}, hidden ${config.hidden}, layers ${config.layers}, heads ${config.heads}/${config.kvHeads}, ffn ${config.intermediate}`);
  const model = new GpuModel(gpu, layout, initParams(layout, 1));

  // ---- forward and training -------------------------------------------------------------------------------
  log(`forward / training on [${B}, ${S}] (${B * S} tokens)`);
  const batch = trainBatch(gpu, B, S, V, rng);
  const fwdOnce = () => releaseForward(gpu, forward(model, batch, false));
  // One timed run after the compiling one on tiny (seconds each here); best of two on micro.
  const reps = name === 'micro' ? 2 : 1;
  const best = async (fn: () => Promise<unknown> | void) => {
    let t = Infinity;
    for (let i = 0; i < reps; i++) t = Math.min(t, await timed(gpu, fn));
    return t;
  };
  await timed(gpu, fwdOnce); // compile
  const fwdS = await best(fwdOnce);
  log(`forward ${(fwdS * 1000).toFixed(0)} ms`);
  const optim = { ...DEFAULT_OPTIM, adamw: { ...DEFAULT_OPTIM.adamw, lr: 1e-5 } };
  const step = () => trainStep(model, batch, { kind: 'sft' }, optim);
  await timed(gpu, step);
  const trainS = await best(step);
  log(`training step ${(trainS * 1000).toFixed(0)} ms`);
  table(`throughput on [${B}, ${S}]`, ['phase', 'ms / batch', 'tokens/s'], [
    ['forward', (fwdS * 1000).toFixed(1), ((B * S) / fwdS).toFixed(0)],
    ['train (fwd + bwd + AdamW)', (trainS * 1000).toFixed(1), ((B * S) / trainS).toFixed(0)],
  ]);

  // ---- decode -----------------------------------------------------------------------------------------------
  const weights: DecodeWeights[] = [fp32Weights(model), new RolloutWeights(model, 'int8-b32'), new RolloutWeights(model, 'int4-b32')];
  const names = ['fp32', 'int8', 'int4'];
  const rows: string[][] = [];
  const decodeOpts = { temperature: 1, topP, seed: 3, stopTokenIds: [] as number[] };
  for (const w of weights) await generate(w, [randomTokens(4, V, rng)], { ...decodeOpts, maxNewTokens: 2 }); // compile
  for (const nb of batches) {
    const prompts = Array.from({ length: nb }, () => randomTokens(promptLen, V, rng));
    const cells = [String(nb)];
    let base = 0;
    for (let i = 0; i < weights.length; i++) {
      // Best of `reps` runs: the CPU is shared, and a slow run says more about the neighbours than the engine.
      const stats: GenerateStats = { prefillMs: Infinity, decodeMs: Infinity, steps: 0, readbacks: 0 };
      for (let r = 0; r < reps; r++) {
        const one: GenerateStats = { prefillMs: 0, decodeMs: 0, steps: 0, readbacks: 0 };
        await generate(weights[i], prompts, { ...decodeOpts, maxNewTokens: newTokens, stats: one });
        stats.prefillMs = Math.min(stats.prefillMs, one.prefillMs);
        stats.decodeMs = Math.min(stats.decodeMs, one.decodeMs);
        stats.steps = one.steps;
        stats.readbacks = one.readbacks;
      }
      // Decode steps after the first sampled token (which comes from the prefill's logits).
      const tps = (nb * (stats.steps - 1)) / Math.max(stats.decodeMs / 1000, 1e-9);
      if (i === 0) base = tps;
      cells.push(i === 0 ? tps.toFixed(1) : `${tps.toFixed(1)} (${(tps / base).toFixed(2)}x)`);
      cells.push(((nb * promptLen) / (stats.prefillMs / 1000)).toFixed(0));
      log(`decode batch ${nb} ${names[i]}: ${tps.toFixed(1)} tokens/s (prefill ${stats.prefillMs.toFixed(0)} ms, ${stats.steps} steps ${stats.decodeMs.toFixed(0)} ms, ${stats.readbacks} read-backs)`);
    }
    rows.push(cells);
  }
  table(
    `decode tokens/s (prompt ${promptLen}, ${newTokens} new tokens, T=1, top-p ${topP}, best of ${reps}; int8/int4 speed-up over fp32 in brackets; read-back every 8 tokens)`,
    ['batch', 'fp32', 'prefill tok/s', 'int8', 'prefill tok/s', 'int4', 'prefill tok/s'],
    rows,
  );

  // ---- mismatch ---------------------------------------------------------------------------------------------
  log('mismatch KL on sampled sequences');
  const mmPrompts = Array.from({ length: 8 }, () => randomTokens(promptLen, V, rng));
  const mmRows: string[][] = [];
  for (let i = 1; i < weights.length; i++) {
    const gen = await generate(weights[i], mmPrompts, { ...decodeOpts, topP: 1, maxNewTokens: 16 });
    const rep = await exactKl(weights[i], weights[0], mmPrompts.map((p, b) => ({ prompt: p, completion: gen[b].tokens })));
    mmRows.push([names[i], rep.meanKl.toExponential(3), rep.maxKl.toExponential(2), rep.meanAbsLogprobDiff.toExponential(2), String(rep.tokens), ((weights[i] as RolloutWeights).bytes() / 1024).toFixed(0)]);
  }
  table('rollout/learner mismatch: KL(rollout ‖ fp32 learner) per token, init weights (std 0.02), T = 1', ['rollout', 'mean KL', 'max KL', 'mean |Δlogp|', 'tokens', 'KiB'], mmRows);

  // ---- per-kernel-family GPU time ------------------------------------------------------------------------------
  if (!gpu.timer) {
    console.log('\n(no timestamp-query on this adapter: no per-kernel table)');
  } else {
    log('profiling one forward, one training step and an int8 decode (batch 16)');
    await gpu.kernelTimes();
    gpu.timer.reset();
    gpu.profile = true;
    fwdOnce();
    await step();
    await generate(weights[1], Array.from({ length: 16 }, () => randomTokens(promptLen, V, rng)), { ...decodeOpts, maxNewTokens: 8 });
    await gpu.sync();
    gpu.profile = false;
    const times = await gpu.kernelTimes();
    const total = times.reduce((a, t) => a + t.ms, 0);
    table(
      'GPU time per kernel family (1 forward + 1 training step + 8-token int8 decode at batch 16; each dispatch in its own timed pass)',
      ['family', 'ms', 'dispatches', 'share'],
      times.map((t) => [t.family, t.ms.toFixed(2), String(t.dispatches), `${((100 * t.ms) / Math.max(total, 1e-9)).toFixed(1)}%`]),
    );
  }
  destroyBatch(batch);
  for (const w of weights.slice(1)) (w as RolloutWeights).destroy();
  model.destroy();
  if (!args['no-onnx']) {
    // Issue 9: the same exported model on onnxruntime-web's webgpu and wasm EPs against our forward, one Chromium run.
    log('onnxruntime-web rows (Chromium)…');
    const onnxOpts = { ...DEFAULT_ONNX_BENCH, preset: name as OnnxBenchOptions['preset'], log };
    printOnnxBench(await runOnnxBench(onnxOpts), onnxOpts);
  }
  log('done');
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e instanceof Error ? e.stack ?? e.message : e);
    process.exit(1);
  },
);
