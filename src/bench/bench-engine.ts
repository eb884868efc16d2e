// `npm run bench:engine -- --preset micro|tiny`: forward, SFT and RL-update (GRPO) tokens/s, decode tokens/s at batch
// 1/16/64 for fp32, int8 and int4 rollout weights, a per-kernel-family GPU time table, and the int8/int4 rollout
// mismatch KL. Every timed shape is run once untimed first (shader compiles), then `--repeats` times: min and median,
// wall and per process-CPU-second (the CPU is shared, so CPU seconds are the steadier figure). Random weights (the
// engine's speed does not depend on them). Progress goes to stderr, tables to stdout.
import { sharedNodeGpu } from '../gpu/node';
import type { Gpu } from '../gpu/runtime';
import { intArg, runMain, UsageError } from '../cli/args';
import { parseCli } from '../cli/cli-spec';
import { BENCH_ENGINE_SPEC } from '../cli/help/bench-specs';
import { DEFAULT_ONNX_BENCH, printOnnxBench, runOnnxBench, type OnnxBenchOptions } from './bench-onnx';
import { preset, paramCount, type PresetName } from '../model/config';
import { buildLayout } from '../model/layout';
import { initParams } from '../model/init';
import { GpuModel } from '../model/model';
import { forward, releaseForward } from '../model/forward';
import { uploadBatch, destroyBatch, type GpuBatch } from '../model/forward-batch';
import { trainStep, DEFAULT_OPTIM } from '../model/backward-step';
import { fp32Weights, type DecodeWeights } from '../model/decode-weights';
import { generate, type GenerateStats } from '../model/sampler';
import { RolloutWeights } from '../model/rollout-weights';
import { exactKl } from '../model/mismatch';
import { mulberry32 } from '../testing/random';
import { recordLogprobs } from '../model/forward-logprobs';
import { cpuSeconds, fmt, measure, median, minOf, table, type Measured } from './bench-util';
import { rlBatch } from './bench-rl-batch';

const log = (s: string) =>
  process.stderr.write(`[bench:engine ${((performance.now() - T0) / 1000).toFixed(1)}s] ${s}\n`);
const T0 = performance.now();

function randomTokens(n: number, V: number, rng: () => number): number[] {
  return Array.from({ length: n }, () => 8 + Math.floor(rng() * (V - 8)));
}

function trainBatch(gpu: Gpu, B: number, S: number, V: number, rng: () => number): GpuBatch {
  const tokens = randomTokens(B * S, V, rng);
  const targets = tokens.map((_, i) => tokens[(i + 1) % tokens.length]);
  return uploadBatch(
    gpu,
    { batch: B, seqLen: S, tokens, targets, mask: new Float32Array(B * S).fill(1) },
    'bench.batch',
  );
}

