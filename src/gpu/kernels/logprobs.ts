// Token log-probs and entropy from logits at a sampling temperature (rollout / learner log-probs), with backward.
//
// Shapes: logits [T, V] row-major, targets u32 [T] → logp [T], entropy [T], lse [T] (logsumexp of logits/temp,
// needed by the backward). z = logits / temperature; logp = z[target] - lse; entropy = -Σ p log p over the full V.
// Backward: dlogits[t, v] = (dlogp[t] (1[v = target] - p_v) - dentropy[t] p_v (log p_v + H_t)) / temperature.
// Targets must be < V (out-of-range ones are clamped to V-1 in the forward).
import rowReduceSource from '../../../shaders/common/row_reduce.wgsl?raw';
import vocabRowsSource from '../../../shaders/common/vocab_rows.wgsl?raw';
import forwardSource from '../../../shaders/logprobs.wgsl?raw';
import backwardSource from '../../../shaders/logprobs_backward.wgsl?raw';
import { Kernel } from '../launcher';
import type { Gpu } from '../runtime';
import { grid1d } from './grid';

/**
 * True on CPU-emulated WebGPU (SwiftShader, in Node and in headless Chromium here; lavapipe or SwiftShader under
 * Firefox). There each workgroup barrier costs ~100 µs at 256 invocations, so row reductions use 16-wide workgroups
 * (measured ~100x faster for T=1024, V=1024); real GPUs get 256. Firefox hides the adapter's names but says it is a
 * fallback adapter; without that sign it ran the GPU variants on lavapipe at several times the CPU per step.
 */
export function softwareAdapter(gpu: Gpu): boolean {
  if (gpu.tuning.software !== 'auto') return gpu.tuning.software;
  const s = gpu.summary;
  if (s.fallback) return true;
  return /swiftshader|llvmpipe|lavapipe|warp|basic render/i.test(`${s.architecture} ${s.device} ${s.description}`);
}

/**
 * Throws unless each buffer holds at least its element count (4-byte elements). Dawn runs without robustness in
 * Node (device-node.ts), so an undersized buffer would otherwise read or write out of bounds silently.
 */
export function checkBuffers(family: string, sizes: Record<string, [GPUBuffer, number]>): void {
  for (const [name, [buf, n]] of Object.entries(sizes)) {
    if (buf.size < n * 4) throw new Error(`${family}: ${name} needs ${n * 4} bytes but '${buf.label}' has ${buf.size}`);
  }
}

/** Invocations per workgroup for the one-workgroup-per-row reductions of this family (and xent, grpo_loss). */
export function rowWorkgroup(gpu: Gpu): number {
  return gpu.tuning.rowReduceWorkgroup || (softwareAdapter(gpu) ? 16 : 256);
}

const forwardKernel = new Kernel({
  family: 'logprobs',
  source: rowReduceSource + vocabRowsSource + forwardSource,
  uniforms: [
    ['T', 'u32'],
    ['V', 'u32'],
    ['invTemp', 'f32'],
    ['_pad', 'u32'],
  ],
});

const backwardKernel = new Kernel({
  family: 'logprobs',
  source: rowReduceSource + vocabRowsSource + backwardSource,
  uniforms: [
    ['T', 'u32'],
    ['V', 'u32'],
    ['invTemp', 'f32'],
    ['hasDent', 'u32'],
  ],
});

const dummies = new WeakMap<Gpu, GPUBuffer>();
function dummy(gpu: Gpu): GPUBuffer {
  let b = dummies.get(gpu);
  if (!b) dummies.set(gpu, (b = gpu.buffer('logprobs.dummy', 16)));
  return b;
}

export interface LogprobsShape {
  T: number;
  V: number;
  /** Sampling temperature; logits are divided by it (default 1). */
  temperature?: number;
}

function invTemp(shape: LogprobsShape): number {
  const temp = shape.temperature ?? 1;
  if (!(temp > 0)) throw new Error(`logprobs: temperature must be > 0, got ${temp}`);
  return 1 / temp;
}

