// What the trainer needs from a model: batched sampling on rollout weights, a GRPO update, and state for checkpoints.
import type { LossType } from './config';
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

export interface GrpoSettings {
  lr: number;
  epsilon_low: number;
  epsilon_high: number;
  dual_clip_c: number;
  beta: number;
  loss_type: LossType;
  max_completion_length: number;
  is_cap: number;
  max_grad_norm: number;
  weight_decay: number;
  /** 'all' decays every tensor (the release); 'matrices' spares norms and biases. */
  weight_decay_params: 'all' | 'matrices';
  /** AdamW steps per update: the items are cut into this many contiguous mini-batches (verl ppo_mini_batch_size). */
  mini_batches: number;
  /** Passes over the items (TRL num_iterations / verl ppo_epochs). */
  num_iterations: number;
  beta1: number;
  beta2: number;
  eps: number;
  /** Sampling temperature: log-probs in the loss are taken at it (TRL divides logits by it). */
  temperature: number;
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
