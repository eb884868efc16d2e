// The lab's models back to the Hugging Face ecosystem: a Qwen2ForCausalLM folder (config.json, safetensors in f32 /
// bf16 / f16, single or sharded with an index, tokenizer files) and LoRA adapters in PEFT's format
// (adapter_config.json + adapter_model.safetensors), both loadable by transformers / peft as they are.
import {
  bytesOf,
  CheckpointError,
  decodeSafetensors,
  encodeSafetensors,
  toFloat32,
  type SafeTensor,
} from '../checkpoint-safetensors';
import type { Layout } from '../layout';
import { f16Bits } from '../../gpu/f16';
import { LORA_TARGETS, validateLoraConfig, type LoraAdapters, type LoraPair, type LoraTarget } from './lora';

// The f16 rounding lives with the f16 kernels' emulation; re-exported for the exporter's callers.
export { f16Bits };

export type ExportDtype = 'f32' | 'bf16' | 'f16';

/** Output files by name: text (JSON, Jinja) or bytes (safetensors). */
export type HfFiles = Map<string, string | Uint8Array>;

export interface HfExportOptions {
  dtype?: ExportDtype;
  /** Split the weights into shards of at most this many bytes of tensor data (plus model.safetensors.index.json). */
  maxShardBytes?: number;
  /** Token ids for config.json / generation_config.json. */
  bosTokenId?: number;
  eosTokenIds?: number[];
  /** Tokenizer files to ship beside the weights (tokenizer.json, tokenizer_config.json, chat_template.jinja). */
  tokenizerFiles?: Map<string, string>;
}

const DTYPE: Record<ExportDtype, { st: 'F32' | 'BF16' | 'F16'; torch: string }> = {
  f32: { st: 'F32', torch: 'float32' },
  bf16: { st: 'BF16', torch: 'bfloat16' },
  f16: { st: 'F16', torch: 'float16' },
};

/** f32 → bf16 bits, round to nearest even (torch's .to(bfloat16)); NaN stays NaN. */
export function bf16Bits(x: number): number {
  F32[0] = x;
  return bf16FromU32(U32[0]);
}

// One scratch word for the scalar conversions (a fresh typed array per value made exporting 0.5B weights take minutes).
const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);

function bf16FromU32(u: number): number {
  if ((u & 0x7fffffff) > 0x7f800000) return (u >>> 16) | 0x40;
  return ((u + 0x7fff + ((u >>> 16) & 1)) >>> 16) & 0xffff;
}

/** A tensor's bytes in the export dtype. */
export function encodeValues(values: Float32Array, dtype: ExportDtype): Uint8Array {
  if (dtype === 'f32') return bytesOf(values.slice());
  const out = new Uint16Array(values.length);
  if (dtype === 'bf16') {
    const words = new Uint32Array(values.buffer, values.byteOffset, values.length);
    for (let i = 0; i < values.length; i++) out[i] = bf16FromU32(words[i]);
  } else for (let i = 0; i < values.length; i++) out[i] = f16Bits(values[i]);
  return bytesOf(out);
}

/** config.json in transformers 4.x's spelling, which transformers 5 reads as well. */
export function qwen2ConfigJson(
  layout: Layout,
  dtype: ExportDtype,
  opts: Pick<HfExportOptions, 'bosTokenId' | 'eosTokenIds'> = {},
): Record<string, unknown> {
  const c = layout.config;
  const eos = opts.eosTokenIds ?? [];
  return {
    architectures: ['Qwen2ForCausalLM'],
    model_type: 'qwen2',
    vocab_size: c.vocabSize,
    hidden_size: c.hidden,
    intermediate_size: c.intermediate,
    num_hidden_layers: c.layers,
    num_attention_heads: c.heads,
    num_key_value_heads: c.kvHeads,
    head_dim: c.headDim,
    hidden_act: 'silu',
    max_position_embeddings: c.maxSeqLen,
    rms_norm_eps: c.rmsEps,
    rope_theta: c.ropeTheta,
    rope_scaling: null,
    tie_word_embeddings: c.tiedEmbeddings,
    use_sliding_window: false,
    attention_dropout: 0.0,
    bos_token_id: opts.bosTokenId ?? null,
    eos_token_id: eos.length === 0 ? null : eos.length === 1 ? eos[0] : eos,
    torch_dtype: DTYPE[dtype].torch,
  };
}

