// Hugging Face config.json of a Qwen2ForCausalLM (transformers 4.x and 5.x spellings) → the lab's ModelConfig: the one
// reader of config.json, for the HF importer (importHfModel) and the lab's own checkpoints (loadCheckpoint) alike, so
// both read RoPE's theta from either spelling and refuse the same variants (scaled RoPE, sliding windows, …).
import { validateConfig, type ModelConfig } from '../config';
import { CheckpointError } from '../checkpoint-safetensors';

export interface HfModelInfo {
  config: ModelConfig;
  /** generation stop ids from config.json (eos_token_id may be a number or a list). */
  eosTokenIds: number[];
  bosTokenId?: number;
  /** The checkpoint's own dtype label (torch_dtype / dtype), for the UI; the tensors' headers are what count. */
  dtype?: string;
  /** The model's trained context (max_position_embeddings), before any maxSeqLen cap. */
  maxPositionEmbeddings: number;
}

export interface HfConfigOptions {
  /** Cap on the sequence length the engine plans for (RoPE table, KV caches); default the model's own. */
  maxSeqLen?: number;
  /**
   * A lab checkpoint (saveCheckpoint): `attention_bias: false` is a model without q/k/v biases, which the lab can
   * train but transformers' Qwen2 cannot represent, so the HF importer refuses it.
   */
  labCheckpoint?: boolean;
}

/** Fields that only matter to training in PyTorch, to generation defaults or to bookkeeping: read and ignored. */
const IGNORED = new Set([
  'architectures',
  'model_type',
  'attention_dropout',
  'initializer_range',
  'use_cache',
  'transformers_version',
  'torch_dtype',
  'dtype',
  'bos_token_id',
  'eos_token_id',
  'pad_token_id',
  'sliding_window',
  'max_window_layers',
  'use_sliding_window',
  'layer_types',
  'rope_scaling',
  'rope_parameters',
  'output_attentions',
  'output_hidden_states',
  'return_dict',
  'name_or_path',
  '_name_or_path',
  'quantization_config',
  'use_mrope',
]);

/** Fields that define the computation; each is checked below. */
const READ = new Set([
  'vocab_size',
  'hidden_size',
  'num_hidden_layers',
  'num_attention_heads',
  'num_key_value_heads',
  'head_dim',
  'intermediate_size',
  'rope_theta',
  'rms_norm_eps',
  'tie_word_embeddings',
  'max_position_embeddings',
  'hidden_act',
  // The lab's own checkpoints say so explicitly; Qwen2 always has the biases.
  'attention_bias',
]);

function fail(msg: string): never {
  throw new CheckpointError(`config.json: ${msg}`);
}

/** Keys of the lab's own metadata (code_a1_quant_format, …): not part of the computation. */
const LAB_KEY = /^code_a1_/;

function int(hf: Record<string, unknown>, key: string): number {
  const v = hf[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0)
    fail(`'${key}' must be a positive integer, got ${JSON.stringify(v)}`);
  return v;
}

function num(hf: Record<string, unknown>, key: string, fallback: number): number {
  const v = hf[key];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !(v > 0)) fail(`'${key}' must be a positive number, got ${JSON.stringify(v)}`);
  return v;
}

function ids(v: unknown, key: string): number[] {
  if (v === undefined || v === null) return [];
  const arr = Array.isArray(v) ? v : [v];
  if (!arr.every((x) => typeof x === 'number' && Number.isInteger(x) && x >= 0))
    fail(`'${key}' must be a token id or a list of ids, got ${JSON.stringify(v)}`);
  return arr as number[];
}

/** RoPE θ from transformers 5's rope_parameters or 4's rope_theta + rope_scaling; anything but plain RoPE is refused. */
function ropeTheta(hf: Record<string, unknown>): number {
  const scaling = hf.rope_scaling;
  if (scaling !== undefined && scaling !== null) {
    const type = (scaling as Record<string, unknown>).rope_type ?? (scaling as Record<string, unknown>).type;
    if (type !== 'default')
      fail(
        `rope_scaling ${JSON.stringify(scaling)} is not supported (plain RoPE only); remove it to use the model at its native context`,
      );
  }
  const params = hf.rope_parameters;
  if (params !== undefined && params !== null) {
    if (typeof params !== 'object') fail(`rope_parameters must be an object, got ${JSON.stringify(params)}`);
    const p = params as Record<string, unknown>;
    const extra = Object.keys(p).filter((k) => k !== 'rope_type' && k !== 'rope_theta');
    if ((p.rope_type !== undefined && p.rope_type !== 'default') || extra.length) {
      fail(
        `rope_parameters ${JSON.stringify(p)} is not supported (plain RoPE only: rope_type 'default' and rope_theta)`,
      );
    }
    if (p.rope_theta !== undefined) {
      if (hf.rope_theta !== undefined && hf.rope_theta !== p.rope_theta)
        fail(`rope_theta ${String(hf.rope_theta)} contradicts rope_parameters.rope_theta ${String(p.rope_theta)}`);
      return num(p, 'rope_theta', 10000);
    }
  }
  return num(hf, 'rope_theta', 10000);
}

