// GPU forward pass over a batch [B, S] → logits [T, V], optionally keeping every activation the backward needs.
import type { Gpu } from '../gpu/runtime';
import { matmul } from '../gpu/kernels/matmul';
import { linearMatmul } from '../gpu/kernels/linear-quad';
import { rmsnormForward } from '../gpu/kernels/rmsnorm';
import { ropeForward } from '../gpu/kernels/rope';
import { swigluForward } from '../gpu/kernels/swiglu';
import { elementwise } from '../gpu/kernels/elementwise';
import { gatherRows } from '../gpu/kernels/rows';
import { placeColumns, takeColumns } from '../gpu/kernels/chunk-rows';
import type { GpuBatch } from './forward-batch';
import { attnForward, type AttnSaved } from './forward-attention';
import type { GpuModel, LinearForwardArgs, TensorRef } from './model';
import type { TensorSpec } from './layout';

/** Per-layer activations saved for the backward (all pooled temps, [T, width] row-major). */
export interface LayerActs {
  /** Residual stream entering the layer. */
  x: GPUBuffer;
  rstd1: GPUBuffer;
  h1: GPUBuffer;
  /** q and k after RoPE; v as projected. */
  q: GPUBuffer;
  k: GPUBuffer;
  v: GPUBuffer;
  /** Attention output [T, heads·hd] and whatever the attention backward needs besides q, k, v. */
  attn: GPUBuffer;
  attnSaved: AttnSaved;
  xMid: GPUBuffer;
  rstd2: GPUBuffer;
  h2: GPUBuffer;
  g: GPUBuffer;
  u: GPUBuffer;
  a: GPUBuffer;
}

export interface Activations {
  /** Every layer's activations; empty under recompute (`inputs` instead). */
  layers: LayerActs[];
  /** Recompute (model.recompute): each layer's input only; the backward re-runs the layer from it (layerForward). */
  inputs?: GPUBuffer[];
  /** Residual stream after the last layer, its rstd and the normed final hidden state. */
  xFinal: GPUBuffer;
  rstdF: GPUBuffer;
  hf: GPUBuffer;
}

export interface ForwardResult {
  /** [T, V] logits, or [head.n, V] when the head ran on selected rows (pooled temp: release with releaseForward). */
  logits: GPUBuffer;
  acts?: Activations;
  /** Set when the lm_head ran on selected rows only: the rows and the gathered final hidden state [n, H]. */
  head?: HeadRows & { hf: GPUBuffer };
}

/** Rows of the batch whose logits are needed (u32 [n] distinct row indices < T), e.g. the loss-mask rows. */
export interface HeadRows {
  rows: GPUBuffer;
  n: number;
}

/**
 * y[T, N] = x[T, K] · Wᵀ (+ bias), with W an HF [N, K] tensor inside the model's parameters, or at `at` when given
 * (where W's [N, K] floats live otherwise, e.g. a dequantized rollout copy).
 */
export function linearForward(model: GpuModel, ...args: [...LinearForwardArgs, at?: TensorRef]): void {
  const [y, x, w, bias, T, accumulate = false, at] = args;
  if (!at && model.frozen) model.frozen.forward(y, x, w, bias, T, accumulate);
  else f32LinearForward(model, ...args);
}

/** linearForward on the model's own f32 weights (or `at`), whatever FrozenLinears the model has. */
export function f32LinearForward(model: GpuModel, ...args: [...LinearForwardArgs, at?: TensorRef]): void {
  const [y, x, w, bias, T, accumulate = false, at] = args;
  if (!at && model.isRowSplit(w)) {
    rowSplitForward(model, y, x, w, T, accumulate);
    if (bias) addBias(model, y, bias, T);
    return;
  }
  const weights = at ?? model.p(w);
  const [N, K] = w.shape;
  const gpu = model.gpu;
  if (bias && !accumulate && model.hasMirror(bias)) {
    // y = broadcast(b) (0·ones + b[i mod N]), then y += x·Wᵀ: one cheap elementwise pass instead of a K = 1 matmul.
    elementwise(gpu, 'axpby', y, model.ones(T * N), model.mirror(bias), T * N, 0, 1);
    linearMatmul(gpu, { a: x, b: weights, c: y, M: T, N, K, transB: true, accumulate: true });
    return;
  }
  linearMatmul(gpu, { a: x, b: weights, c: y, M: T, N, K, transB: true, accumulate });
  // Fallback: bias as a rank-1 update ones[T,1]·b[1,N] through matmul's offset support.
  if (bias) addBias(model, y, bias, T);
}