/** Packs tensors into shards of at most maxBytes of data (a tensor larger than that gets a shard of its own). */
function shard(tensors: SafeTensor[], maxBytes: number | undefined): SafeTensor[][] {
  if (maxBytes === undefined) return [tensors];
  const out: SafeTensor[][] = [[]];
  let used = 0;
  for (const t of tensors) {
    const last = out[out.length - 1];
    if (last.length && used + t.data.byteLength > maxBytes) {
      out.push([t]);
      used = t.data.byteLength;
    } else {
      last.push(t);
      used += t.data.byteLength;
    }
  }
  return out;
}

/** Writes safetensors files (one, or shards named as transformers names them, with the index). */
function writeWeights(files: HfFiles, tensors: SafeTensor[], maxShardBytes: number | undefined): void {
  const shards = shard(tensors, maxShardBytes);
  if (shards.length === 1) {
    files.set('model.safetensors', encodeSafetensors(tensors, { format: 'pt' }));
    return;
  }
  const n = String(shards.length).padStart(5, '0');
  const weightMap: Record<string, string> = {};
  shards.forEach((s, i) => {
    const name = `model-${String(i + 1).padStart(5, '0')}-of-${n}.safetensors`;
    files.set(name, encodeSafetensors(s, { format: 'pt' }));
    for (const t of s) weightMap[t.name] = name;
  });
  const totalSize = tensors.reduce((a, t) => a + t.data.byteLength, 0);
  files.set(
    'model.safetensors.index.json',
    JSON.stringify({ metadata: { total_size: totalSize }, weight_map: weightMap }, null, 2),
  );
}

/**
 * A full Qwen2ForCausalLM folder from flat f32 parameters. Qwen2 always has q/k/v biases, so a model without them
 * is written with zero biases (same function).
 */
export function exportHfModel(layout: Layout, params: Float32Array, opts: HfExportOptions = {}): HfFiles {
  if (params.length < layout.totalFloats)
    throw new CheckpointError(`export: params has ${params.length} floats, the layout needs ${layout.totalFloats}`);
  const dtype = opts.dtype ?? 'f32';
  const st = DTYPE[dtype].st;
  const tensors: SafeTensor[] = [];
  const c = layout.config;
  for (const t of layout.tensors) {
    tensors.push({
      name: t.name,
      dtype: st,
      shape: t.shape,
      data: encodeValues(params.subarray(t.offset, t.offset + t.size), dtype),
    });
    if (!c.qkvBias && t.name.endsWith('_proj.weight') && /self_attn\.[qkv]_proj/.test(t.name)) {
      tensors.push({
        name: t.name.replace(/weight$/, 'bias'),
        dtype: st,
        shape: [t.shape[0]],
        data: encodeValues(new Float32Array(t.shape[0]), dtype),
      });
    }
  }
  const files: HfFiles = new Map();
  files.set('config.json', JSON.stringify(qwen2ConfigJson(layout, dtype, opts), null, 2));
  const gen: Record<string, unknown> = { do_sample: false };
  if (opts.bosTokenId !== undefined) gen.bos_token_id = opts.bosTokenId;
  if (opts.eosTokenIds?.length)
    gen.eos_token_id = opts.eosTokenIds.length === 1 ? opts.eosTokenIds[0] : opts.eosTokenIds;
  files.set('generation_config.json', JSON.stringify(gen, null, 2));
  writeWeights(files, tensors, opts.maxShardBytes);
  for (const [name, text] of opts.tokenizerFiles ?? []) files.set(name, text);
  return files;
}

