// Hugging Face Qwen2 checkpoint → the lab's flat parameters: config.json checked, then tensors streamed one at a time
// (f32 / f16 / bf16 converted to f32, linear weights optionally rounded to f16 or block-quantized on the fly), with
// progress.
import { CheckpointError, toFloat32 } from '../checkpoint-safetensors';
import type { LoadedCheckpoint } from '../checkpoint';
import { buildLayout, type TensorSpec } from '../layout';
import { dequantize, quantize, type QuantFormat, type QuantizedTensor } from '../../gpu/quant';
import { fromHalves, toHalves } from '../../gpu/f16';
import { parseQwen2Config, type HfConfigOptions, type HfModelInfo } from './config';
import { indexCheckpoint, readTensor, type TensorEntry } from './safetensors-stream';
import { readJson, type HfSource } from './source';

/**
 * The GPU weight format: f32, f16 (the f16 compute path, f16-weights.ts; devices with 'shader-f16'), or a
 * block-quantized format of quant.ts for every Linear weight.
 */
export type WeightFormat = 'f32' | 'f16' | QuantFormat;

export interface ImportProgress {
  bytesDone: number;
  bytesTotal: number;
  tensorsDone: number;
  tensorsTotal: number;
  /** The tensor just converted. */
  tensor: string;
}

export interface ImportOptions extends HfConfigOptions {
  weights?: WeightFormat;
  /**
   * With a quantized or f16 format, also fill the f32 parameters' Linear slots with the dequantized (f16-rounded)
   * weights (default true, so a GpuModel can run them). false leaves those slots zero, for a frozen base whose f32
   * copy would not fit.
   */
  denseLinear?: boolean;
  onProgress?: (p: ImportProgress) => void;
}

export interface HfImported extends LoadedCheckpoint {
  info: HfModelInfo;
  weightFormat: WeightFormat;
  /**
   * weights 'f16': half bits of every Linear weight by name, and of the lm_head (the embedding's name when tied:
   * its f16 copy, while the lookup table stays f32), for F16Weights.
   */
  halves?: Map<string, Uint16Array>;
}

const FLOAT_DTYPES = new Set(['F32', 'F16', 'BF16']);

/** Tensors some exporters add that carry nothing the forward needs (RoPE tables are recomputed). */
function isIgnorable(name: string, tied: boolean): boolean {
  return name.endsWith('.rotary_emb.inv_freq') || (tied && name === 'lm_head.weight');
}

