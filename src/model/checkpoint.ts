// Checkpoint save/load: the flat parameters ↔ safetensors (fp32 or weight-only quantized) + config.json + tokenizer.json.
//
// Quantized naming scheme (format in __metadata__.quant_format, one of QUANT_FORMATS): every 'linear' tensor
// `<name>` (HF [out, in]) is stored as two tensors
//   `<name>.qdata`  U32 [rows, wordsPerRow(format, cols)]  packed codes, layout as documented in quant.ts
//   `<name>.qscale` F32 [rows, scalesPerRow(format, cols)] per-row or per-block-32 scales
// while embeddings, norms and biases stay F32 under their HF names. Loading dequantizes into the fp32 flat buffer and
// also returns the QuantizedTensor objects unchanged, so a quantized rollout engine can upload them as stored.
import { toHfConfig, type HfConfig, type ModelConfig } from './config';
import { parseQwen2Config } from './hf/config';
import { buildLayout, type Layout, type TensorSpec } from './layout';
import {
  dequantize,
  quantize,
  QUANT_FORMATS,
  scalesPerRow,
  wordsPerRow,
  type QuantFormat,
  type QuantizedTensor,
} from '../gpu/quant';
import {
  bytesOf,
  CheckpointError,
  decodeSafetensors,
  encodeSafetensors,
  toFloat32,
  type SafeTensor,
} from './checkpoint-safetensors';

export { CheckpointError } from './checkpoint-safetensors';

export const WEIGHTS_FILE = 'model.safetensors';
export const CONFIG_FILE = 'config.json';
export const TOKENIZER_FILE = 'tokenizer.json';

/** The files of one checkpoint directory, as bytes/strings (platform adapters write them out). */
export interface CheckpointFiles {
  [WEIGHTS_FILE]: Uint8Array;
  [CONFIG_FILE]: string;
  [TOKENIZER_FILE]?: string;
}

export interface SaveOptions {
  /** Weight-only quantization of the linear layers; omitted means fp32. */
  quant?: QuantFormat;
  /** tokenizer.json text to store beside the weights. */
  tokenizerJson?: string;
  /** Extra string metadata (run id, step, …) for the safetensors header. */
  metadata?: Record<string, string>;
  /** Extra keys merged into config.json. */
  configExtra?: Record<string, unknown>;
}

export function saveCheckpoint(layout: Layout, params: Float32Array, opts: SaveOptions = {}): CheckpointFiles {
  if (params.length < layout.totalFloats)
    throw new CheckpointError(`save: params has ${params.length} floats, layout needs ${layout.totalFloats}`);
  const tensors: SafeTensor[] = [];
  for (const t of layout.tensors) {
    const values = params.slice(t.offset, t.offset + t.size);
    if (opts.quant && t.kind === 'linear') {
      const [rows, cols] = t.shape;
      const q = quantize(values, rows, cols, opts.quant);
      tensors.push({
        name: `${t.name}.qdata`,
        dtype: 'U32',
        shape: [rows, wordsPerRow(q.format, cols)],
        data: bytesOf(q.data),
      });
      tensors.push({
        name: `${t.name}.qscale`,
        dtype: 'F32',
        shape: [rows, scalesPerRow(q.format, cols)],
        data: bytesOf(q.scales),
      });
    } else {
      tensors.push({ name: t.name, dtype: 'F32', shape: t.shape, data: bytesOf(values) });
    }
  }
  const metadata: Record<string, string> = { format: 'pt', ...(opts.metadata ?? {}) };
  if (opts.quant) metadata.quant_format = opts.quant;
  const files: CheckpointFiles = {
    [WEIGHTS_FILE]: encodeSafetensors(tensors, metadata),
    [CONFIG_FILE]: JSON.stringify(
      toHfConfig(layout.config, { ...(opts.quant ? { code_a1_quant_format: opts.quant } : {}), ...opts.configExtra }),
      null,
      2,
    ),
  };
  if (opts.tokenizerJson !== undefined) files[TOKENIZER_FILE] = opts.tokenizerJson;
  return files;
}

export interface LoadInput {
  /** One or more safetensors files (HF shards); tensors are looked up across all of them. */
  weights: ArrayBuffer | ArrayBufferView | (ArrayBuffer | ArrayBufferView)[];
  /** config.json text or parsed object. */
  config: string | HfConfig;
  tokenizerJson?: string;
}