/** PEFT's key prefix for a causal LM (PeftModelForCausalLM → base_model (LoraModel) → model (Qwen2ForCausalLM)). */
const PEFT_PREFIX = 'base_model.model.';

export const PEFT_CONFIG_FILE = 'adapter_config.json';
export const PEFT_WEIGHTS_FILE = 'adapter_model.safetensors';

/**
 * adapter_config.json's `base_model_name_or_path` when the lab cannot know where the base lives (files picked in a
 * browser): docs/hf.md tells the user to replace it with the base's path or hub id before PeftModel.from_pretrained.
 */
export const PEFT_BASE_PLACEHOLDER = 'FILL-IN-BASE-MODEL';

export function peftBasePlaceholder(label: string): string {
  return `${PEFT_BASE_PLACEHOLDER} (a path or hub id of the base; the lab loaded it from picked files '${label}')`;
}

/**
 * Where PEFT finds a base model that came from a local folder: the hub id when the folder is a snapshot in the Hugging
 * Face cache (`…/models--OWNER--NAME/snapshots/REV`, what `huggingface-cli download` and from_pretrained leave), else
 * the folder's absolute path (from_pretrained loads a folder by path). `path` must be absolute.
 */
export function peftBaseOf(path: string): string {
  const m = /(?:^|[/\\])models--([^/\\]+?)--([^/\\]+)[/\\]snapshots[/\\][^/\\]+[/\\]?$/.exec(path);
  return m ? `${m[1]}/${m[2]}` : path;
}

/** adapter_config.json + adapter_model.safetensors (f32), as PeftModel.save_pretrained writes them. */
export function exportPeftAdapter(adapters: LoraAdapters, baseModel: string): HfFiles {
  const c = validateLoraConfig(adapters.config);
  const tensors: SafeTensor[] = [];
  for (const [name, p] of adapters.pairs) {
    const stem = PEFT_PREFIX + name.replace(/\.weight$/, '');
    const [out, inp] = p.base.shape;
    tensors.push({ name: `${stem}.lora_A.weight`, dtype: 'F32', shape: [c.rank, inp], data: bytesOf(p.A) });
    tensors.push({ name: `${stem}.lora_B.weight`, dtype: 'F32', shape: [out, c.rank], data: bytesOf(p.B) });
  }
  const config = {
    peft_type: 'LORA',
    task_type: 'CAUSAL_LM',
    base_model_name_or_path: baseModel,
    r: c.rank,
    lora_alpha: c.alpha,
    lora_dropout: 0.0,
    target_modules: [...c.targets].sort(),
    bias: 'none',
    fan_in_fan_out: false,
    use_rslora: false,
    use_dora: false,
    inference_mode: true,
    modules_to_save: null,
  };
  return new Map<string, string | Uint8Array>([
    [PEFT_CONFIG_FILE, JSON.stringify(config, null, 2)],
    [PEFT_WEIGHTS_FILE, encodeSafetensors(tensors, { format: 'pt' })],
  ]);
}

