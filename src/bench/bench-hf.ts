// `npm run bench:hf -- [--layers 2] [--prompt 64] [--new 8] [--tflops 10] [--util 0.3]`: a random-weight model with
// Qwen2.5-Coder-0.5B-Instruct's exact config.json, made locally (bf16 safetensors, as the hub ships it): load time,
// GPU memory, forward tok/s, decode tok/s at batch 1 and 8 (f32 and int4 rollout weights), one LoRA GRPO update on an
// int4 base (no f32 copy) vs an f32 base (merged learner), and FLOPs per token with the projected times on a GPU of
// stated throughput. `--layers` keeps fewer of the 24 layers (default 2: SwiftShader's time and the host's memory;
// GpuModel splits a larger model across buffers within the binding limit); the table scales by FLOPs.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedNodeGpu } from '../gpu/node';
import { intArg, runMain } from '../cli/args';
import { parseCli } from '../cli/cli-spec';
import { BENCH_HF_SPEC } from '../cli/help/bench-specs';
import { Progress } from '../cli/progress';
import { table, timedCpu } from './bench-util';
import { buildLayout } from '../model/layout';
import { initParams } from '../model/init';
import { GpuModel } from '../model/model';
import { forward, releaseForward } from '../model/forward';
import { uploadBatch, destroyBatch } from '../model/forward-batch';
import { fp32Weights, type DecodeWeights } from '../model/decode-weights';
import { generate, type GenerateStats } from '../model/sampler';
import { RolloutWeights } from '../model/rollout-weights';
import { F16Weights } from '../model/f16-weights';
import { parseQwen2Config } from '../model/hf/config';
import { flopsPerToken, QWEN25_CODER_05B_INSTRUCT, QWEN_LORA_RUN } from '../model/hf/qwen-shapes';
import { exportHfModel } from '../model/hf/export';
import { importHfModel } from '../model/hf/import';
import { dirSource } from '../model/hf/source-node';
import { initLora, LORA_TARGETS } from '../model/hf/lora';
import { GpuLora } from '../model/hf/lora-gpu';
import { LoraLearner } from '../model/hf/lora-learner';
import { frozenLoraModel, FrozenLoraLearner } from '../model/hf/frozen-base';
import type { MicroBatch } from '../model/backward-step';
import { fmtBytes, planMemory } from '../model/hf/memory-plan';
import { prepareGrpoMicroBatches } from '../rl/grpo-batches';
import { grpoOptim } from '../rl/grpo-update';
import type { GrpoSettings } from '../rl/policy';
import { PRESETS } from '../rl/config';
import { mulberry32 } from '../testing/random';

const log = (s: string) => process.stderr.write(`[bench:hf ${((performance.now() - T0) / 1000).toFixed(1)}s] ${s}\n`);
const T0 = performance.now();

