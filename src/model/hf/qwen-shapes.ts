// The published Qwen2.5-Coder-0.5B-Instruct config (for benches and plans with its exact shape), the LoRA run the
// planner's table and bench size by, and a model's forward FLOPs per token.
import type { ModelConfig } from '../config';
import { LORA_TARGETS } from './lora';
import type { PlanSettings } from './memory-plan';

/** Qwen/Qwen2.5-Coder-0.5B-Instruct's config.json, as published. */
export const QWEN25_CODER_05B_INSTRUCT = {
  architectures: ['Qwen2ForCausalLM'],
  attention_dropout: 0.0,
  bos_token_id: 151643,
  eos_token_id: 151645,
  hidden_act: 'silu',
  hidden_size: 896,
  initializer_range: 0.02,
  intermediate_size: 4864,
  max_position_embeddings: 32768,
  max_window_layers: 24,
  model_type: 'qwen2',
  num_attention_heads: 14,
  num_hidden_layers: 24,
  num_key_value_heads: 2,
  rms_norm_eps: 1e-6,
  rope_scaling: null,
  rope_theta: 1000000.0,
  sliding_window: 32768,
  tie_word_embeddings: true,
  torch_dtype: 'bfloat16',
  transformers_version: '4.44.0',
  use_cache: true,
  use_sliding_window: false,
  vocab_size: 151936,
};

/** A LoRA GRPO run of the release's scale: int4 base, rank-16 adapters, 8 rollouts of 2048 tokens, micro-batch 4. */
export const QWEN_LORA_RUN: PlanSettings = {
  baseFormat: 'int4-b32',
  lora: { rank: 16, alpha: 32, targets: [...LORA_TARGETS] },
  rolloutBatch: 8,
  seqLen: 2048,
  microBatch: 4,
  recompute: true,
  lmHeadChunk: 8192,
  klReference: true,
};

/** Forward FLOPs per token at a given context: 2 × every matmul weight (head included) + attention's QKᵀ and PV. */
export function flopsPerToken(c: ModelConfig, context: number): number {
  const q = c.heads * c.headDim;
  const kv = c.kvHeads * c.headDim;
  const perLayer = c.hidden * q + 2 * c.hidden * kv + q * c.hidden + 3 * c.hidden * c.intermediate;
  const attention = 2 * q * context;
  return 2 * c.layers * perLayer + 2 * c.layers * attention + 2 * c.vocabSize * c.hidden;
}
