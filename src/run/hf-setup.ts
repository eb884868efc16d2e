// Opens a Hugging Face model as a LoRA policy, platform-neutral (the CLI reads a folder, the browser picked files or
// the hub cache): import with progress, the memory plan checked against the device's limits (refused with a setting
// that fits), then an HfLoraPolicy on the release's chat prompts.
import type { Gpu } from '../gpu/runtime';
import { importHfModel, type ImportProgress } from '../model/hf/import';
import { loadHfTokenizer } from '../model/hf/tokenizer';
import type { HfSource } from '../model/hf/source';
import type { LoraConfig } from '../model/hf/lora';
import { checkMemory, formatPlan, MemoryPlanError, type DeviceLimits } from '../model/hf/memory-plan';
import type { TrainConfig } from '../rl/config';
import { HfLoraPolicy } from '../rl/hf-policy';
import { neededSeqLen } from './lab-setup';
import { deriveSeed } from '../rl/rng';
import type { PolicyFiles } from '../rl/policy';
import { quantFormatFor } from '../model/rollout-weights';

/** The LoRA settings of a run with Hugging Face models (saved with the run as hf.json). */
export interface HfLoraSettings {
  lora: LoraConfig;
  /** Sequences per training forward / backward. */
  microBatch: number;
  /** The memory plan's budget in bytes (WebGPU does not report the GPU's memory). */
  budgetBytes: number;
}

export interface HfPolicySetup {
  /** "coder" or "tester": names the policy, its seed and the messages. */
  name: string;
  src: HfSource;
  /** Written into adapter_config.json's base_model_name_or_path. */
  baseModel: string;
  /** What to say when the plan does not fit (where the user changes the settings). */
  settingsHint: string;
  /** A saved policy's files (adapters + optimizer state) to continue from. */
  restore?: PolicyFiles;
  log?: (msg: string) => void;
  onProgress?: (p: ImportProgress) => void;
}

export async function loadHfPolicy(
  gpu: Gpu,
  config: TrainConfig,
  o: HfLoraSettings,
  s: HfPolicySetup,
): Promise<HfLoraPolicy> {
  const { name } = s;
  const log = s.log ?? (() => {});
  const tokenizer = await loadHfTokenizer(s.src);
  // A quantized rollout precision is also the frozen base's only form (FrozenBase): the import quantizes each
  // Linear weight as it streams and leaves its f32 slot empty, so no f32 copy of the base is ever made.
  const q = config.rollout.rollout_quant;
  // f16 rollouts sample from an f16 copy of the merged f32 learner, so the base is imported f32.
  const baseFormat = q === 'none' || q === 'f16' ? ('f32' as const) : quantFormatFor(q);
  const checkpoint = await importHfModel(s.src, {
    onProgress: s.onProgress,
    weights: baseFormat,
    denseLinear: baseFormat === 'f32',
  });
  const c = checkpoint.config;
  const seqLen = Math.min(c.maxSeqLen, neededSeqLen(config));
  const { num_generations: M, tester_generations: N, problems_per_step: P } = config.rollout;
  const limits: DeviceLimits = {
    maxBufferSize: gpu.device.limits.maxBufferSize,
    maxStorageBufferBindingSize: gpu.device.limits.maxStorageBufferBindingSize,
    budgetBytes: o.budgetBytes,
  };
  const settings = {
    baseFormat,
    lora: o.lora,
    rolloutBatch: name === 'coder' ? P * M : P * M * N,
    seqLen,
    microBatch: o.microBatch,
    recompute: config.optim.recompute,
    klReference: config.grpo.beta > 0,
    mergedLearner: baseFormat === 'f32',
    // The training step computes a micro-batch's whole logits at once: no chunked lm_head loss to suggest.
    memorySavers: false,
  };
  log(`${name}: ${s.src.label} (${c.layers} layers, hidden ${c.hidden}, vocab ${c.vocabSize}, context ${c.maxSeqLen})`);
  let plan;
  try {
    plan = checkMemory(c, settings, limits);
  } catch (e) {
    const why = `${name}: ${(e as Error).message}\n(${s.settingsHint})`;
    throw e instanceof MemoryPlanError ? new MemoryPlanError(why) : new Error(why);
  }
  log(
    `memory plan for the ${name} (LoRA r${o.lora.rank}, ${baseFormat} base, ${settings.rolloutBatch} rollouts × ${seqLen} tokens, micro-batch ${o.microBatch}):\n${formatPlan(plan)}`,
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
    baseModel: s.baseModel,
    restore: s.restore,
  });
}