/** y[T, N] += ones[T, 1] · b[1, N], through matmul's offset support. */
export function addBias(model: GpuModel, y: GPUBuffer, bias: TensorSpec, T: number): void {
  matmul(model.gpu, { a: model.ones(T), b: model.p(bias), c: y, M: T, N: bias.size, K: 1, accumulate: true });
}

/**
 * y[T, V] (+)= x · Wᵀ for a W split into row chunks (an lm_head larger than one binding): each chunk's [T, rows]
 * block is computed densely, then placed into its columns of y.
 */
function rowSplitForward(model: GpuModel, y: GPUBuffer, x: GPUBuffer, w: TensorSpec, T: number, accumulate: boolean) {
  const gpu = model.gpu;
  const [N, K] = w.shape;
  for (const c of model.chunks(w)) {
    const blk = gpu.temp('act.headChunk', T * c.rows * 4);
    if (accumulate) takeColumns(gpu, blk, y, T, c.rows, N, c.lo);
    linearMatmul(gpu, { a: x, b: c.buffer, c: blk, M: T, N: c.rows, K, transB: true, accumulate });
    placeColumns(gpu, y, blk, T, c.rows, N, c.lo);
    gpu.release(blk);
  }
}

/** Hidden, query, key/value and MLP widths, and a temporary of n floats: what the forward and backward size by. */
export function passWidths(model: GpuModel) {
  const c = model.config;
  const f32 = (label: string, n: number) => model.gpu.temp(label, n * 4);
  return { H: c.hidden, qW: c.heads * c.headDim, kW: c.kvHeads * c.headDim, I: c.intermediate, f32 };
}

/**
 * Records the forward pass. With `keep`, every activation stays alive for `backward` (under model.recompute only
 * each layer's input does); without it, the per-layer temporaries are released as soon as the next layer no longer
 * needs them (log-probs-only / eval passes).
 */
export function forward(model: GpuModel, batch: GpuBatch, keep: boolean, headRows?: HeadRows): ForwardResult {
  const gpu = model.gpu;
  const c = model.config;
  const { T } = batch;
  const { H, f32 } = passWidths(model);
  const layout = model.layout;
  if (batch.S > c.maxSeqLen) throw new Error(`forward: seqLen ${batch.S} exceeds maxSeqLen ${c.maxSeqLen}`);

  let x = f32('act.x0', T * H);
  model.embedTokens(x, batch.tokens, T);
  const layers: LayerActs[] = [];
  const inputs: GPUBuffer[] | undefined = keep && model.recompute ? [] : undefined;
  for (let l = 0; l < layout.layers.length; l++) {
    const { acts, xOut } = layerForward(model, l, x, batch);
    if (inputs) {
      // Keep the residual stream entering the layer; the backward recomputes the rest from it.
      inputs.push(x);
      releaseLayer(gpu, { ...acts, x: null });
    } else if (keep) layers.push(acts);
    else releaseLayer(gpu, acts);
    x = xOut;
  }
  const hf = f32('act.hf', T * H);
  const rstdF = f32('act.rstdF', T);
  rmsnormForward(gpu, hf, rstdF, x, model.mirror(layout.finalNorm), T, H, c.rmsEps);
  let head: ForwardResult['head'];
  if (headRows) {
    // Only these rows' logits are needed (an SFT loss masks prompt and pad rows): the lm_head matmuls, the loss
    // and its gradient shrink by T / n.
    const hfRows = f32('act.hfRows', headRows.n * H);
    gatherRows(gpu, hfRows, hf, headRows.rows, headRows.n, T, H);
    head = { ...headRows, hf: hfRows };
  }
  const rowsOut = head ? head.n : T;
  const logits = f32('act.logits', rowsOut * c.vocabSize);
  linearForward(model, logits, head ? head.hf : hf, layout.lmHead, undefined, rowsOut);
  if (!keep) {
    [x, hf, rstdF, ...(head ? [head.hf] : [])].forEach((b) => gpu.release(b));
    return { logits };
  }
  return { logits, acts: { layers, inputs, xFinal: x, rstdF, hf }, head };
}