/** Reads a PEFT LoRA adapter back onto a layout (our export or peft's); refuses what the lab cannot represent. */
export function importPeftAdapter(layout: Layout, configText: string, weights: Uint8Array): LoraAdapters {
  const cfg = JSON.parse(configText) as Record<string, unknown>;
  if (cfg.peft_type !== 'LORA')
    throw new Error(`adapter_config.json: peft_type '${String(cfg.peft_type)}' is not supported (need LORA)`);
  for (const [key, off] of [
    ['use_rslora', false],
    ['use_dora', false],
    ['fan_in_fan_out', false],
  ] as const) {
    if (cfg[key] !== undefined && cfg[key] !== off)
      throw new Error(`adapter_config.json: ${key} ${String(cfg[key])} is not supported`);
  }
  if (cfg.bias !== undefined && cfg.bias !== 'none')
    throw new Error(`adapter_config.json: bias '${String(cfg.bias)}' is not supported (need 'none')`);
  for (const key of ['rank_pattern', 'alpha_pattern'] as const) {
    const v = cfg[key];
    if (v && typeof v === 'object' && Object.keys(v).length)
      throw new Error(`adapter_config.json: ${key} is not supported (one rank and alpha for all modules)`);
  }
  if (cfg.modules_to_save) throw new Error('adapter_config.json: modules_to_save is not supported');
  const tm = cfg.target_modules;
  const targets = (typeof tm === 'string' ? [tm] : Array.isArray(tm) ? tm : []) as string[];
  const bad = targets.filter((t) => !(LORA_TARGETS as readonly string[]).includes(t));
  if (bad.length || !targets.length)
    throw new Error(
      `adapter_config.json: target_modules ${JSON.stringify(tm)} (supported: a list of ${LORA_TARGETS.join(', ')})`,
    );
  const config = validateLoraConfig({
    rank: Number(cfg.r),
    alpha: Number(cfg.lora_alpha),
    targets: targets as LoraTarget[],
  });
  const file = decodeSafetensors(weights, 'adapter_model.safetensors');
  const pairs = new Map<string, LoraPair>();
  const used = new Set<string>();
  for (const L of layout.layers) {
    for (const base of [L.q, L.k, L.v, L.o, L.gate, L.up, L.down]) {
      const short = base.name.split('.').at(-2) as LoraTarget;
      if (!config.targets.includes(short)) continue;
      const stem = PEFT_PREFIX + base.name.replace(/\.weight$/, '');
      const get = (part: 'A' | 'B', shape: number[]): Float32Array => {
        // peft ≥ 0.7 saves without the adapter name; older files say .lora_A.default.weight.
        const t =
          file.tensors.get(`${stem}.lora_${part}.weight`) ?? file.tensors.get(`${stem}.lora_${part}.default.weight`);
        if (!t) throw new Error(`adapter_model.safetensors: missing '${stem}.lora_${part}.weight'`);
        if (t.shape.join() !== shape.join())
          throw new Error(
            `adapter_model.safetensors: '${t.name}' has shape [${t.shape.join(', ')}], need [${shape.join(', ')}]`,
          );
        used.add(t.name);
        return toFloat32(t);
      };
      const [out, inp] = base.shape;
      pairs.set(base.name, { base, A: get('A', [config.rank, inp]), B: get('B', [out, config.rank]) });
    }
  }
  const extra = [...file.tensors.keys()].filter((k) => !used.has(k));
  if (extra.length)
    throw new Error(
      `adapter_model.safetensors: unexpected tensor '${extra[0]}'${extra.length > 1 ? ` and ${extra.length - 1} more` : ''}`,
    );
  return { config, pairs };
}

/**
 * tokenizer.json + tokenizer_config.json for a lab tokenizer (byte-level BPE, HF format already), so that
 * transformers' AutoTokenizer loads it: a fast tokenizer, no cleanup of spaces (it would corrupt code).
 */
export function labTokenizerFiles(
  tokenizerJson: string,
  opts: { eos: string; pad: string; modelMaxLength: number },
): Map<string, string> {
  const added = ((JSON.parse(tokenizerJson) as { added_tokens?: { content: string }[] }).added_tokens ?? []).map(
    (t) => t.content,
  );
  for (const t of [opts.eos, opts.pad])
    if (!added.includes(t)) throw new Error(`tokenizer export: ${t} is not an added token of tokenizer.json`);
  const config = {
    tokenizer_class: 'PreTrainedTokenizerFast',
    bos_token: null,
    eos_token: opts.eos,
    pad_token: opts.pad,
    unk_token: null,
    clean_up_tokenization_spaces: false,
    split_special_tokens: false,
    model_max_length: opts.modelMaxLength,
  };
  return new Map([
    ['tokenizer.json', tokenizerJson],
    ['tokenizer_config.json', JSON.stringify(config, null, 2)],
  ]);
}
