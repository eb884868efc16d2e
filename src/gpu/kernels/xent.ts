// Masked cross-entropy loss and gradient for the supervised warm-start, with the mean reduced on the GPU.
//
// Shapes: logits [T, V] row-major, targets u32 [T] (< V), mask f32 [T] (weights, usually 0/1; 0 for prompt/pad).
// Forward → loss [T] = mask · (lse − logits[target]), lse [T], stats [2] = [mean loss, Σ mask] where
// mean loss = Σ_t loss[t] / max(1, Σ mask) (token-mean over the masked tokens; an all-masked batch gives 0).
// Backward → dlogits = gradScale · mask · (softmax − onehot) / max(1, Σ mask), the gradient of stats[0]
// (gradScale, default 1, lets a caller average over micro-batches). Σ mask is read from stats on the GPU.
import rowReduceSource from '../../../shaders/common/row_reduce.wgsl?raw';
import vocabRowsSource from '../../../shaders/common/vocab_rows.wgsl?raw';
import rowsSource from '../../../shaders/xent.wgsl?raw';
import reduceSource from '../../../shaders/xent_reduce.wgsl?raw';
import backwardSource from '../../../shaders/xent_backward.wgsl?raw';
import { Kernel } from '../launcher';
import type { Gpu } from '../runtime';
import { grid1d } from './grid';
import { checkBuffers, rowWorkgroup } from './logprobs';

const rowsKernel = new Kernel({
  family: 'xent',
  source: rowReduceSource + vocabRowsSource + rowsSource,
  uniforms: [
    ['T', 'u32'],
    ['V', 'u32'],
    ['_p0', 'u32'],
    ['_p1', 'u32'],
  ],
});
const reduceKernel = new Kernel({
  family: 'xent',
  source: reduceSource,
  uniforms: [
    ['T', 'u32'],
    ['_p0', 'u32'],
    ['_p1', 'u32'],
    ['_p2', 'u32'],
  ],
});
const backwardKernel = new Kernel({
  family: 'xent',
  source: rowReduceSource + vocabRowsSource + backwardSource,
  uniforms: [
    ['T', 'u32'],
    ['V', 'u32'],
    ['gradScale', 'f32'],
    ['_p0', 'u32'],
  ],
});

export interface XentShape {
  T: number;
  V: number;
}

/** loss [T], lse [T], stats [2] = [mean loss, Σ mask] ← logits [T, V], targets u32 [T], mask f32 [T]. */
export function xentForward(
  gpu: Gpu,
  loss: GPUBuffer,
  lse: GPUBuffer,
  stats: GPUBuffer,
  logits: GPUBuffer,
  targets: GPUBuffer,
  mask: GPUBuffer,
  shape: XentShape,
): void {
  const { T, V } = shape;
  checkBuffers('xent', {
    loss: [loss, T],
    lse: [lse, T],
    stats: [stats, 2],
    logits: [logits, T * V],
    targets: [targets, T],
    mask: [mask, T],
  });
  rowsKernel.dispatch(gpu, {
    buffers: [logits, targets, mask, loss, lse],
    uniforms: { T, V, _p0: 0, _p1: 0 },
    workgroups: grid1d(T, 1),
    overrides: { WG: rowWorkgroup(gpu) },
  });
  reduceKernel.dispatch(gpu, {
    buffers: [loss, mask, stats],
    uniforms: { T, _p0: 0, _p1: 0, _p2: 0 },
    workgroups: [1],
    overrides: { WG: rowWorkgroup(gpu) },
  });
}

/** dlogits [T, V] ← logits, targets, mask and the forward's lse [T] and stats [2]. */
export function xentBackward(
  gpu: Gpu,
  dlogits: GPUBuffer,
  logits: GPUBuffer,
  targets: GPUBuffer,
  mask: GPUBuffer,
  lse: GPUBuffer,
  stats: GPUBuffer,
  shape: XentShape,
  gradScale = 1,
): void {
  const { T, V } = shape;
  checkBuffers('xent', {
    dlogits: [dlogits, T * V],
    logits: [logits, T * V],
    targets: [targets, T],
    mask: [mask, T],
    lse: [lse, T],
    stats: [stats, 2],
  });
  backwardKernel.dispatch(gpu, {
    buffers: [logits, targets, mask, lse, stats, dlogits],
    uniforms: { T: shape.T, V: shape.V, gradScale, _p0: 0 },
    workgroups: grid1d(shape.T, 1),
    overrides: { WG: rowWorkgroup(gpu) },
  });
}

export interface XentRef {
  loss: Float64Array;
  meanLoss: number;
  maskSum: number;
}

/** Plain-loop float64 reference of the forward. */
export function xentForwardRef(
  logits: ArrayLike<number>,
  targets: ArrayLike<number>,
  mask: ArrayLike<number>,
  shape: XentShape,
): XentRef {
  const { T, V } = shape;
  const loss = new Float64Array(T);
  let sum = 0;
  let maskSum = 0;
  for (let t = 0; t < T; t++) {
    maskSum += mask[t];
    if (mask[t] === 0) continue;
    let m = -Infinity;
    for (let v = 0; v < V; v++) m = Math.max(m, logits[t * V + v]);
    let s = 0;
    for (let v = 0; v < V; v++) s += Math.exp(logits[t * V + v] - m);
    loss[t] = mask[t] * (m + Math.log(s) - logits[t * V + targets[t]]);
    sum += loss[t];
  }
  return { loss, meanLoss: sum / Math.max(1, maskSum), maskSum };
}

/** Plain-loop float64 reference of the backward: the gradient of the mean loss. */
export function xentBackwardRef(
  logits: ArrayLike<number>,
  targets: ArrayLike<number>,
  mask: ArrayLike<number>,
  shape: XentShape,
  gradScale = 1,
): Float64Array {
  const { T, V } = shape;
  let maskSum = 0;
  for (let t = 0; t < T; t++) maskSum += mask[t];
  const out = new Float64Array(T * V);
  for (let t = 0; t < T; t++) {
    if (mask[t] === 0) continue;
    let m = -Infinity;
    for (let v = 0; v < V; v++) m = Math.max(m, logits[t * V + v]);
    let s = 0;
    for (let v = 0; v < V; v++) s += Math.exp(logits[t * V + v] - m);
    const w = (gradScale * mask[t]) / Math.max(1, maskSum);
    for (let v = 0; v < V; v++) out[t * V + v] = w * (Math.exp(logits[t * V + v] - m) / s - (v === targets[t] ? 1 : 0));
  }
  return out;
}
