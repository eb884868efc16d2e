// Memory planner for a run on one GPU: weights + LoRA adapters + gradients + AdamW state + KV cache + activations +
// logits, against the device's limits (maxBufferSize, maxStorageBufferBindingSize) and a byte budget. Refuses with
// the first cheaper setting that fits, so the user sees what to change instead of an out-of-memory crash.
import type { ModelConfig } from '../config';
import { buildLayout, type Layout } from '../layout';
import { blocksPerRow, QUANT_BLOCK, type QuantFormat } from '../../gpu/quant';
import { loraParamCount, type LoraConfig } from './lora';

export type BaseFormat = 'f32' | 'f16' | QuantFormat;

export interface PlanSettings {
  /** How the (frozen, with LoRA) base's Linear weights are held. Full fine-tuning needs 'f32'. */
  baseFormat: BaseFormat;
  /** LoRA adapters; undefined = full fine-tuning of every parameter (the lab's embedded models). */
  lora?: LoraConfig;
  /** Sequences decoded at once in a rollout (KV cache rows). */
  rolloutBatch: number;
  /** Longest prompt + completion. */
  seqLen: number;
  /** Sequences per training forward/backward (gradient accumulation covers the rest of the batch). */
  microBatch: number;
  /** Per-layer activation recompute (optim.recompute): keep only each layer's input, recompute the rest in the backward. */
  recompute: boolean;
  /** Vocabulary rows per lm_head / loss chunk; undefined = all logits of a micro-batch at once. */
  lmHeadChunk?: number;
  /** GRPO's KL term needs the reference policy: the base with adapters off under LoRA, a frozen copy otherwise. */
  klReference: boolean;
  /**
   * LoRA through LoraLearner (what runs today): merged f32 weights in the flat layout, an f32 copy of the base, full
   * weight gradients; the KL reference is the learner with the adapters off (no third copy). Needs baseFormat 'f32'.
   */
  mergedLearner?: boolean;
  /**
   * Whether the run can turn on a chunked lm_head loss when memory is short (default: unless mergedLearner). The
   * lab's training step does not have one yet, so runs that plan what they execute pass false. Recompute is always
   * suggested: every training step can do it (optim.recompute).
   */
  memorySavers?: boolean;
}

export interface DeviceLimits {
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
  /** Bytes the run may use in total (the user's setting, or what the GPU is known to have). */
  budgetBytes: number;
}

export interface PlanItem {
  name: string;
  bytes: number;
  /** The largest single buffer of this item (what must fit maxBufferSize / one binding). */
  largestBuffer: number;
}

export interface MemoryPlan {
  settings: PlanSettings;
  items: PlanItem[];
  totalBytes: number;
  fits: boolean;
  /** Why it does not fit, one line each. */
  problems: string[];
}

/** Bytes of a [rows, cols] Linear weight in a format (block formats: codes + one f32 scale per 32 columns). */
export function linearBytes(rows: number, cols: number, format: BaseFormat): number {
  switch (format) {
    case 'f32':
      return rows * cols * 4;
    case 'f16':
      // linear-f16.ts pads each row to a multiple of 4 halves (vec4 loads): half of f32 for 4-aligned widths.
      return rows * Math.ceil(cols / 4) * 4 * 2;
    case 'int8-row':
      return rows * (blocksPerRow(cols) * QUANT_BLOCK + 4);
    case 'int8-b32':
      return rows * blocksPerRow(cols) * (QUANT_BLOCK + 4);
    case 'int4-b32':
      return rows * blocksPerRow(cols) * (QUANT_BLOCK / 2 + 4);
  }
}

/**
 * The largest buffer of a [rows, rowBytes] matrix that GpuModel / FrozenBase split by rows to fit one binding:
 * itself when it fits, else as many whole rows as fit.
 */
function rowChunked(rows: number, rowBytes: number, limits: DeviceLimits): number {
  const cap = Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
  return rows * rowBytes <= cap ? rows * rowBytes : Math.max(1, Math.floor(cap / rowBytes)) * rowBytes;
}