async function main(): Promise<void> {
  const parsed = parseCli(BENCH_HF_SPEC, process.argv.slice(2));
  if (!parsed) return;
  const { args } = parsed;
  const layers = intArg(args, 'layers', 2);
  const promptLen = intArg(args, 'prompt', 64);
  const newTokens = intArg(args, 'new', 8);
  const tflops = Number(args.tflops ?? 10);
  const util = Number(args.util ?? 0.3);
  // Only the int4 base (no f32 model at all): what lets all 24 layers load on a host of a few GiB.
  const int4Only = args['int4-only'] === true;
  const full = parseQwen2Config(QWEN25_CODER_05B_INSTRUCT, { maxSeqLen: 2048 }).config;
  const info = parseQwen2Config({ ...QWEN25_CODER_05B_INSTRUCT, num_hidden_layers: layers }, { maxSeqLen: 2048 });
  const config = info.config;
  const gpu = await sharedNodeGpu();
  const lim = gpu.device.limits;
  const fullFlat = buildLayout(full).totalFloats * 4;
  console.log(
    `adapter: ${gpu.summary.vendor} ${gpu.summary.architecture}; maxBufferSize ${fmtBytes(lim.maxBufferSize)}, maxStorageBufferBindingSize ${fmtBytes(lim.maxStorageBufferBindingSize)}`,
  );
  console.log(
    `Qwen2.5-Coder-0.5B-Instruct: ${buildLayout(full).totalFloats.toLocaleString()} parameters, ${fmtBytes(fullFlat)} in f32; measured with ${layers} of 24 layers (full vocabulary and width), times scale by FLOPs below`,
  );

  // ---- made locally: random weights written as the hub ships them (bf16 safetensors), then imported -------------
  const layout = buildLayout(config);
  const dir = await mkdtemp(join(tmpdir(), 'bench-hf-'));
  let params: Float32Array | undefined = initParams(layout, 1);
  const files = exportHfModel(layout, params, { dtype: 'bf16', maxShardBytes: 2 ** 30 });
  params = undefined;
  let diskBytes = 0;
  for (const [name, data] of files) {
    await writeFile(join(dir, name), data);
    diskBytes += typeof data === 'string' ? data.length : data.byteLength;
  }
  files.clear();
  log(`wrote ${fmtBytes(diskBytes)} to ${dir}`);
  const bar = new Progress();
  const loadRows: string[][] = [];
  let model: GpuModel | undefined;
  /** The int4 import (codes only, the f32 Linear slots empty): the frozen base of the int4 LoRA update. */
  let q4: Awaited<ReturnType<typeof importHfModel>> | undefined;
  for (const weights of int4Only ? (['int4-b32'] as const) : (['f32', 'int4-b32'] as const)) {
    let imported: Awaited<ReturnType<typeof importHfModel>> | undefined;
    const t = await timedCpu(gpu, async () => {
      imported = await importHfModel(dirSource(dir), {
        weights,
        denseLinear: weights === 'f32',
        onProgress: (p) => bar.update(`import ${weights}`, p.tensorsDone, p.tensorsTotal),
      });
    });
    bar.clear();
    loadRows.push([weights, t.wall.toFixed(2), t.cpu.toFixed(2), (diskBytes / 2 ** 20 / t.cpu).toFixed(0)]);
    if (weights === 'int4-b32') q4 = imported;
    if (weights === 'f32' && imported) {
      const ck = imported;
      const up = await timedCpu(gpu, () => {
        model = new GpuModel(gpu, ck.layout, ck.params, 'bench-hf');
      });
      loadRows.push(['f32 → GPU upload', up.wall.toFixed(2), up.cpu.toFixed(2), '']);
    }
    imported = undefined;
  }
  await rm(dir, { recursive: true, force: true });
  table(
    `load (${layers}-layer model, ${fmtBytes(diskBytes)} of bf16 safetensors)`,
    ['to', 'wall s', 'CPU s', 'MiB / CPU s'],
    loadRows,
  );
  if (!q4 || !(model || int4Only)) throw new Error('import failed');
  const q4ck = q4;
  const loraCfg = { rank: 16, alpha: 32, targets: [...LORA_TARGETS] };
  const lora4 = new GpuLora(gpu, initLora(q4ck.layout, loraCfg, 5), 'bench-hf.lora-int4');
  const frozen = frozenLoraModel(gpu, q4ck, lora4, 'int4-b32', 'bench-hf.int4');
  q4 = undefined;
  log(
    `int4 base on the GPU: ${fmtBytes(frozen.base.bytes())} of codes + ${fmtBytes(frozen.model.paramBytes())} of f32 embedding / norms / biases`,
  );

  // ---- forward and decode -------------------------------------------------------------------------------------
  const rng = mulberry32(7);
  const V = config.vocabSize;
  const toks = (n: number) => Array.from({ length: n }, () => 8 + Math.floor(rng() * (V - 8)));
  const batch = uploadBatch(gpu, { batch: 1, seqLen: promptLen, tokens: toks(promptLen) }, 'bench-hf.fwd');
  // The f32 model's forward, or with --int4-only the int4 base's (qmatmul; adapters at B = 0).
  const fwdModel = model ?? frozen.model;
  const fwd = () => releaseForward(gpu, forward(fwdModel, batch, false));
  await timedCpu(gpu, fwd);
  const f = await timedCpu(gpu, fwd);
  destroyBatch(batch);
  log(`forward [1, ${promptLen}] (${model ? 'f32' : 'int4 base'}): ${(promptLen / f.wall).toFixed(2)} tok/s`);
  const decodeRows: string[][] = [];
  const m = model;
  // Rollout weights: the f32 model's own and its int4 rollout copy (RolloutWeights), and the frozen int4 base with
  // its adapters (FrozenBase: what an int4 LoRA run samples from; qmatmul on the codes, no fp32 expansion).
  const int4 = m && new RolloutWeights(m, 'int4-b32');
  const weights: [string, DecodeWeights][] = [
    ...(m && int4
      ? ([
          ['f32', fp32Weights(m)],
          ['int4 rollout copy', int4],
        ] as [string, DecodeWeights][])
      : []),
    ['int4 base + LoRA', frozen.base],
  ];
  // The f16 compute path where the adapter has 'shader-f16' (f16-weights.ts); SwiftShader has not.
  const f16 = m && gpu.hasF16 ? new F16Weights(m) : undefined;
  if (f16) weights.push(['f16', f16]);
  else log("decode f16: not measured, this adapter has no 'shader-f16' (or --int4-only)");
  const opts = { temperature: 1, topP: 1, seed: 3, stopTokenIds: [] as number[] };
  for (const [, w] of weights) await generate(w, [toks(4)], { ...opts, maxNewTokens: 2 });
  for (const nb of [1, 8]) {
    const prompts = Array.from({ length: nb }, () => toks(16));
    for (const [name, w] of weights) {
      const st: GenerateStats = { prefillMs: 0, decodeMs: 0, steps: 0, readbacks: 0 };
      await generate(w, prompts, { ...opts, maxNewTokens: newTokens, stats: st });
      const tps = (nb * (st.steps - 1)) / Math.max(st.decodeMs / 1000, 1e-9);
      decodeRows.push([String(nb), name, tps.toFixed(2), (st.decodeMs / Math.max(1, st.steps - 1)).toFixed(0)]);
      log(`decode batch ${nb} ${name}: ${tps.toFixed(2)} tok/s`);
    }
  }
  int4?.destroy();
  f16?.destroy();
  table(
    `forward [1, ${promptLen}]: ${(promptLen / f.wall).toFixed(1)} tok/s (${f.wall.toFixed(2)} s wall, ${f.cpu.toFixed(2)} CPU s)`,
    ['decode batch', 'weights', 'tok/s', 'ms / step'],
    decodeRows,
  );

  // ---- one LoRA GRPO update (rank 16, 2 sequences of 16 + 16 tokens, KL off): int4 base vs f32 base ------------
  const items = [1, -1].map((advantage) => {
    const completion = toks(16);
    return {
      promptTokens: toks(16),
      completionTokens: completion,
      rolloutLogprobs: completion.map(() => -Math.log(V)),
      advantage,
    };
  });
  const cfg = PRESETS.micro;
  const s: GrpoSettings = {
    lr: 1e-4,
    grpo: { ...cfg.grpo, beta: 0 },
    optim: { ...cfg.optim, weight_decay: 0, max_grad_norm: 1 },
    rollout: { max_completion_length: 16, temperature: 1 },
  };
  const optim = grpoOptim(s);
  const updateRows: string[][] = [];
  /** One warm-up update, then one timed; the learner's model serves the batches. */
  const timeUpdate = async (name: string, model: GpuModel, step: (micro: MicroBatch[]) => Promise<unknown>) => {
    const prep = prepareGrpoMicroBatches(
      { name: 'bench-hf', model, ref: model, padId: 0, microBatch: 2 },
      items,
      s,
      false,
    );
    await step(prep.micro);
    const u = await timedCpu(gpu, () => step(prep.micro));
    prep.release();
    log(`LoRA update ${name}: ${u.wall.toFixed(2)} s`);
    return u;
  };
  if (m) {
    // f32 base through the merged learner (rollout_quant none): merged weights, a base copy, full weight gradients.
    const lora = new GpuLora(gpu, initLora(m.layout, loraCfg, 5), 'bench-hf.lora-f32');
    const learner = new LoraLearner(m, lora);
    const u = await timeUpdate('f32', m, (micro) => learner.stepMicro(micro, optim));
    const bytes = m.paramBytes() + learner.base.size + m.grads.size + lora.totalFloats * 4 * 4;
    updateRows.push(['f32 base, merged learner', u.wall.toFixed(2), u.cpu.toFixed(2), fmtBytes(bytes)]);
    learner.destroy();
    lora.destroy();
    m.destroy();
  }
  {
    // int4 base held only as codes (FrozenBase): qmatmul forward, qmatmulT input gradients, adapters' grads only.
    const { model, base } = frozen;
    const lora = lora4;
    const learner = new FrozenLoraLearner(model, base);
    const u = await timeUpdate('int4', model, (micro) => learner.stepMicro(micro, optim));
    const bytes = model.paramBytes() + base.bytes() + lora.totalFloats * 4 * 4;
    updateRows.push(['int4 base (no f32 copy)', u.wall.toFixed(2), u.cpu.toFixed(2), fmtBytes(bytes)]);
    base.destroy();
    lora.destroy();
    model.destroy();
  }
  table(
    `one LoRA GRPO update (rank 16 on q/k/v/o/gate/up/down, 2 × 32 tokens, ${layers}-layer model)`,
    ['base', 'wall s', 'CPU s', 'GPU buffers (weights, base copy / codes, grads, adapters + AdamW)'],
    updateRows,
  );

  // ---- FLOPs and projections ----------------------------------------------------------------------------------
  const ctx = promptLen;
  const fMeasured = flopsPerToken(config, ctx);
  const fFull = flopsPerToken(full, ctx);
  const ratio = fFull / fMeasured;
  const rate = tflops * 1e12 * util;
  // A step of 16 problems × 8 candidates × 256 tokens, the same again for the Tester's tests.
  const stepTokens = 2 * 16 * 8 * 256;
  const unlimited = { maxBufferSize: 2 ** 52, maxStorageBufferBindingSize: 2 ** 52, budgetBytes: 2 ** 52 };
  const plan = planMemory(full, QWEN_LORA_RUN, unlimited);
  const planF32 = planMemory(full, { ...QWEN_LORA_RUN, baseFormat: 'f32', mergedLearner: true }, unlimited);
  table(
    `FLOPs per token (context ${ctx}) and projections; GPU of ${tflops} TFLOP/s at ${(util * 100).toFixed(0)}% utilisation`,
    ['', `${layers}-layer (measured)`, '24 layers (Qwen2.5-Coder-0.5B)'],
    [
      ['forward GFLOP / token', (fMeasured / 1e9).toFixed(3), (fFull / 1e9).toFixed(3)],
      [
        'SwiftShader forward tok/s (measured; ÷ FLOPs ratio)',
        (promptLen / f.wall).toFixed(1),
        (promptLen / f.wall / ratio).toFixed(2),
      ],
      ['projected forward tok/s (compute-bound)', (rate / fMeasured).toFixed(0), (rate / fFull).toFixed(0)],
      [
        'projected training tok/s (fwd + bwd ≈ 3 × fwd)',
        (rate / (3 * fMeasured)).toFixed(0),
        (rate / (3 * fFull)).toFixed(0),
      ],
      [
        `projected step: ${stepTokens} tokens sampled (1 × fwd) and trained (3 × fwd)`,
        `${((stepTokens * 4 * fMeasured) / rate).toFixed(1)} s`,
        `${((stepTokens * 4 * fFull) / rate).toFixed(1)} s`,
      ],
      ['memory plan, LoRA r16 on int4 base, seq 2048 (planner)', '', fmtBytes(plan.totalBytes)],
      ['memory plan, LoRA r16 on f32 base, merged learner (planner)', '', fmtBytes(planF32.totalBytes)],
    ],
  );
  console.log(
    '\nDecode on a real GPU is bound by memory bandwidth at small batch, not FLOPs: the projections are lower bounds on time.',
  );
  log('done');
}

runMain(main);
