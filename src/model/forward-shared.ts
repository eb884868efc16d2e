// A no-grad forward that computes each distinct token prefix once. In a GRPO batch the rollouts of one group repeat
// their prompt row for row; a causal model's hidden state at (b, t) depends only on row b's tokens, positions and
// key validity up to t, so every position whose prefix equals an earlier row's is an exact copy of it. The
// per-row layers (norms, matmuls, RoPE, SwiGLU) run on the distinct rows only; attention expands q, k, v back to the
// [B, S] batch (gathers) and gathers its output back. Same kernels on the same inputs: the numbers equal forward()'s.
import { gatherRows } from '../gpu/kernels/rows';
import { rmsnormForward } from '../gpu/kernels/rmsnorm';
import { attnForward } from './forward-attention';
import {
  attentionInputs,
  forward,
  linearForward,
  residualMlp,
  type ForwardResult,
  type HeadRows,
  type LayerActs,
} from './forward';
import type { GpuBatch } from './forward-batch';
import type { GpuModel } from './model';

/** On: the mask-row forwards (GRPO step, reference / old log-probs) share repeated prefixes (off = forward(); tests compare). */
export const sharedPrefixes: { enabled: boolean } = { enabled: true };

export interface PrefixPlan {
  /** Distinct rows. */
  n: number;
  /** u32 [n]: the batch position each distinct row is computed for (its first occurrence). */
  source: Uint32Array;
  /** u32 [T]: the distinct row each batch position reads (pad positions: row 0; they are never attended to). */
  expand: Uint32Array;
}

/**
 * The distinct prefixes of a right-padded batch (every row's valid positions come first), or null when the batch is
 * not right-padded, sharing would save less than 10 % of the rows, or leave fewer rows than the quad matmul takes.
 */
export function planPrefixes(batch: GpuBatch, minRows: number): PrefixPlan | null {
  const { B, S, T } = batch;
  const { tokens, positions, valid } = batch.host;
  const ids = new Map<string, number>();
  const source: number[] = [];
  const expand = new Uint32Array(T);
  for (let b = 0; b < B; b++) {
    let parent = -1;
    let ended = false;
    for (let t = 0; t < S; t++) {
      const i = b * S + t;
      if (valid[i] === 0) {
        ended = true;
        continue;
      }
      if (ended) return null; // a valid token after padding: not right-padded
      const key = `${parent},${tokens[i]},${positions[i]}`;
      let id = ids.get(key);
      if (id === undefined) {
        id = source.length;
        ids.set(key, id);
        source.push(i);
      }
      expand[i] = id;
      parent = id;
    }
  }
  // Below minRows the linear layers would take another matmul kernel than forward() does on all T rows: the same
  // numbers are only guaranteed with the same kernel.
  if (source.length < minRows || source.length > 0.9 * T) return null;
  return { n: source.length, source: Uint32Array.from(source), expand };
}

/**
 * forward(model, batch, keep, head) over the plan's distinct rows (every head row must be a valid position). With
 * `keep` the activations the backward reads are expanded to all T rows: valid rows get their own values bit for bit,
 * pad rows (never attended, no loss: zero gradients) a copy of row 0 instead of their pad tokens' values.
 */
