// `npm run bench:hf -- [--layers 2] [--prompt 64] [--new 8] [--tflops 10] [--util 0.3]`: a random-weight model with
// Qwen2.5-Coder-0.5B-Instruct's exact config.json, made locally (bf16 safetensors, as the hub ships it): load time,
// GPU memory, forward tok/s, decode tok/s at batch 1 and 8 (f32 and int4 rollout weights), one LoRA GRPO update, and
// FLOPs per token with the projected times on a GPU of stated throughput. `--layers` keeps fewer of the 24 layers
// when the adapter cannot hold the whole model (GpuModel binds one flat f32 buffer); the table scales by FLOPs.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedNodeGpu } from '../gpu/node';
import { parseArgs, intArg, runMain } from './args';
import { Progress } from './progress';
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
import { fmtBytes, planMemory } from '../model/hf/memory-plan';
import { prepareGrpoMicroBatches } from '../rl/grpo-batches';
import { grpoOptim } from '../rl/grpo-update';
import type { GrpoSettings } from '../rl/policy';
import { PRESETS } from '../rl/config';
import { mulberry32 } from '../testing/random';

const log = (s: string) => process.stderr.write(`[bench:hf ${((performance.now() - T0) / 1000).toFixed(1)}s] ${s}\n`);
const T0 = performance.now();

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), {
    layers: 'string',
    prompt: 'string',
    new: 'string',
    tflops: 'string',
    util: 'string',
    help: 'boolean',
  });
  if (args.help) {
    console.log('usage: npm run bench:hf -- [--layers 2] [--prompt 64] [--new 8] [--tflops 10] [--util 0.3]');
    return;
  }
  const layers = intArg(args, 'layers', 2);
  const promptLen = intArg(args, 'prompt', 64);
  const newTokens = intArg(args, 'new', 8);
  const tflops = Number(args.tflops ?? 10);
  const util = Number(args.util ?? 0.3);
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
    `Qwen2.5-Coder-0.5B-Instruct: ${buildLayout(full).totalFloats.toLocaleString()} parameters; GpuModel's flat f32 buffer ${fmtBytes(fullFlat)}`,
  );
  if (fullFlat > lim.maxStorageBufferBindingSize)
    console.log(
      `  exceeds this adapter's binding limit: measured with ${layers} of 24 layers (full vocabulary and width); times scale by FLOPs below`,
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
  for (const weights of ['f32', 'int4-b32'] as const) {
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
  if (!model) throw new Error('import failed');
  const m = model;

  // ---- forward and decode -------------------------------------------------------------------------------------
  const rng = mulberry32(7);
  const V = config.vocabSize;
  const toks = (n: number) => Array.from({ length: n }, () => 8 + Math.floor(rng() * (V - 8)));
  const batch = uploadBatch(gpu, { batch: 1, seqLen: promptLen, tokens: toks(promptLen) }, 'bench-hf.fwd');
  const fwd = () => releaseForward(gpu, forward(m, batch, false));
  await timedCpu(gpu, fwd);
  const f = await timedCpu(gpu, fwd);
  destroyBatch(batch);
  const int4 = new RolloutWeights(m, 'int4-b32');
  const weights: [string, DecodeWeights][] = [
    ['f32', fp32Weights(m)],
    ['int4', int4],
  ];
  // The f16 compute path where the adapter has 'shader-f16' (f16-weights.ts); SwiftShader has not.
  const f16 = gpu.hasF16 ? new F16Weights(m) : undefined;
  if (f16) weights.push(['f16', f16]);
  else log("decode f16: not measured, this adapter has no 'shader-f16'");
  const decodeRows: string[][] = [];
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
  table(
    `forward [1, ${promptLen}]: ${(promptLen / f.wall).toFixed(1)} tok/s (${f.wall.toFixed(2)} s wall, ${f.cpu.toFixed(2)} CPU s)`,
    ['decode batch', 'weights', 'tok/s', 'ms / step'],
    decodeRows,
  );

  // ---- one LoRA GRPO update (rank 16, 2 sequences of 16 + 16 tokens, KL off: no reference copy) -----------------
  const lora = new GpuLora(
    gpu,
    initLora(m.layout, { rank: 16, alpha: 32, targets: [...LORA_TARGETS] }, 5),
    'bench-hf.lora',
  );
  const learner = new LoraLearner(m, lora);
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
  const prep = prepareGrpoMicroBatches(
    { name: 'bench-hf', model: m, ref: m, padId: 0, microBatch: 2 },
    items,
    s,
    false,
  );
  const optim = grpoOptim(s);
  await learner.stepMicro(prep.micro, optim);
  const u = await timedCpu(gpu, () => learner.stepMicro(prep.micro, optim));
  prep.release();
  const gpuBytes = m.layout.totalFloats * 4 * 3 + int4.bytes() + lora.totalFloats * 4 * 4;
  table(
    'LoRA GRPO update (rank 16 on q/k/v/o/gate/up/down, 2 × 32 tokens, merged learner)',
    ['', 'value'],
    [
      ['update wall s / CPU s', `${u.wall.toFixed(2)} / ${u.cpu.toFixed(2)}`],
      ['adapter parameters', lora.totalFloats.toLocaleString()],
      ['GPU buffers (weights + base copy + grads, int4 rollout, adapters + grads + AdamW)', fmtBytes(gpuBytes)],
    ],
  );
  learner.destroy();
  lora.destroy();
  int4.destroy();
  f16?.destroy();
  m.destroy();

  // ---- FLOPs and projections ----------------------------------------------------------------------------------
  const ctx = promptLen;
  const fMeasured = flopsPerToken(config, ctx);
  const fFull = flopsPerToken(full, ctx);
  const ratio = fFull / fMeasured;
  const rate = tflops * 1e12 * util;
  // A step of 16 problems × 8 candidates × 256 tokens, the same again for the Tester's tests.
  const stepTokens = 2 * 16 * 8 * 256;
  const plan = planMemory(full, QWEN_LORA_RUN, {
    maxBufferSize: 2 ** 52,
    maxStorageBufferBindingSize: 2 ** 52,
    budgetBytes: 2 ** 52,
  });
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
    ],
  );
  console.log(
    '\nDecode on a real GPU is bound by memory bandwidth at small batch, not FLOPs: the projections are lower bounds on time.',
  );
  log('done');
}

runMain(main);