async function main(): Promise<void> {
  const parsed = parseCli(BENCH_ENGINE_SPEC, process.argv.slice(2));
  if (!parsed) return;
  const { args } = parsed;
  const name = (args.preset ?? 'micro') as PresetName;
  if (name !== 'micro' && name !== 'tiny' && name !== 'small')
    throw new UsageError('--preset must be micro, tiny or small (see --help)');
  const config = preset(name);
  const layout = buildLayout(config);
  const V = config.vocabSize;
  const S = Math.min(config.maxSeqLen, name === 'micro' ? 64 : 128);
  const batchTokens = intArg(args, 'batch-tokens', 512);
  const B = Math.max(1, Math.floor(batchTokens / S));
  const promptLen = intArg(args, 'prompt', 16);
  const newTokens = intArg(args, 'new', name === 'micro' ? 48 : 64);
  const reps = Math.max(1, intArg(args, 'repeats', 3));
  const batches = (typeof args.batches === 'string' ? args.batches : '1,16,64').split(',').map(Number);
  const topP = typeof args['top-p'] === 'string' ? Number(args['top-p']) : 1;
  const gpu = await sharedNodeGpu();
  const rng = mulberry32(7);
  console.log(`adapter: ${gpu.summary.vendor} ${gpu.summary.architecture} ${gpu.summary.description}`);
  console.log(
    `preset ${name}: ${paramCount(config)} params, vocab ${V}, hidden ${config.hidden}, layers ${config.layers}, heads ${config.heads}/${config.kvHeads}, ffn ${config.intermediate}`,
  );
  const model = new GpuModel(gpu, layout, initParams(layout, 1));

  // ---- forward and training -------------------------------------------------------------------------------
  log(`forward / training on [${B}, ${S}] (${B * S} tokens), ${reps} timed repeats after a warm-up run each`);
  const batch = trainBatch(gpu, B, S, V, rng);
  const fwdOnce = async () => {
    releaseForward(gpu, forward(model, batch, false));
    await gpu.sync();
  };
  const optim = { ...DEFAULT_OPTIM, adamw: { ...DEFAULT_OPTIM.adamw, lr: 1e-5 } };
  const step = () => trainStep(model, batch, { kind: 'sft' }, optim);
  const fwdM = await measure(reps, fwdOnce);
  log(`forward median ${fmt(median(fwdM.wall) * 1000, 0)} ms`);
  const trainM = await measure(reps, step);
  log(`training step median ${fmt(median(trainM.wall) * 1000, 0)} ms`);
  // The RL update as the trainer runs it: right-padded prompt + completion rows, loss on the completion only, the
  // reference policy's log-probs (a no-grad forward) and the GRPO step; beside it an SFT step on the same batch.
  const rl = rlBatch(gpu, name === 'micro' ? 8 : 12, config.maxSeqLen, V, rng, intArg(args, 'group', 4));
  const ref = new GpuModel(gpu, layout, initParams(layout, 2), 'bench.reference');
  const grpo = async () => {
    const refLp = recordLogprobs(ref, rl.batch, 1, { rows: 'mask' });
    gpu.release(refLp.entropy);
    await trainStep(model, rl.batch, { ...rl.spec, refLogp: refLp.logp }, optim);
    gpu.release(refLp.logp);
  };
  const rlM = await measure(reps, grpo);
  const rlSftM = await measure(reps, () => trainStep(model, rl.batch, { kind: 'sft' }, optim));
  log(
    `RL update median ${fmt(median(rlM.wall) * 1000, 0)} ms, SFT on the same batch ${fmt(median(rlSftM.wall) * 1000, 0)} ms`,
  );
  const row = (label: string, m: Measured, tokens: number) => [
    label,
    `${fmt(minOf(m.wall) * 1000, 1)} / ${fmt(median(m.wall) * 1000, 1)}`,
    `${fmt(minOf(m.cpu), 2)} / ${fmt(median(m.cpu), 2)}`,
    fmt(tokens / median(m.wall), 0),
    fmt(tokens / median(m.cpu), 0),
  ];
  table(
    `throughput (min / median of ${reps}; tokens/s and tokens per CPU-second from the medians)`,
    ['phase', 'wall ms', 'CPU-s', 'tokens/s', 'tokens/CPU-s'],
    [
      row(`forward [${B}, ${S}]`, fwdM, B * S),
      row(`SFT step (fwd + bwd + AdamW) [${B}, ${S}], every row in the loss`, trainM, B * S),
      row(
        `RL update: ref log-probs + GRPO step [${rl.batch.B}, ${rl.batch.S}], ${rl.completion} completion tokens`,
        rlM,
        rl.batch.T,
      ),
      row(`SFT step on the same RL batch (loss on the completion)`, rlSftM, rl.batch.T),
    ],
  );
  console.log(
    `RL update / SFT step on the same batch: ${fmt(median(rlM.cpu) / median(rlSftM.cpu))}x CPU-s, ${fmt(median(rlM.wall) / median(rlSftM.wall))}x wall (medians)`,
  );
  rl.destroy();
  ref.destroy();

  // ---- decode -----------------------------------------------------------------------------------------------
  const weights: DecodeWeights[] = [
    fp32Weights(model),
    new RolloutWeights(model, 'int8-b32'),
    new RolloutWeights(model, 'int4-b32'),
  ];
  const names = ['fp32', 'int8', 'int4'];
  const rows: string[][] = [];
  const decodeOpts = { temperature: 1, topP, seed: 3, stopTokenIds: [] as number[] };
  for (const nb of batches) {
    const prompts = Array.from({ length: nb }, () => randomTokens(promptLen, V, rng));
    const cells = [String(nb)];
    let base = 0;
    for (let i = 0; i < weights.length; i++) {
      // Warm-up on this very shape (batch and prompt length), then `reps` runs: min / median of decode and prefill.
      const runs: GenerateStats[] = [];
      const cpu: number[] = [];
      await generate(weights[i], prompts, { ...decodeOpts, maxNewTokens: newTokens });
      for (let r = 0; r < reps; r++) {
        const one: GenerateStats = { prefillMs: 0, decodeMs: 0, steps: 0, readbacks: 0 };
        const c = cpuSeconds();
        await generate(weights[i], prompts, { ...decodeOpts, maxNewTokens: newTokens, stats: one });
        cpu.push(cpuSeconds() - c);
        runs.push(one);
      }
      // Decode steps after the first sampled token (which comes from the prefill's logits).
      const tok = nb * (runs[0].steps - 1);
      const tps = runs.map((x) => tok / Math.max(x.decodeMs / 1000, 1e-9));
      const tpc = cpu.map((c) => (nb * runs[0].steps) / Math.max(c, 1e-9));
      const med = median(tps);
      if (i === 0) base = med;
      cells.push(`${fmt(Math.max(...tps), 1)} / ${fmt(med, 1)}${i === 0 ? '' : ` (${fmt(med / base)}x)`}`);
      cells.push(fmt(median(tpc), 0));
      cells.push(fmt((nb * promptLen) / (median(runs.map((x) => x.prefillMs)) / 1000), 0));
      log(
        `decode batch ${nb} ${names[i]}: median ${fmt(med, 1)} tokens/s (${runs[0].steps} steps, ${runs[0].readbacks} read-backs)`,
      );
    }
    rows.push(cells);
  }
  table(
    `decode (prompt ${promptLen}, ${newTokens} new tokens, T=1, top-p ${topP}, no stop tokens; best / median of ${reps} after a warm-up on the same shape; ` +
      `gen tok/CPU-s counts prefill + decode CPU; int8/int4 median speed-up over fp32 in brackets; read-back every 8 tokens)`,
    [
      'batch',
      'fp32 tok/s',
      'tok/CPU-s',
      'prefill tok/s',
      'int8 tok/s',
      'tok/CPU-s',
      'prefill tok/s',
      'int4 tok/s',
      'tok/CPU-s',
      'prefill tok/s',
    ],
    rows,
  );

  // ---- mismatch ---------------------------------------------------------------------------------------------
  log('mismatch KL on sampled sequences');
  const mmPrompts = Array.from({ length: 8 }, () => randomTokens(promptLen, V, rng));
  const mmRows: string[][] = [];
  for (let i = 1; i < weights.length; i++) {
    const gen = await generate(weights[i], mmPrompts, { ...decodeOpts, topP: 1, maxNewTokens: 16 });
    const rep = await exactKl(
      weights[i],
      weights[0],
      mmPrompts.map((p, b) => ({ prompt: p, completion: gen[b].tokens })),
    );
    mmRows.push([
      names[i],
      rep.meanKl.toExponential(3),
      rep.maxKl.toExponential(2),
      rep.meanAbsLogprobDiff.toExponential(2),
      String(rep.tokens),
      ((weights[i] as RolloutWeights).bytes() / 1024).toFixed(0),
    ]);
  }
  table(
    'rollout/learner mismatch: KL(rollout ‖ fp32 learner) per token, init weights (std 0.02), T = 1',
    ['rollout', 'mean KL', 'max KL', 'mean |Δlogp|', 'tokens', 'KiB'],
    mmRows,
  );

  // ---- per-kernel-family GPU time ------------------------------------------------------------------------------
  if (!gpu.timer) {
    console.log('\n(no timestamp-query on this adapter: no per-kernel table)');
  } else {
    log('profiling one forward, one training step and an int8 decode (batch 16)');
    await gpu.kernelTimes();
    gpu.timer.reset();
    gpu.profile = true;
    await fwdOnce();
    await step();
    await generate(
      weights[1],
      Array.from({ length: 16 }, () => randomTokens(promptLen, V, rng)),
      { ...decodeOpts, maxNewTokens: 8 },
    );
    await gpu.sync();
    gpu.profile = false;
    const times = await gpu.kernelTimes();
    const total = times.reduce((a, t) => a + t.ms, 0);
    table(
      'GPU time per kernel family (1 forward + 1 training step + 8-token int8 decode at batch 16; each dispatch in its own timed pass)',
      ['family', 'ms', 'dispatches', 'share'],
      times.map((t) => [
        t.family,
        t.ms.toFixed(2),
        String(t.dispatches),
        `${((100 * t.ms) / Math.max(total, 1e-9)).toFixed(1)}%`,
      ]),
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

runMain(main);