export function forwardShared(
  model: GpuModel,
  batch: GpuBatch,
  plan: PrefixPlan,
  keep: boolean,
  head: HeadRows & { host: Uint32Array },
): ForwardResult {
  const gpu = model.gpu;
  const c = model.config;
  const { T } = batch;
  const n = plan.n;
  const H = c.hidden;
  const qW = c.heads * c.headDim;
  const kW = c.kvHeads * c.headDim;
  const I = c.intermediate;
  const f32 = (label: string, size: number) => gpu.temp(label, size * 4);
  const upload = (label: string, data: Uint32Array) => {
    const buf = gpu.temp(label, data.length * 4);
    gpu.write(buf, data);
    return buf;
  };
  const source = upload('shared.source', plan.source);
  const expand = upload('shared.expand', plan.expand);
  const tokens = upload(
    'shared.tokens',
    Uint32Array.from(plan.source, (i) => batch.host.tokens[i]),
  );
  const positions = upload(
    'shared.positions',
    Uint32Array.from(plan.source, (i) => batch.host.positions[i]),
  );
  const headRows = upload(
    'shared.head',
    Uint32Array.from(head.host, (i) => plan.expand[i]),
  );
  /** [T, width]: each batch position's distinct row of `src` [n, width]. */
  const full = (src: GPUBuffer, width: number, label: string) => {
    const out = f32(label, T * width);
    gatherRows(gpu, out, src, expand, T, n, width);
    return out;
  };
  const layers: LayerActs[] = [];
  let x = f32('act.x0', n * H);
  model.embedTokens(x, tokens, n);
  model.layout.layers.forEach((L, l) => {
    const { rstd1, h1, q: qs, k: ks, v: vs } = attentionInputs(model, L, l, x, positions, n);
    // Attention on the whole [B, S] batch: q, k, v expanded, the output gathered back to the distinct rows.
    const q = full(qs, qW, `act.${l}.q`);
    const k = full(ks, kW, `act.${l}.k`);
    const v = full(vs, kW, `act.${l}.v`);
    const attnFull = f32(`act.${l}.attn`, T * qW);
    const attnSaved = attnForward(model, attnFull, q, k, v, batch);
    const attn = f32('act.attnRows', n * qW);
    gatherRows(gpu, attn, attnFull, source, n, T, qW);
    const { xMid, rstd2, h2, g, u, a, xOut } = residualMlp(model, L, l, x, attn, n);
    const rows = { x, rstd1, h1, xMid, rstd2, h2, g, u, a };
    if (keep) {
      const w = { x: H, rstd1: 1, h1: H, xMid: H, rstd2: 1, h2: H, g: I, u: I, a: I };
      const e = Object.fromEntries(
        Object.entries(rows).map(([name, b]) => [name, full(b, w[name as keyof typeof w], `act.${l}.${name}`)]),
      ) as typeof rows;
      layers.push({ ...e, q, k, v, attn: attnFull, attnSaved });
    } else [q, k, v, attnFull, ...attnSaved.buffers].forEach((b) => gpu.release(b));
    for (const b of [...Object.values(rows), qs, ks, vs, attn]) gpu.release(b);
    x = xOut;
  });
  const hf = f32('act.hf', n * H);
  const rstdF = f32('act.rstdF', n);
  rmsnormForward(gpu, hf, rstdF, x, model.mirror(model.layout.finalNorm), n, H, c.rmsEps);
  const hfRows = f32('act.hfRows', head.n * H);
  gatherRows(gpu, hfRows, hf, headRows, head.n, n, H);
  const logits = f32('act.logits', head.n * c.vocabSize);
  linearForward(model, logits, hfRows, model.layout.lmHead, undefined, head.n);
  const acts = keep
    ? { layers, xFinal: full(x, H, 'act.xFinal'), rstdF: full(rstdF, 1, 'act.rstdF'), hf: full(hf, H, 'act.hf') }
    : undefined;
  for (const b of [source, expand, tokens, positions, headRows, x, hf, rstdF]) gpu.release(b);
  if (!acts) {
    gpu.release(hfRows);
    return { logits };
  }
  return { logits, acts, head: { rows: head.rows, n: head.n, hf: hfRows } };
}

/** The forward for the batch's mask rows (`head`): repeated prefixes computed once where that saves rows. */
export function forwardMaskRows(model: GpuModel, batch: GpuBatch, keep: boolean, head: HeadRows): ForwardResult {
  const { mask, valid } = batch.host;
  const rows: number[] = [];
  if (mask) for (let t = 0; t < batch.T; t++) if (mask[t] !== 0) rows.push(t);
  const plan =
    sharedPrefixes.enabled && rows.every((t) => valid[t] !== 0)
      ? planPrefixes(batch, model.gpu.tuning.linear.minRows)
      : null;
  // Under recompute the backward re-runs each layer on all T rows from its input: the plain forward keeps just that.
  if (!plan || rows.length !== head.n || (keep && model.recompute)) return forward(model, batch, keep, head);
  return forwardShared(model, batch, plan, keep, { ...head, host: Uint32Array.from(rows) });
}