function weightItems(layout: Layout, s: PlanSettings, limits: DeviceLimits): PlanItem[] {
  const c = layout.config;
  const embedRow = c.hidden * 4;
  if (s.baseFormat === 'f32' && (!s.lora || s.mergedLearner)) {
    // One flat f32 buffer, as GpuModel holds a model it trains fully (gradients and AdamW over one buffer).
    const bytes = layout.totalFloats * 4;
    return [{ name: 'weights (f32, one flat buffer)', bytes, largestBuffer: bytes }];
  }
  if (s.baseFormat === 'f32') {
    // A frozen f32 base: GpuModel's segments of whole tensors, the embedding and lm_head in row chunks.
    const bytes = layout.totalFloats * 4;
    let largest = rowChunked(c.vocabSize, embedRow, limits);
    for (const t of layout.tensors)
      if (t !== layout.embed && t !== layout.lmHead) largest = Math.max(largest, t.size * 4);
    return [{ name: 'weights (f32, frozen, per-tensor buffers)', bytes, largestBuffer: largest }];
  }
  let linear = 0;
  let largest = 0;
  const add = (rows: number, cols: number) => {
    const b = linearBytes(rows, cols, s.baseFormat);
    linear += b;
    largest = Math.max(largest, rowChunked(rows, b / rows, limits));
  };
  for (const t of layout.tensors) if (t.kind === 'linear') add(t.shape[0], t.shape[1]);
  // A tied head still needs its own copy in the base format for the lm_head matmul (the lookup table stays f32).
  if (c.tiedEmbeddings) add(c.vocabSize, c.hidden);
  const embed = c.vocabSize * embedRow;
  const small = layout.tensors
    .filter((t) => t.kind === 'norm' || t.kind === 'bias')
    .reduce((a, t) => a + t.size * 4, 0);
  return [
    { name: `weights (Linear in ${s.baseFormat}, no f32 copy)`, bytes: linear, largestBuffer: largest },
    { name: 'embedding table (f32)', bytes: embed, largestBuffer: rowChunked(c.vocabSize, embedRow, limits) },
    { name: 'norms and biases (f32)', bytes: small, largestBuffer: small },
  ];
}

/** Floats saved per token per layer for the backward (forward.ts's LayerActs). */
function actFloatsPerTokenLayer(c: ModelConfig): number {
  const q = c.heads * c.headDim;
  const kv = c.kvHeads * c.headDim;
  return 4 * c.hidden + 2 * q + 2 * kv + 3 * c.intermediate + c.heads + 2;
}

export function planMemory(config: ModelConfig, s: PlanSettings, limits: DeviceLimits): MemoryPlan {
  const layout = buildLayout(config);
  const c = config;
  const items = weightItems(layout, s, limits);
  const problems: string[] = [];
  if (!s.lora && s.baseFormat !== 'f32')
    problems.push(`full fine-tuning needs f32 weights (base format is ${s.baseFormat}); use LoRA or f32`);
  const trainable = s.lora ? loraParamCount(layout, s.lora) * 4 : layout.totalFloats * 4;
  if (s.lora)
    items.push({ name: `LoRA adapters (rank ${s.lora.rank}, f32)`, bytes: trainable, largestBuffer: trainable });
  items.push({ name: 'gradients (f32)', bytes: trainable, largestBuffer: trainable });
  items.push({ name: 'AdamW moments (2 × f32)', bytes: 2 * trainable, largestBuffer: trainable });
  if (s.klReference && !s.lora)
    items.push({
      name: 'KL reference policy (frozen copy)',
      bytes: layout.totalFloats * 4,
      largestBuffer: layout.totalFloats * 4,
    });
  if (s.lora && s.mergedLearner) {
    if (s.baseFormat !== 'f32')
      problems.push(`the merged LoRA learner needs an f32 base (base format is ${s.baseFormat})`);
    const flat = layout.totalFloats * 4;
    items.push({ name: 'merged learner: f32 base copy', bytes: flat, largestBuffer: flat });
    items.push({ name: 'merged learner: weight gradients (f32)', bytes: flat, largestBuffer: flat });
  }
  const kvLayer = 2 * s.rolloutBatch * c.kvHeads * s.seqLen * c.headDim * 4;
  items.push({
    name: `KV cache (${s.rolloutBatch} × ${s.seqLen} tokens)`,
    bytes: kvLayer * c.layers,
    largestBuffer: kvLayer / 2,
  });
  const T = s.microBatch * s.seqLen;
  const perLayer = actFloatsPerTokenLayer(c) * T * 4;
  const acts = s.recompute ? c.layers * T * c.hidden * 4 + perLayer : c.layers * perLayer;
  items.push({
    name: `activations (${s.microBatch} × ${s.seqLen} tokens${s.recompute ? ', recompute' : ''})`,
    bytes: acts,
    largestBuffer: Math.max(T * c.intermediate * 4, T * c.hidden * 4),
  });
  // Logits and their gradient, for all rows of a micro-batch or one vocabulary chunk at a time.
  const cols = Math.min(s.lmHeadChunk ?? c.vocabSize, c.vocabSize);
  const logits = 2 * T * cols * 4;
  items.push({ name: `logits + grad (${T} × ${cols})`, bytes: logits, largestBuffer: logits / 2 });
  const totalBytes = items.reduce((a, i) => a + i.bytes, 0);
  for (const i of items) {
    if (i.largestBuffer > limits.maxBufferSize)
      problems.push(
        `${i.name}: a ${fmtBytes(i.largestBuffer)} buffer exceeds maxBufferSize (${fmtBytes(limits.maxBufferSize)})`,
      );
    else if (i.largestBuffer > limits.maxStorageBufferBindingSize) {
      problems.push(
        `${i.name}: a ${fmtBytes(i.largestBuffer)} binding exceeds maxStorageBufferBindingSize (${fmtBytes(limits.maxStorageBufferBindingSize)})`,
      );
    }
  }
  if (totalBytes > limits.budgetBytes)
    problems.push(`needs ${fmtBytes(totalBytes)} in total, the budget is ${fmtBytes(limits.budgetBytes)}`);
  return { settings: s, items, totalBytes, fits: problems.length === 0, problems };
}