/**
 * Parses a Qwen2ForCausalLM config.json. Unknown fields are refused by name: a field we do not understand may change
 * the computation, and a model that silently computes something else is worse than one that does not load.
 */
export function parseQwen2Config(json: unknown, opts: HfConfigOptions = {}): HfModelInfo {
  if (typeof json === 'string') {
    try {
      json = JSON.parse(json) as unknown;
    } catch (e) {
      fail(`not valid JSON (${(e as Error).message})`);
    }
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail('must be a JSON object');
  const hf = json as Record<string, unknown>;
  const arch = hf.architectures;
  if (arch !== undefined && !(Array.isArray(arch) && arch.length === 1 && arch[0] === 'Qwen2ForCausalLM')) {
    fail(`architectures ${JSON.stringify(arch)} is not supported (need ["Qwen2ForCausalLM"])`);
  }
  if (hf.model_type !== undefined && hf.model_type !== 'qwen2')
    fail(`model_type '${String(hf.model_type)}' is not supported (need 'qwen2')`);
  const unknown = Object.keys(hf).filter((k) => !IGNORED.has(k) && !READ.has(k) && !LAB_KEY.test(k));
  if (unknown.length)
    fail(
      `unsupported field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k}'`).join(', ')} (a Qwen2ForCausalLM config has none of these)`,
    );
  if (hf.hidden_act !== undefined && hf.hidden_act !== 'silu')
    fail(`hidden_act '${String(hf.hidden_act)}' is not supported (need 'silu')`);
  if (hf.attention_bias !== undefined && typeof hf.attention_bias !== 'boolean')
    fail(`'attention_bias' must be true or false`);
  if (hf.attention_bias === false && !opts.labCheckpoint)
    fail(`attention_bias false is not supported (Qwen2's q/k/v projections have biases)`);
  if (hf.use_sliding_window === true) fail(`use_sliding_window true is not supported (full attention only)`);
  if (hf.quantization_config !== undefined)
    fail(`quantization_config is not supported: load the unquantized checkpoint (the lab quantizes on load)`);
  if (hf.use_mrope === true) fail(`use_mrope true is not supported (text-only RoPE)`);
  const layerTypes = hf.layer_types;
  if (layerTypes !== undefined && layerTypes !== null) {
    if (!Array.isArray(layerTypes)) fail(`layer_types must be a list`);
    const other = layerTypes.find((t) => t !== 'full_attention');
    if (other !== undefined) fail(`layer_types contains '${String(other)}' (full_attention only)`);
  }
  const tie = hf.tie_word_embeddings;
  if (tie !== undefined && typeof tie !== 'boolean') fail(`'tie_word_embeddings' must be true or false`);
  const hidden = int(hf, 'hidden_size');
  const heads = int(hf, 'num_attention_heads');
  const layers = int(hf, 'num_hidden_layers');
  if (Array.isArray(layerTypes) && layerTypes.length !== layers)
    fail(`layer_types has ${layerTypes.length} entries for ${layers} layers`);
  if (hf.head_dim === undefined && hidden % heads !== 0)
    fail(`hidden_size ${hidden} is not a multiple of num_attention_heads ${heads} and head_dim is absent`);
  const maxPositionEmbeddings = hf.max_position_embeddings === undefined ? 32768 : int(hf, 'max_position_embeddings');
  const dtype = hf.torch_dtype ?? hf.dtype;
  const config = validateConfig({
    vocabSize: int(hf, 'vocab_size'),
    hidden,
    layers,
    heads,
    kvHeads: hf.num_key_value_heads === undefined ? heads : int(hf, 'num_key_value_heads'),
    headDim: hf.head_dim === undefined ? hidden / heads : int(hf, 'head_dim'),
    intermediate: int(hf, 'intermediate_size'),
    ropeTheta: ropeTheta(hf),
    rmsEps: num(hf, 'rms_norm_eps', 1e-6),
    // Qwen2's q/k/v projections always carry a bias (modeling_qwen2.py hard-codes bias=True); a lab checkpoint may not.
    qkvBias: hf.attention_bias !== false,
    // Qwen2Config defaults tie_word_embeddings to false.
    tiedEmbeddings: tie ?? false,
    maxSeqLen: Math.min(maxPositionEmbeddings, opts.maxSeqLen ?? maxPositionEmbeddings),
  });
  const bos = ids(hf.bos_token_id, 'bos_token_id');
  return {
    config,
    eosTokenIds: ids(hf.eos_token_id, 'eos_token_id'),
    bosTokenId: bos[0],
    dtype: typeof dtype === 'string' ? dtype : undefined,
    maxPositionEmbeddings,
  };
}
