// Node-only timing of one tiny-model SFT training step (wall and process CPU, dispatch count, per-family GPU time)
// and of every matmul shape the step records. Run:
//   npx tsx --import ./scripts/raw-loader.mjs src/bench/bench-train.ts [--preset tiny] [--B 4] [--S 200]
//     [--reps 2] [--ab] [--profile] [--matmuls] [--decode]
// --ab alternates the new and the old path step by step and prints the ratio (the machine is shared and noisy).
// Engine switches come from the environment so before/after runs use the same script: ENGINE_QUAD=0 times the
// plain matmul path instead of the quad-shared linear kernel (src/gpu/kernels/linear-quad.ts), ENGINE_MASKQ=0
// attention without pad-row skipping, ENGINE_HEADROWS=0 the SFT head on all rows; BENCH_PAD=0 makes every row full
// length (default: right pads 0 .. S/2), BENCH_PROMPT the loss-free prompt share of each row (default 0.4).
// ENGINE_RECOMPUTE=1 with --ab: both paths take the default engine, the new one with per-layer activation recompute.
import { sharedNodeGpu } from '../gpu/node';
import type { Gpu } from '../gpu/runtime';
import { matmul } from '../gpu/kernels/matmul';
import { linearMatmul } from '../gpu/kernels/linear-quad';
import { preset, type PresetName } from '../model/config';
import { buildLayout } from '../model/layout';
import { initParams } from '../model/init';
import { GpuModel } from '../model/model';
import { uploadBatch, destroyBatch } from '../model/forward-batch';
import { trainStep, DEFAULT_OPTIM } from '../model/backward-step';
import { fp32Weights } from '../model/decode-weights';
import { generate } from '../model/sampler';
import { RolloutWeights } from '../model/rollout-weights';
import { mulberry32, randomF32 } from '../testing/random';
import { runMain } from '../cli/args';

function arg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length && !process.argv[i + 1].startsWith('--') ? process.argv[i + 1] : def;
}
const flag = (name: string) => process.argv.includes(`--${name}`);

async function timed(gpu: Gpu, fn: () => Promise<unknown> | void): Promise<{ wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  await gpu.sync();
  const c = process.cpuUsage(c0);
  return { wall: performance.now() - t0, cpu: (c.user + c.system) / 1000 };
}

async function matmulShapes(
  gpu: Gpu,
  layers: number,
  T: number,
  H: number,
  qW: number,
  kW: number,
  I: number,
  V: number,
  reps: number,
): Promise<void> {
  const rng = mulberry32(3);
  const big = gpu.buffer('mm.big', randomF32(T * V, rng));
  const big2 = gpu.buffer('mm.big2', randomF32(T * V, rng));
  const out = gpu.buffer('mm.out', T * V * 4);
  const forms: [string, number, number, number, boolean, boolean, number][] = [];
  // [name, M, N, K, transA, transB, count per step]
  for (const [N, K, n, what] of [
    [qW, H, 1, 'q'],
    [kW, H, 2, 'k,v'],
    [H, qW, 1, 'o'],
    [I, H, 2, 'gate,up'],
    [H, I, 1, 'down'],
    [V, H, 0, 'lmHead'],
  ] as const) {
    const per = n === 0 ? 1 : n * layers;
    forms.push([`fwd x·Wᵀ ${what}`, T, N, K, false, true, per]);
    forms.push([`dX = dY·W ${what}`, T, K, N, false, false, per]);
    forms.push([`dW = dYᵀ·X ${what}`, N, K, T, true, false, per]);
  }
  console.log('\nmatmul shapes (ms per call, best of reps; GFLOP/s; ms per step = count x ms)');
  let totalStep = 0;
  let totalQuad = 0;
  for (const [name, M, N, K, transA, transB, count] of forms) {
    const measure = async (f: () => void) => {
      await timed(gpu, f);
      let cpu = Infinity;
      for (let r = 0; r < reps; r++)
        cpu = Math.min(
          cpu,
          (
            await timed(gpu, () => {
              for (let i = 0; i < 4; i++) f();
            })
          ).cpu / 4,
        );
      return cpu;
    };
    const cpu = await measure(() => matmul(gpu, { a: big, b: big2, c: out, M, N, K, transA, transB }));
    const quad = await measure(() => linearMatmul(gpu, { a: big, b: big2, c: out, M, N, K, transA, transB }));
    const kDefault = gpu.tuning.linear.kChunk;
    if (transA && process.env.KCHUNKS) {
      for (const kc of process.env.KCHUNKS.split(',').map(Number)) {
        gpu.tuning.linear.kChunk = kc;
        const t = await measure(() => linearMatmul(gpu, { a: big, b: big2, c: out, M, N, K, transA, transB }));
        console.log(
          `  (next line's shape) kChunk ${kc}: ${t.toFixed(2)} CPU-ms (${(quad / t).toFixed(2)}x the default kChunk ${kDefault})`,
        );
      }
      gpu.tuning.linear.kChunk = kDefault;
    }
    const gf = (ms: number) => ((2 * M * N * K) / (ms * 1e6)).toFixed(2).padStart(6);
    totalStep += cpu * count;
    totalQuad += quad * count;
    console.log(
      `${name.padEnd(22)} M=${String(M).padEnd(5)} N=${String(N).padEnd(5)} K=${String(K).padEnd(5)} matmul ${cpu.toFixed(2).padStart(7)} CPU-ms ${gf(cpu)} GF/CPU-s | quad ${quad.toFixed(2).padStart(7)} CPU-ms ${gf(quad)} GF/CPU-s (${(cpu / quad).toFixed(2)}x)  x${count}`,
    );
  }
  console.log(
    `matmul total per step ≈ ${totalStep.toFixed(0)} CPU-ms plain, ${totalQuad.toFixed(0)} CPU-ms quad (${(totalStep / totalQuad).toFixed(2)}x)`,
  );
  [big, big2, out].forEach((b) => b.destroy());
}

