// What the trainer needs from a model: batched sampling on rollout weights, a GRPO update, and state for checkpoints.
import type { TrainConfig } from './config';
import type { PromptFormat } from './prompts-chat';

export interface GenerateOptions {
  maxNewTokens: number;
  temperature: number;
  topP: number;
  topK?: number;
  /** Counter-based RNG seed: the same seed and prompts give the same samples. */
  seed: number;
  stop?: string[];
  /** Called with the number of finished sequences as decoding progresses. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Called at each of the sampler's batched read-backs (every few tokens, never per token) with the texts so far:
   * `text(i)` decodes sequence i on demand, so a view that shows a few sequences decodes only those.
   */
  onText?: (text: (i: number) => string, total: number) => void;
}

export interface Generation {
  /** Decoded completion text (end marker stripped by the caller). */
  text: string;
  promptTokens: number[];
  completionTokens: number[];
  /** Per-token log-probs of the rollout (quantized) policy. */
  rolloutLogprobs: number[];
  finishReason: 'stop' | 'length';
}

export interface GrpoItem {
  promptTokens: number[];
  completionTokens: number[];
  rolloutLogprobs: number[];
  advantage: number;
}

/** One sequence of a KTO update: desirable (+1) or undesirable (−1), from execution-derived preferences. */
export interface KtoItem {
  promptTokens: number[];
  completionTokens: number[];
  rolloutLogprobs: number[];
  label: 1 | -1;
}

/** One GRPO update's settings: the config's own groups, passed through, and this step's lr for this policy. */
export interface GrpoSettings {
  /** The policy's base lr (optim.lr or optim.tester_lr) on the schedule at this step; optim's own lr fields are unread. */
  lr: number;
  grpo: TrainConfig['grpo'];
  optim: TrainConfig['optim'];
  /** max_completion_length (dr_grpo's length) and the sampling temperature the loss takes log-probs at. */
  rollout: Pick<TrainConfig['rollout'], 'max_completion_length' | 'temperature'>;
  /** For a UI, not for the numbers: progress in micro-batches and a wait before each (where a pause holds). */
  progress?: UpdateProgress;
}

export interface UpdateProgress {
  /** Micro-batches whose GPU work has finished, of all this update records (passes × mini-batches × micro). */
  onMicro?: (done: number, total: number) => void;
  /** Awaited before each micro-batch is recorded. */
  beforeMicro?: () => Promise<void>;
}

/** A KTO update reuses the optimiser fields of GrpoSettings (the GRPO loss fields are unused) plus KTO's own. */
export interface KtoSettings extends GrpoSettings {
  kto: { beta: number; lambda_d: number; lambda_u: number };
}

export interface UpdateStats {
  loss: number;
  kl: number;
  entropy: number;
  clipLow: number;
  clipHigh: number;
  gradNorm: number;
  /** Mean per-token KL between the rollout (quantized) and learner policies on these sequences. */
  mismatchKl: number;
  /** The update was not applied (non-finite loss or gradients). */
  skipped: boolean;
  tokens: number;
}

/** A named set of files (safetensors, config.json, tokenizer.json, optimizer state) that restores a policy exactly. */
export type PolicyFiles = Record<string, Uint8Array>;

export interface Policy {
  readonly name: string;
  /** How this model's prompts are written and its answers read (default: the lab's raw format). */
  readonly promptFormat?: PromptFormat;
  generate(prompts: string[], opts: GenerateOptions): Promise<Generation[]>;
  grpoUpdate(items: GrpoItem[], settings: GrpoSettings): Promise<UpdateStats>;
  /** One KTO optimizer step (ACE's adversary); absent on policies that do not implement it. */
  ktoUpdate?(items: KtoItem[], settings: KtoSettings): Promise<UpdateStats>;
  /** Weights, optimizer moments and step count. */
  save(): Promise<PolicyFiles>;
  /** Every trainable tensor by name (for tests and the UI). */
  parameters(): Promise<Map<string, Float32Array>>;
  tokenCount(text: string): number;
}
