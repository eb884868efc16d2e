// Model configuration in the Qwen2 family's shape: named presets and conversion to HF config.json (reading one back
// is hf/config.ts's parseQwen2Config, the one reader of config.json).

/** Decoder-only transformer: RMSNorm, RoPE (HF rotate-half), grouped-query attention, SwiGLU MLP. */
export interface ModelConfig {
  vocabSize: number;
  /** Residual width (HF hidden_size). */
  hidden: number;
  layers: number;
  /** Query heads; must be a multiple of kvHeads (GQA). */
  heads: number;
  kvHeads: number;
  /** Per-head width; Qwen2 derives it as hidden / heads, but we keep it explicit so it may differ. */
  headDim: number;
  /** SwiGLU inner width (HF intermediate_size). */
  intermediate: number;
  ropeTheta: number;
  rmsEps: number;
  /** Bias on q/k/v projections (Qwen2 has it, Llama does not). */
  qkvBias: boolean;
  /** lm_head shares model.embed_tokens.weight. */
  tiedEmbeddings: boolean;
  /** Longest sequence (prompt + completion) the engine plans buffers for. */
  maxSeqLen: number;
}

export type PresetName = 'micro' | 'tiny' | 'small';

/**
 * micro: tests and CI (~35 K params; a training step takes milliseconds of math).
 * tiny: the embedded default; ~1 M params so supervised pretraining on a 2-core CPU (SwiftShader, ~2 GFLOP/s)
 *   sees a few hundred thousand tokens within an hour (6 · 1 M FLOP per token).
 * small: for real GPUs (~88 M params).
 */
export const PRESETS: Record<PresetName, ModelConfig> = {
  micro: {
    vocabSize: 512,
    hidden: 32,
    layers: 2,
    heads: 4,
    kvHeads: 2,
    headDim: 8,
    intermediate: 64,
    ropeTheta: 10000,
    rmsEps: 1e-6,
    qkvBias: true,
    tiedEmbeddings: true,
    maxSeqLen: 128,
  },
  tiny: {
    vocabSize: 1024,
    hidden: 128,
    layers: 4,
    heads: 4,
    kvHeads: 2,
    headDim: 32,
    intermediate: 384,
    ropeTheta: 10000,
    rmsEps: 1e-6,
    qkvBias: true,
    tiedEmbeddings: true,
    maxSeqLen: 512,
  },
  small: {
    vocabSize: 16384,
    hidden: 768,
    layers: 12,
    heads: 12,
    kvHeads: 4,
    headDim: 64,
    intermediate: 2048,
    ropeTheta: 1_000_000,
    rmsEps: 1e-6,
    qkvBias: true,
    tiedEmbeddings: true,
    maxSeqLen: 2048,
  },
};

export function preset(name: PresetName, overrides: Partial<ModelConfig> = {}): ModelConfig {
  const base = PRESETS[name];
  if (!base) throw new Error(`unknown model preset '${name}' (have ${Object.keys(PRESETS).join(', ')})`);
  return validateConfig({ ...base, ...overrides });
}

export function validateConfig(c: ModelConfig): ModelConfig {
  const ints: (keyof ModelConfig)[] = [
    'vocabSize',
    'hidden',
    'layers',
    'heads',
    'kvHeads',
    'headDim',
    'intermediate',
    'maxSeqLen',
  ];
  for (const k of ints) {
    const v = c[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0)
      throw new Error(`model config: ${k} must be a positive integer, got ${String(v)}`);
  }
  if (c.heads % c.kvHeads !== 0)
    throw new Error(`model config: heads (${c.heads}) must be a multiple of kvHeads (${c.kvHeads})`);
  if (c.headDim % 2 !== 0) throw new Error(`model config: headDim (${c.headDim}) must be even for RoPE`);
  if (!(c.ropeTheta > 0)) throw new Error(`model config: ropeTheta must be > 0`);
  if (!(c.rmsEps > 0)) throw new Error(`model config: rmsEps must be > 0`);
  return c;
}

/** Total parameter count (unpadded). */
export function paramCount(c: ModelConfig): number {
  const q = c.heads * c.headDim;
  const kv = c.kvHeads * c.headDim;
  const perLayer =
    2 * c.hidden +
    q * c.hidden +
    kv * c.hidden * 2 +
    c.hidden * q +
    3 * c.hidden * c.intermediate +
    (c.qkvBias ? q + 2 * kv : 0);
  return c.vocabSize * c.hidden * (c.tiedEmbeddings ? 1 : 2) + c.layers * perLayer + c.hidden;
}

/** The subset of HF's Qwen2Config that we read and write. */
export interface HfConfig {
  architectures?: string[];
  model_type?: string;
  vocab_size: number;
  hidden_size: number;
  num_hidden_layers: number;
  num_attention_heads: number;
  num_key_value_heads?: number;
  head_dim?: number;
  intermediate_size: number;
  rope_theta?: number;
  rms_norm_eps?: number;
  tie_word_embeddings?: boolean;
  max_position_embeddings?: number;
  attention_bias?: boolean;
  hidden_act?: string;
  torch_dtype?: string;
  [key: string]: unknown;
}

/** ModelConfig → HF config.json object (Qwen2ForCausalLM), loadable by transformers. */
export function toHfConfig(c: ModelConfig, extra: Record<string, unknown> = {}): HfConfig {
  return {
    architectures: ['Qwen2ForCausalLM'],
    model_type: 'qwen2',
    vocab_size: c.vocabSize,
    hidden_size: c.hidden,
    num_hidden_layers: c.layers,
    num_attention_heads: c.heads,
    num_key_value_heads: c.kvHeads,
    head_dim: c.headDim,
    intermediate_size: c.intermediate,
    rope_theta: c.ropeTheta,
    rms_norm_eps: c.rmsEps,
    tie_word_embeddings: c.tiedEmbeddings,
    max_position_embeddings: c.maxSeqLen,
    attention_bias: c.qkvBias,
    hidden_act: 'silu',
    torch_dtype: 'float32',
    ...extra,
  };
}