function sameShape(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Checks every expected tensor's presence, shape and dtype, and refuses tensors the model has no place for. */
function plan(
  src: HfSource,
  tensors: TensorSpec[],
  entries: Map<string, TensorEntry>,
  tied: boolean,
): { spec: TensorSpec; entry: TensorEntry }[] {
  const out: { spec: TensorSpec; entry: TensorEntry }[] = [];
  for (const spec of tensors) {
    const entry = entries.get(spec.name);
    if (!entry)
      throw new CheckpointError(
        `${src.label}: missing tensor '${spec.name}' (config.json expects [${spec.shape.join(', ')}])`,
        spec.name,
      );
    if (!sameShape(entry.shape, spec.shape)) {
      throw new CheckpointError(
        `${src.label}/${entry.file}: tensor '${spec.name}' has shape [${entry.shape.join(', ')}], config.json needs [${spec.shape.join(', ')}]`,
        spec.name,
      );
    }
    if (!FLOAT_DTYPES.has(entry.dtype)) {
      throw new CheckpointError(
        `${src.label}/${entry.file}: tensor '${spec.name}' has dtype ${entry.dtype} (need F32, F16 or BF16)`,
        spec.name,
      );
    }
    out.push({ spec, entry });
  }
  const known = new Set(tensors.map((t) => t.name));
  const extra = [...entries.keys()].filter((n) => !known.has(n) && !isIgnorable(n, tied));
  if (extra.length) {
    throw new CheckpointError(
      `${src.label}: unexpected tensor${extra.length > 1 ? 's' : ''} ${extra
        .slice(0, 5)
        .map((n) => `'${n}'`)
        .join(
          ', ',
        )}${extra.length > 5 ? ` and ${extra.length - 5} more` : ''} (not part of a Qwen2ForCausalLM with this config)`,
      extra[0],
    );
  }
  // File order, then offset order: sequential reads for disks and range requests alike.
  return out.sort((a, b) =>
    a.entry.file < b.entry.file ? -1 : a.entry.file > b.entry.file ? 1 : a.entry.fileOffset - b.entry.fileOffset,
  );
}

/** config.json parsed, the safetensors headers read, every tensor planned: all checks, no weight read. */
async function prepare(src: HfSource, opts: HfConfigOptions) {
  const configJson = await readJson(src, 'config.json');
  if (configJson === undefined) throw new CheckpointError(`${src.label}: no config.json`);
  const info = parseQwen2Config(configJson, opts);
  const layout = buildLayout(info.config);
  const index = await indexCheckpoint(src);
  return { info, layout, index, work: plan(src, layout.tensors, index.entries, info.config.tiedEmbeddings) };
}

export interface HfModelSummary {
  info: HfModelInfo;
  /** Parameters of the model (tied head counted once). */
  params: number;
  /** Bytes of all tensors in the checkpoint's own dtypes. */
  bytes: number;
  files: string[];
}

/**
 * Checks a folder without reading any weight: config.json, the safetensors headers (every tensor present with its
 * shape and a float dtype, nothing extra). What the page runs on picked or downloaded files before accepting them.
 */
export async function checkHfModel(src: HfSource, opts: HfConfigOptions = {}): Promise<HfModelSummary> {
  const { info, layout, index, work } = await prepare(src, opts);
  return {
    info,
    params: layout.paramCount,
    bytes: work.reduce((a, w) => a + w.entry.end - w.entry.begin, 0),
    files: index.files,
  };
}

/** Imports a Qwen2ForCausalLM folder (config.json + safetensors) into flat f32 parameters and optional quantized weights. */
export async function importHfModel(src: HfSource, opts: ImportOptions = {}): Promise<HfImported> {
  const { info, layout, index, work } = await prepare(src, opts);
  const format = opts.weights ?? 'f32';
  const denseLinear = opts.denseLinear ?? true;
  const params = new Float32Array(layout.totalFloats);
  const quantized = format === 'f32' || format === 'f16' ? undefined : new Map<string, QuantizedTensor>();
  const halves = format === 'f16' ? new Map<string, Uint16Array>() : undefined;
  const bytesTotal = work.reduce((a, w) => a + w.entry.end - w.entry.begin, 0);
  let bytesDone = 0;
  let tensorsDone = 0;
  for (const { spec, entry } of work) {
    const values = toFloat32(await readTensor(src, entry));
    if (halves && (spec.kind === 'linear' || spec === layout.lmHead)) {
      const h = toHalves(values);
      halves.set(spec.name, h);
      if (spec.kind !== 'linear') params.set(values, spec.offset);
      else if (denseLinear) params.set(fromHalves(h), spec.offset);
    } else if (quantized && spec.kind === 'linear') {
      const [rows, cols] = spec.shape;
      const q = quantize(values, rows, cols, format as QuantFormat);
      quantized.set(spec.name, q);
      if (denseLinear) params.set(dequantize(q).subarray(0, spec.size), spec.offset);
    } else {
      params.set(values, spec.offset);
    }
    bytesDone += entry.end - entry.begin;
    tensorsDone++;
    opts.onProgress?.({ bytesDone, bytesTotal, tensorsDone, tensorsTotal: work.length, tensor: spec.name });
  }
  return {
    config: info.config,
    layout,
    params,
    quantized,
    quantFormat: quantized ? (format as QuantFormat) : undefined,
    metadata: index.metadata,
    info,
    weightFormat: format,
    halves,
  };
}