/** logp [T], entropy [T], lse [T] ← logits [T, V], targets u32 [T]. */
export function logprobsForward(
  gpu: Gpu,
  logp: GPUBuffer,
  entropy: GPUBuffer,
  lse: GPUBuffer,
  logits: GPUBuffer,
  targets: GPUBuffer,
  shape: LogprobsShape,
): void {
  const { T, V } = shape;
  checkBuffers('logprobs', {
    logits: [logits, T * V],
    targets: [targets, T],
    logp: [logp, T],
    entropy: [entropy, T],
    lse: [lse, T],
  });
  forwardKernel.dispatch(gpu, {
    buffers: [logits, targets, logp, entropy, lse],
    uniforms: { T: shape.T, V: shape.V, invTemp: invTemp(shape), _pad: 0 },
    workgroups: grid1d(shape.T, 1),
    overrides: { WG: rowWorkgroup(gpu) },
  });
}

/** dlogits [T, V] ← dlogp [T], optional dentropy [T], and the forward's logits, targets, lse, entropy. */
export function logprobsBackward(
  gpu: Gpu,
  dlogits: GPUBuffer,
  dlogp: GPUBuffer,
  dentropy: GPUBuffer | null,
  logits: GPUBuffer,
  targets: GPUBuffer,
  lse: GPUBuffer,
  entropy: GPUBuffer,
  shape: LogprobsShape,
): void {
  const { T, V } = shape;
  checkBuffers('logprobs', {
    dlogits: [dlogits, T * V],
    dlogp: [dlogp, T],
    logits: [logits, T * V],
    targets: [targets, T],
    lse: [lse, T],
    entropy: [entropy, T],
  });
  if (dentropy) checkBuffers('logprobs', { dentropy: [dentropy, T] });
  backwardKernel.dispatch(gpu, {
    buffers: [logits, targets, lse, entropy, dlogp, dentropy ?? dummy(gpu), dlogits],
    uniforms: { T: shape.T, V: shape.V, invTemp: invTemp(shape), hasDent: dentropy ? 1 : 0 },
    workgroups: grid1d(shape.T, 1),
    overrides: { WG: rowWorkgroup(gpu) },
  });
}

export interface LogprobsRef {
  logp: Float64Array;
  entropy: Float64Array;
  lse: Float64Array;
}

/** Plain-loop float64 reference of the forward. */
export function logprobsForwardRef(
  logits: ArrayLike<number>,
  targets: ArrayLike<number>,
  shape: LogprobsShape,
): LogprobsRef {
  const { T, V } = shape;
  const it = invTemp(shape);
  const out = { logp: new Float64Array(T), entropy: new Float64Array(T), lse: new Float64Array(T) };
  for (let t = 0; t < T; t++) {
    let m = -Infinity;
    for (let v = 0; v < V; v++) m = Math.max(m, logits[t * V + v] * it);
    let s = 0;
    for (let v = 0; v < V; v++) s += Math.exp(logits[t * V + v] * it - m);
    const l = m + Math.log(s);
    let h = 0;
    for (let v = 0; v < V; v++) {
      const lp = logits[t * V + v] * it - l;
      h -= Math.exp(lp) * lp;
    }
    out.lse[t] = l;
    out.entropy[t] = h;
    out.logp[t] = logits[t * V + Math.min(targets[t], V - 1)] * it - l;
  }
  return out;
}

/** Plain-loop float64 reference of the backward (recomputes the softmax). */
export function logprobsBackwardRef(
  logits: ArrayLike<number>,
  targets: ArrayLike<number>,
  dlogp: ArrayLike<number>,
  dentropy: ArrayLike<number> | null,
  shape: LogprobsShape,
): Float64Array {
  const { T, V } = shape;
  const it = invTemp(shape);
  const fwd = logprobsForwardRef(logits, targets, shape);
  const out = new Float64Array(T * V);
  for (let t = 0; t < T; t++) {
    const gh = dentropy ? dentropy[t] : 0;
    for (let v = 0; v < V; v++) {
      const lp = logits[t * V + v] * it - fwd.lse[t];
      const p = Math.exp(lp);
      let d = -dlogp[t] * p - gh * p * (lp + fwd.entropy[t]);
      if (v === targets[t]) d += dlogp[t];
      out[t * V + v] = d * it;
    }
  }
  return out;
}