/** One decoder layer's forward from its input x [T, H]: every activation its backward reads, and the output. */
export function layerForward(model: GpuModel, l: number, x: GPUBuffer, batch: GpuBatch) {
  const { T } = batch;
  const L = model.layout.layers[l];
  const { rstd1, h1, q, k, v } = attentionInputs(model, L, l, x, batch.positions, T);
  const { qW, f32 } = passWidths(model);
  const attn = f32(`act.${l}.attn`, T * qW);
  const attnSaved = attnForward(model, attn, q, k, v, batch);
  const { xMid, rstd2, h2, g, u, a, xOut } = residualMlp(model, L, l, x, attn, T);
  const acts: LayerActs = { x, rstd1, h1, q, k, v, attn, attnSaved, xMid, rstd2, h2, g, u, a };
  return { acts, xOut };
}

type LayerSpec = GpuModel['layout']['layers'][number];

/** The layer's first half over n rows of x: RMSNorm, q/k/v projections, RoPE on q and k (positions [n]). */
export function attentionInputs(
  model: GpuModel,
  L: LayerSpec,
  l: number,
  x: GPUBuffer,
  positions: GPUBuffer,
  n: number,
) {
  const gpu = model.gpu;
  const c = model.config;
  const { H, qW, kW, f32 } = passWidths(model);
  const h1 = f32(`act.${l}.h1`, n * H);
  const rstd1 = f32(`act.${l}.rstd1`, n);
  rmsnormForward(gpu, h1, rstd1, x, model.mirror(L.inputNorm), n, H, c.rmsEps);
  const qPre = f32(`act.${l}.qPre`, n * qW);
  const kPre = f32(`act.${l}.kPre`, n * kW);
  const v = f32(`act.${l}.v`, n * kW);
  linearForward(model, qPre, h1, L.q, L.qBias, n);
  linearForward(model, kPre, h1, L.k, L.kBias, n);
  linearForward(model, v, h1, L.v, L.vBias, n);
  const q = f32(`act.${l}.q`, n * qW);
  const k = f32(`act.${l}.k`, n * kW);
  ropeForward(gpu, q, qPre, positions, model.rope, n, c.heads);
  ropeForward(gpu, k, kPre, positions, model.rope, n, c.kvHeads);
  gpu.release(qPre);
  gpu.release(kPre);
  return { rstd1, h1, q, k, v };
}

/** The layer's second half over n rows: x_mid = x + attn·Woᵀ (into a copy of x), then x_out = x_mid + SwiGLU MLP. */
export function residualMlp(model: GpuModel, L: LayerSpec, l: number, x: GPUBuffer, attn: GPUBuffer, n: number) {
  const gpu = model.gpu;
  const c = model.config;
  const { H, I, f32 } = passWidths(model);
  const xMid = f32(`act.${l}.xMid`, n * H);
  gpu.copy(x, 0, xMid, 0, n * H * 4);
  linearForward(model, xMid, attn, L.o, undefined, n, true);
  const h2 = f32(`act.${l}.h2`, n * H);
  const rstd2 = f32(`act.${l}.rstd2`, n);
  rmsnormForward(gpu, h2, rstd2, xMid, model.mirror(L.postNorm), n, H, c.rmsEps);
  const g = f32(`act.${l}.gate`, n * I);
  const u = f32(`act.${l}.up`, n * I);
  linearForward(model, g, h2, L.gate, undefined, n);
  linearForward(model, u, h2, L.up, undefined, n);
  const a = f32(`act.${l}.swiglu`, n * I);
  swigluForward(gpu, a, g, u, n * I);
  const xOut = f32(`act.${l + 1}.x`, n * H);
  gpu.copy(xMid, 0, xOut, 0, n * H * 4);
  linearForward(model, xOut, a, L.down, undefined, n, true);
  return { xMid, rstd2, h2, g, u, a, xOut };
}

/** Releases a layer's activations (x too, unless null: a recompute keeps the layer's input). */
export function releaseLayer(gpu: Gpu, a: Omit<LayerActs, 'x'> & { x: GPUBuffer | null }): void {
  if (a.x) gpu.release(a.x);
  for (const b of [a.rstd1, a.h1, a.q, a.k, a.v, a.attn, ...a.attnSaved.buffers, a.xMid, a.rstd2, a.h2, a.g, a.u, a.a])
    gpu.release(b);
}

/** Returns every pooled buffer of a forward result to the pool. */
export function releaseForward(gpu: Gpu, r: ForwardResult): void {
  gpu.release(r.logits);
  if (r.head) gpu.release(r.head.hf);
  if (!r.acts) return;
  for (const l of r.acts.layers) releaseLayer(gpu, l);
  for (const b of r.acts.inputs ?? []) gpu.release(b);
  for (const b of [r.acts.xFinal, r.acts.rstdF, r.acts.hf]) gpu.release(b);
}