/** Cheaper settings, from least to most intrusive: recompute, smaller micro-batch, chunked head, smaller base. */
function* cheaper(s: PlanSettings): Generator<PlanSettings> {
  let cur = { ...s };
  const step = function* (next: PlanSettings): Generator<PlanSettings> {
    cur = next;
    yield cur;
  };
  // Recompute runs in every training step; a chunked head only where memorySavers allows it.
  const full = cur.memorySavers ?? !cur.mergedLearner;
  if (!cur.recompute) yield* step({ ...cur, recompute: true });
  while (cur.microBatch > 1) yield* step({ ...cur, microBatch: Math.max(1, Math.floor(cur.microBatch / 2)) });
  for (const chunk of [32768, 8192, 2048])
    if (full && (cur.lmHeadChunk ?? Infinity) > chunk) yield* step({ ...cur, lmHeadChunk: chunk });
  if (cur.lora && !cur.mergedLearner)
    for (const f of ['int8-b32', 'int4-b32'] as const)
      if (rank(cur.baseFormat) < rank(f)) yield* step({ ...cur, baseFormat: f });
  while (cur.rolloutBatch > 1) yield* step({ ...cur, rolloutBatch: Math.max(1, Math.floor(cur.rolloutBatch / 2)) });
}

function rank(f: BaseFormat): number {
  return { f32: 0, f16: 1, 'int8-row': 2, 'int8-b32': 2, 'int4-b32': 3 }[f];
}

/** The first cheaper setting that fits, or undefined when even the cheapest does not. */
export function suggestSettings(config: ModelConfig, s: PlanSettings, limits: DeviceLimits): MemoryPlan | undefined {
  for (const next of cheaper(s)) {
    const p = planMemory(config, next, limits);
    if (p.fits) return p;
  }
  return undefined;
}

/** What differs between two settings, as the user would type it. */
export function describeChange(from: PlanSettings, to: PlanSettings): string {
  const out: string[] = [];
  if (from.recompute !== to.recompute) out.push('recompute on (optim.recompute)');
  if (from.microBatch !== to.microBatch) out.push(`micro-batch ${to.microBatch}`);
  if (from.lmHeadChunk !== to.lmHeadChunk) out.push(`lm_head chunk ${to.lmHeadChunk}`);
  if (from.baseFormat !== to.baseFormat) out.push(`base ${to.baseFormat}`);
  if (from.rolloutBatch !== to.rolloutBatch) out.push(`rollout batch ${to.rolloutBatch}`);
  return out.join(', ');
}

/** A run the device cannot hold with the settings asked for: the user's to change, not a bug. */
export class MemoryPlanError extends Error {
  override name = 'MemoryPlanError';
}

/** Plans, and throws a message with the problems and a setting that fits (or says that none does). */
export function checkMemory(config: ModelConfig, s: PlanSettings, limits: DeviceLimits): MemoryPlan {
  const plan = planMemory(config, s, limits);
  if (plan.fits) return plan;
  const fix = suggestSettings(config, s, limits);
  const hint = fix
    ? `it fits with: ${describeChange(s, fix.settings)} (${fmtBytes(fix.totalBytes)})`
    : 'no setting the planner knows fits: use a smaller model or a larger budget';
  throw new MemoryPlanError(`memory plan: ${plan.problems.join('; ')}. ${hint}\n${formatPlan(plan)}`);
}

export function fmtBytes(n: number): string {
  if (n >= 2 ** 30) return `${(n / 2 ** 30).toFixed(2)} GiB`;
  if (n >= 2 ** 20) return `${(n / 2 ** 20).toFixed(1)} MiB`;
  return `${(n / 2 ** 10).toFixed(1)} KiB`;
}

/** A plain-text table for the CLI and the UI. */
export function formatPlan(plan: MemoryPlan): string {
  const w = Math.max(...plan.items.map((i) => i.name.length), 5);
  const rows = plan.items.map((i) => `${i.name.padEnd(w)}  ${fmtBytes(i.bytes).padStart(11)}`);
  rows.push(`${'total'.padEnd(w)}  ${fmtBytes(plan.totalBytes).padStart(11)}`);
  return rows.join('\n');
}
