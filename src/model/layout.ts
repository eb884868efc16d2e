// Flat parameter layout: one f32 buffer cut by a size table of HF-named tensors, each aligned for sub-range binding.
import type { ModelConfig } from './config';

/**
 * Tensors start at multiples of 64 floats = 256 bytes, WebGPU's default minStorageBufferOffsetAlignment, so any
 * tensor of the flat buffer can be bound as { buffer, offset, size }. The gradient and both AdamW moment buffers use
 * the same layout; padding floats stay zero (AdamW keeps zeros at zero, so they never drift).
 */
export const ALIGN_FLOATS = 64;

/** What a tensor is for; the init and weight decay depend on it. */
export type TensorKind = 'embedding' | 'linear' | 'bias' | 'norm';

export interface TensorSpec {
  /** HF name, e.g. model.layers.3.self_attn.q_proj.weight. */
  name: string;
  /** HF shape: Linear weights are [out, in]. */
  shape: number[];
  kind: TensorKind;
  /** Offset in floats into the flat buffer (multiple of ALIGN_FLOATS). */
  offset: number;
  /** Element count (product of shape). */
  size: number;
  /** Layer index, or -1 for the embeddings / final norm / lm_head. */
  layer: number;
}

/** Per-layer tensors, by short name, so orchestration code never builds strings in its inner loops. */
export interface LayerTensors {
  inputNorm: TensorSpec;
  q: TensorSpec;
  k: TensorSpec;
  v: TensorSpec;
  qBias?: TensorSpec;
  kBias?: TensorSpec;
  vBias?: TensorSpec;
  o: TensorSpec;
  postNorm: TensorSpec;
  gate: TensorSpec;
  up: TensorSpec;
  down: TensorSpec;
}

export interface Layout {
  config: ModelConfig;
  tensors: TensorSpec[];
  byName: Map<string, TensorSpec>;
  embed: TensorSpec;
  layers: LayerTensors[];
  finalNorm: TensorSpec;
  /** lm_head.weight, or the embedding when tied. */
  lmHead: TensorSpec;
  /** Total floats including alignment padding. */
  totalFloats: number;
  /** Unpadded parameter count. */
  paramCount: number;
}

export function alignUp(n: number, a = ALIGN_FLOATS): number {
  return Math.ceil(n / a) * a;
}

export function layerPrefix(i: number): string {
  return `model.layers.${i}.`;
}

/** Builds the size table in HF order (embedding, layers 0..L-1, final norm, lm_head). */
export function buildLayout(config: ModelConfig): Layout {
  const { hidden: H, heads, kvHeads, headDim, intermediate: I, vocabSize: V } = config;
  const qDim = heads * headDim;
  const kvDim = kvHeads * headDim;
  const tensors: TensorSpec[] = [];
  let offset = 0;
  const add = (name: string, shape: number[], kind: TensorKind, layer: number): TensorSpec => {
    const size = shape.reduce((a, b) => a * b, 1);
    const t: TensorSpec = { name, shape, kind, offset, size, layer };
    tensors.push(t);
    offset = alignUp(offset + size);
    return t;
  };
  const embed = add('model.embed_tokens.weight', [V, H], 'embedding', -1);
  const layers: LayerTensors[] = [];
  for (let l = 0; l < config.layers; l++) {
    const p = layerPrefix(l);
    const inputNorm = add(`${p}input_layernorm.weight`, [H], 'norm', l);
    const q = add(`${p}self_attn.q_proj.weight`, [qDim, H], 'linear', l);
    const qBias = config.qkvBias ? add(`${p}self_attn.q_proj.bias`, [qDim], 'bias', l) : undefined;
    const k = add(`${p}self_attn.k_proj.weight`, [kvDim, H], 'linear', l);
    const kBias = config.qkvBias ? add(`${p}self_attn.k_proj.bias`, [kvDim], 'bias', l) : undefined;
    const v = add(`${p}self_attn.v_proj.weight`, [kvDim, H], 'linear', l);
    const vBias = config.qkvBias ? add(`${p}self_attn.v_proj.bias`, [kvDim], 'bias', l) : undefined;
    const o = add(`${p}self_attn.o_proj.weight`, [H, qDim], 'linear', l);
    const postNorm = add(`${p}post_attention_layernorm.weight`, [H], 'norm', l);
    const gate = add(`${p}mlp.gate_proj.weight`, [I, H], 'linear', l);
    const up = add(`${p}mlp.up_proj.weight`, [I, H], 'linear', l);
    const down = add(`${p}mlp.down_proj.weight`, [H, I], 'linear', l);
    layers.push({ inputNorm, q, k, v, qBias, kBias, vBias, o, postNorm, gate, up, down });
  }
  const finalNorm = add('model.norm.weight', [H], 'norm', -1);
  const lmHead = config.tiedEmbeddings ? embed : add('lm_head.weight', [V, H], 'linear', -1);
  const byName = new Map(tensors.map((t) => [t.name, t]));
  const paramCount = tensors.reduce((a, t) => a + t.size, 0);
  return {
    config,
    tensors,
    byName,
    embed,
    layers,
    finalNorm,
    lmHead,
    totalFloats: Math.max(offset, ALIGN_FLOATS),
    paramCount,
  };
}

/** A typed view of one tensor inside a flat host array (no copy). */
export function view<T extends Float32Array | Float64Array>(flat: T, t: TensorSpec): T {
  return flat.subarray(t.offset, t.offset + t.size) as T;
}

/** Buffer binding for one tensor of a flat GPU buffer (offsets are 256-byte aligned by construction). */
export function binding(buffer: GPUBuffer, t: TensorSpec): GPUBufferBinding {
  return { buffer, offset: t.offset * 4, size: t.size * 4 };
}

/** Mask of floats that get weight decay (linear weights and embeddings; not norms or biases), as 0/1 per float. */
export function decayMask(layout: Layout): Float32Array {
  const m = new Float32Array(layout.totalFloats);
  for (const t of layout.tensors)
    if (t.kind === 'linear' || t.kind === 'embedding') m.fill(1, t.offset, t.offset + t.size);
  return m;
}

/** Human-readable size table, for logs and the UI. */
export function describeLayout(layout: Layout): string {
  const rows = layout.tensors.map((t) => `${t.name.padEnd(48)} [${t.shape.join(', ')}] @${t.offset}`);
  rows.push(`total ${layout.paramCount} params, ${layout.totalFloats} floats with padding`);
  return rows.join('\n');
}
