// A headless run with Hugging Face models: Coder and Tester folders imported, the memory plan printed (and the run
// refused with a setting that fits when it does not), LoRA policies on the release's chat prompts, the sandbox and
// the curriculum as in lab-node.ts.
import { basename, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { createNodeGpu } from '../gpu/node';
import { createNodeSandbox } from '../sandbox/node';
import type { Gpu } from '../gpu/runtime';
import { importHfModel } from '../model/hf/import';
import { loadHfTokenizer } from '../model/hf/tokenizer';
import { dirSource } from '../model/hf/source-node';
import { LORA_TARGETS, validateLoraConfig, type LoraConfig } from '../model/hf/lora';
import { checkMemory, formatPlan, type DeviceLimits } from '../model/hf/memory-plan';
import type { TrainConfig } from '../rl/config';
import { HfLoraPolicy } from '../rl/hf-policy';
import { loadCurriculum, neededSeqLen } from '../rl/lab-setup';
import { deriveSeed } from '../rl/rng';
import { modeRules } from '../rl/modes';
import { Progress } from './progress';
import { intArg, type Args } from './args';
import { closeLab, type LabOf } from './lab-node';

export interface HfRunOptions {
  coderModel: string;
  /** Default: a second copy of the Coder's model (its own adapters). */
  testerModel?: string;
  lora: LoraConfig;
  /** Sequences per training forward / backward. */
  microBatch: number;
  /** The memory plan's budget in bytes (WebGPU does not report the GPU's memory). */
  budgetBytes: number;
}

/** The CLI flags shared by train and eval. */
export const HF_FLAGS = {
  'coder-model': 'string',
  'tester-model': 'string',
  'lora-rank': 'string',
  'lora-alpha': 'string',
  'micro-batch': 'string',
  'budget-gb': 'string',
} as const;

export const HF_HELP = `  Hugging Face models (LoRA on the release's chat prompts): --coder-model DIR [--tester-model DIR]
    [--lora-rank 16] [--lora-alpha 2×rank] [--micro-batch 4] [--budget-gb 8]`;

/** HfRunOptions from parsed flags, or undefined without --coder-model. */
export function hfOptions(args: Args): HfRunOptions | undefined {
  if (typeof args['coder-model'] !== 'string') {
    for (const k of ['tester-model', 'lora-rank', 'lora-alpha'])
      if (args[k] !== undefined) throw new Error(`--${k} needs --coder-model (a Hugging Face model folder)`);
    return undefined;
  }
  const rank = intArg(args, 'lora-rank', 16);
  const alpha = Number(args['lora-alpha'] ?? 2 * rank);
  const budget = Number(args['budget-gb'] ?? 8);
  if (!(budget > 0)) throw new Error(`--budget-gb must be a positive number, got '${String(args['budget-gb'])}'`);
  return {
    coderModel: args['coder-model'],
    testerModel: typeof args['tester-model'] === 'string' ? args['tester-model'] : undefined,
    lora: validateLoraConfig({ rank, alpha, targets: [...LORA_TARGETS] }),
    microBatch: intArg(args, 'micro-batch', 4),
    budgetBytes: budget * 2 ** 30,
  };
}

export type HfLab = LabOf<HfLoraPolicy>;

async function loadPolicy(
  gpu: Gpu,
  name: string,
  dir: string,
  config: TrainConfig,
  o: HfRunOptions,
  log: (m: string) => void,
): Promise<HfLoraPolicy> {
  const path = resolve(dir);
  if (!existsSync(path)) throw new Error(`--${name}-model ${dir}: no such folder`);
  const src = dirSource(path);
  const tokenizer = await loadHfTokenizer(src);
  const bar = new Progress();
  const checkpoint = await importHfModel(src, {
    onProgress: (p) => bar.update(`loading ${name}`, p.tensorsDone, p.tensorsTotal),
  });
  bar.clear();
  const c = checkpoint.config;
  const seqLen = Math.min(c.maxSeqLen, neededSeqLen(config));
  const { num_generations: M, tester_generations: N, problems_per_step: P } = config.rollout;
  const limits: DeviceLimits = {
    maxBufferSize: gpu.device.limits.maxBufferSize,
    maxStorageBufferBindingSize: gpu.device.limits.maxStorageBufferBindingSize,
    budgetBytes: o.budgetBytes,
  };
  const settings = {
    baseFormat: 'f32' as const,
    lora: o.lora,
    rolloutBatch: name === 'coder' ? P * M : P * M * N,
    seqLen,
    microBatch: o.microBatch,
    recompute: false,
    klReference: config.grpo.beta > 0,
    mergedLearner: true,
  };
  log(`${name}: ${path} (${c.layers} layers, hidden ${c.hidden}, vocab ${c.vocabSize}, context ${c.maxSeqLen})`);
  let plan;
  try {
    plan = checkMemory(c, settings, limits);
  } catch (e) {
    throw new Error(
      `${name}: ${(e as Error).message}\n(flags: micro-batch is --micro-batch N; the rollout batch is rollout.problems_per_step × num_generations (× tester_generations for the tester), set with --set; the budget is --budget-gb)`,
    );
  }
  log(
    `memory plan for the ${name} (LoRA r${o.lora.rank}, f32 base, ${settings.rolloutBatch} rollouts × ${seqLen} tokens, micro-batch ${o.microBatch}):\n${formatPlan(plan)}`,
  );
  if (seqLen < neededSeqLen(config))
    log(
      `${name}: the model's context (${c.maxSeqLen}) is shorter than prompt + completion (${neededSeqLen(config)}); prompts keep their last tokens`,
    );
  return new HfLoraPolicy(gpu, {
    name,
    checkpoint,
    tokenizer,
    lora: o.lora,
    seed: deriveSeed(config.seed, `${name}-lora`),
    rolloutQuant: config.rollout.rollout_quant,
    maxPromptTokens: Math.max(
      1,
      Math.min(config.rollout.max_prompt_length, c.maxSeqLen - Math.min(64, Math.floor(c.maxSeqLen / 4))),
    ),
    microBatch: o.microBatch,
    baseModel: basename(path),
  });
}

export async function openHfLab(
  config: TrainConfig,
  o: HfRunOptions,
  log: (m: string) => void = () => {},
): Promise<HfLab> {
  if (modeRules(config.mode).testerIsCoder)
    throw new Error('Hugging Face models: self-play is not supported yet (use code-a1 or golden)');
  const gpu = await createNodeGpu();
  log(`gpu: ${gpu.summary.vendor} ${gpu.summary.architecture}`);
  const policies: HfLoraPolicy[] = [];
  const sandbox = createNodeSandbox({ spares: 1 });
  try {
    policies.push(await loadPolicy(gpu, 'coder', o.coderModel, config, o, log));
    policies.push(await loadPolicy(gpu, 'tester', o.testerModel ?? o.coderModel, config, o, log));
  } catch (e) {
    policies.forEach((p) => p.destroy());
    await sandbox.close();
    gpu.destroy();
    throw e;
  }
  const [coder, tester] = policies;
  const cur = loadCurriculum(config.tasks.families);
  return {
    gpu,
    sandbox,
    coder,
    tester,
    trainProblems: cur.train,
    heldout: cur.heldout,
    heldoutFamily: cur.heldoutFamily,
    mutants: cur.mutants,
    close: () => closeLab(gpu, sandbox, coder, tester),
  };
}