async function main(): Promise<void> {
  const name = arg('preset', 'tiny') as PresetName;
  const B = Number(arg('B', '4'));
  const S = Number(arg('S', '200'));
  const reps = Number(arg('reps', '2'));
  const config = preset(name);
  const layout = buildLayout(config);
  const gpu = await sharedNodeGpu();
  const rng = mulberry32(7);
  const model = new GpuModel(gpu, layout, initParams(layout, 1));
  const V = config.vocabSize;
  const T = B * S;
  // Right-padded rows of varying length (0 .. S/2 pads), like the SFT and GRPO batches (src/rl/sft.ts).
  const tokens: number[] = [];
  const valid: number[] = [];
  const positions: number[] = [];
  const pads = process.env.BENCH_PAD === '0' ? 0 : 1;
  for (let b = 0; b < B; b++) {
    const len = S - pads * Math.floor((b * S) / (2 * B));
    for (let s = 0; s < S; s++) {
      tokens.push(s >= len ? 0 : 8 + Math.floor(rng() * (V - 8)));
      valid.push(s >= len ? 0 : 1);
      positions.push(s);
    }
  }
  const targets = tokens.map((_, i) => tokens[(i + 1) % T]);
  // Loss on the completion only (the last 60 % of each row's real tokens, as SFT prompt/completion pairs); BENCH_PROMPT
  // sets the prompt share.
  const promptShare = Number(process.env.BENCH_PROMPT ?? '0.4');
  const mask = valid.map((ok, t) => {
    const b = Math.floor(t / S);
    let len = 0;
    for (let s = 0; s < S; s++) len += valid[b * S + s];
    return ok && t % S >= Math.floor(promptShare * len) ? 1 : 0;
  });
  const batch = uploadBatch(gpu, { batch: B, seqLen: S, tokens, positions, valid, targets, mask }, 'bench');
  const optim = { ...DEFAULT_OPTIM, adamw: { ...DEFAULT_OPTIM.adamw, lr: 1e-5 } };
  console.log(`preset ${name} [${B}, ${S}] = ${T} tokens; subgroups ${gpu.hasSubgroups}`);
  const step = () => trainStep(model, batch, { kind: 'sft' }, optim);
  await timed(gpu, step); // compile
  // Alternate the new and the old engine path step by step so both see the same neighbours' load.
  const paths = flag('no-step') ? [] : flag('ab') ? [true, false] : [true];
  const recomputeAb = process.env.ENGINE_RECOMPUTE === '1';
  const engine = (fresh: boolean) => {
    const on = fresh || recomputeAb;
    gpu.tuning.linear.quad = on && process.env.ENGINE_QUAD !== '0';
    gpu.tuning.attention.maskQueries = on && process.env.ENGINE_MASKQ !== '0';
    gpu.tuning.headRows = on && process.env.ENGINE_HEADROWS !== '0';
    model.recompute = recomputeAb && fresh;
  };
  for (const quad of paths) {
    engine(quad);
    await timed(gpu, step); // compile
  }
  const best = paths.map(() => ({ wall: Infinity, cpu: Infinity }));
  let dispatches = 0;
  for (let r = 0; r < reps; r++) {
    for (let p = 0; p < paths.length; p++) {
      engine(paths[p]);
      const d0 = gpu.dispatches;
      let loss = 0;
      const t = await timed(gpu, async () => (loss = (await step()).loss));
      dispatches = gpu.dispatches - d0;
      console.log(
        `  step ${r} ${paths[p] ? 'new' : 'old'}: ${t.wall.toFixed(0)} ms wall, ${t.cpu.toFixed(0)} ms process CPU, loss ${loss.toFixed(4)}`,
      );
      if (t.cpu < best[p].cpu) best[p] = t;
    }
  }
  paths.forEach((quad, p) => {
    const b = best[p];
    const label = quad
      ? `new (quad ${process.env.ENGINE_QUAD !== '0'}, maskQueries ${process.env.ENGINE_MASKQ !== '0'}, headRows ${process.env.ENGINE_HEADROWS !== '0'}${recomputeAb ? ', recompute' : ''})`
      : 'old';
    console.log(
      `train step ${label}: best ${b.cpu.toFixed(0)} ms CPU (${((T / b.cpu) * 1000).toFixed(0)} tok/CPU-s), ${b.wall.toFixed(0)} ms wall (${((T / b.wall) * 1000).toFixed(0)} tok/s), ${dispatches} dispatches`,
    );
  });
  if (paths.length === 2)
    console.log(
      `new / old: ${(best[1].cpu / best[0].cpu).toFixed(2)}x less CPU, ${(best[1].wall / best[0].wall).toFixed(2)}x less wall`,
    );
  engine(true);
  if (flag('profile') && gpu.timer) {
    await gpu.kernelTimes();
    gpu.timer.reset();
    gpu.profile = true;
    await step();
    await gpu.sync();
    gpu.profile = false;
    const times = await gpu.kernelTimes();
    const total = times.reduce((a, t) => a + t.ms, 0);
    for (const t of times)
      console.log(
        `  ${t.family.padEnd(14)} ${t.ms.toFixed(1).padStart(9)} ms  ${String(t.dispatches).padStart(5)}  ${((100 * t.ms) / total).toFixed(1)}%`,
      );
  }
  if (flag('decode')) {
    if (process.env.QUAD_MIN_ROWS) gpu.tuning.linear.minRows = Number(process.env.QUAD_MIN_ROWS);
    for (const [wname, w] of [
      ['fp32', fp32Weights(model)],
      ['int8 (fp32 expansion)', new RolloutWeights(model, 'int8-b32', true)],
      ['int8 (qmatmul)', new RolloutWeights(model, 'int8-b32', false)],
    ] as const) {
      const nb = 16;
      const prompts = Array.from({ length: nb }, () =>
        Array.from({ length: 16 }, () => 8 + Math.floor(rng() * (V - 8))),
      );
      const opts = { temperature: 1, topP: 1, seed: 3, stopTokenIds: [] as number[] };
      await generate(w, prompts, { ...opts, maxNewTokens: 2 });
      for (let r = 0; r < reps; r++) {
        const st = { prefillMs: 0, decodeMs: 0, steps: 0, readbacks: 0 };
        const dd = gpu.dispatches;
        const c0 = process.cpuUsage();
        await generate(w, prompts, { ...opts, maxNewTokens: 32, stats: st });
        const c = process.cpuUsage(c0);
        console.log(
          `decode ${wname} batch ${nb}: ${((nb * (st.steps - 1)) / (st.decodeMs / 1000)).toFixed(0)} tok/s, prefill ${st.prefillMs.toFixed(0)} ms, ${((gpu.dispatches - dd) / st.steps).toFixed(1)} dispatches/step, ${((c.user + c.system) / 1000).toFixed(0)} ms CPU`,
        );
      }
    }
  }
  if (flag('matmuls'))
    await matmulShapes(
      gpu,
      config.layers,
      T,
      config.hidden,
      config.heads * config.headDim,
      config.kvHeads * config.headDim,
      config.intermediate,
      V,
      reps,
    );
  destroyBatch(batch);
  model.destroy();
}

runMain(main);