export interface LoadedCheckpoint {
  config: ModelConfig;
  layout: Layout;
  /** fp32 flat parameters (dequantized when the file is quantized). */
  params: Float32Array;
  /** The stored quantized tensors by HF name, when the checkpoint is quantized. */
  quantized?: Map<string, QuantizedTensor>;
  quantFormat?: QuantFormat;
  metadata: Record<string, string>;
  tokenizerJson?: string;
}

export function loadCheckpoint(input: LoadInput): LoadedCheckpoint {
  // The same reader as the Hugging Face importer: both RoPE spellings, the same refusals.
  const config = parseQwen2Config(input.config, { labCheckpoint: true }).config;
  const layout = buildLayout(config);
  const shards = Array.isArray(input.weights) ? input.weights : [input.weights];
  const all = new Map<string, SafeTensor>();
  let metadata: Record<string, string> = {};
  shards.forEach((s, i) => {
    const f = decodeSafetensors(s, shards.length > 1 ? `${WEIGHTS_FILE} shard ${i}` : WEIGHTS_FILE);
    for (const [k, v] of f.tensors) all.set(k, v);
    metadata = { ...metadata, ...f.metadata };
  });
  const fmt = metadata.quant_format;
  if (fmt !== undefined && !(QUANT_FORMATS as readonly string[]).includes(fmt)) {
    throw new CheckpointError(`${WEIGHTS_FILE}: unknown quant_format '${fmt}' (have ${QUANT_FORMATS.join(', ')})`);
  }
  const quantFormat = fmt as QuantFormat | undefined;
  const params = new Float32Array(layout.totalFloats);
  const quantized = quantFormat ? new Map<string, QuantizedTensor>() : undefined;
  for (const t of layout.tensors) {
    if (quantFormat && t.kind === 'linear' && !all.has(t.name)) {
      const q = readQuantized(all, t, quantFormat);
      quantized?.set(t.name, q);
      params.set(dequantize(q).subarray(0, t.size), t.offset);
    } else {
      params.set(readF32(all, t), t.offset);
    }
  }
  return { config, layout, params, quantized, quantFormat, metadata, tokenizerJson: input.tokenizerJson };
}

function sameShape(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function need(all: Map<string, SafeTensor>, name: string): SafeTensor {
  const t = all.get(name);
  if (!t) throw new CheckpointError(`${WEIGHTS_FILE}: missing tensor '${name}'`, name);
  return t;
}

function readF32(all: Map<string, SafeTensor>, spec: TensorSpec): Float32Array {
  const t = need(all, spec.name);
  if (!sameShape(t.shape, spec.shape)) {
    throw new CheckpointError(
      `${WEIGHTS_FILE}: tensor '${spec.name}' has shape [${t.shape.join(', ')}], the config needs [${spec.shape.join(', ')}]`,
      spec.name,
    );
  }
  if (t.dtype !== 'F32' && t.dtype !== 'F16' && t.dtype !== 'BF16' && t.dtype !== 'F64') {
    throw new CheckpointError(
      `${WEIGHTS_FILE}: tensor '${spec.name}' has dtype ${t.dtype}, expected a float dtype`,
      spec.name,
    );
  }
  return toFloat32(t);
}

function readQuantized(all: Map<string, SafeTensor>, spec: TensorSpec, format: QuantFormat): QuantizedTensor {
  const [rows, cols] = spec.shape;
  const d = need(all, `${spec.name}.qdata`);
  const s = need(all, `${spec.name}.qscale`);
  const dShape = [rows, wordsPerRow(format, cols)];
  const sShape = [rows, scalesPerRow(format, cols)];
  if (d.dtype !== 'U32')
    throw new CheckpointError(`${WEIGHTS_FILE}: tensor '${d.name}' has dtype ${d.dtype}, expected U32`, d.name);
  if (!sameShape(d.shape, dShape)) {
    throw new CheckpointError(
      `${WEIGHTS_FILE}: tensor '${d.name}' has shape [${d.shape.join(', ')}], ${format} of [${rows}, ${cols}] needs [${dShape.join(', ')}]`,
      d.name,
    );
  }
  if (!sameShape(s.shape, sShape)) {
    throw new CheckpointError(
      `${WEIGHTS_FILE}: tensor '${s.name}' has shape [${s.shape.join(', ')}], ${format} of [${rows}, ${cols}] needs [${sShape.join(', ')}]`,
      s.name,
    );
  }
  const data = new Uint32Array(d.data.byteLength / 4);
  new Uint8Array(data.buffer).set(d.data);
  return { format, rows, cols, data, scales: toFloat32(s) };
}
