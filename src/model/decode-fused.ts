// Decode fusion: where a DecodeWeights keeps Linear weights back to back (the int8 rollout copy's fp32 expansion does
// for every layer), q|k|v and gate|up run as one matmul each; see decode.ts for where the fused rows go.
import { elementwise } from '../gpu/kernels/elementwise';
import { linearMatmul } from '../gpu/kernels/linear-quad';
import type { GpuModel, TensorRef } from './model';
import type { TensorSpec } from './layout';

/** The part of a DecodeWeights (decode.ts) that fusion reads. */
export interface Stacking {
  readonly model: GpuModel;
  /** Where these Linear weights sit back to back as fp32 [Σ out, in] (one matmul for all of them), else undefined. */
  stacked?(ws: readonly TensorSpec[]): TensorRef | undefined;
}

/**
 * On: decode runs q|k|v and gate|up as one matmul each where the weights are stacked, RoPE and the KV append from the
 * fused row, and SwiGLU on the fused gate|up row (a decode step: 49 dispatches instead of 73 on the tiny model). The
 * numbers are the same (each output element is the same dot product); tests compare both paths.
 */
export const decodeFusion: { enabled: boolean } = { enabled: true };

/** `ws` back to back in the flat buffer `ref(ws[0])` points into (no padding between them), else undefined. */
export function stackedIn(
  ws: readonly TensorSpec[],
  at: (t: TensorSpec) => number,
  ref: (t: TensorSpec) => TensorRef,
): TensorRef | undefined {
  for (let i = 1; i < ws.length; i++)
    if (at(ws[i]) !== at(ws[i - 1]) + ws[i - 1].size || ws[i].shape[1] !== ws[0].shape[1]) return undefined;
  return ref(ws[0]);
}

/** Whether the layers' [gate; up] and [q; k; v] weights are stacked in `w` (the layout is the same in every layer). */
export function fusable(w: Stacking): { gu: boolean; qkv: boolean } {
  const L = w.model.layout.layers[0];
  const on = decodeFusion.enabled && !!w.stacked && !!L;
  return { gu: on && !!w.stacked?.([L.gate, L.up]), qkv: on && !!w.stacked?.([L.q, L.k, L.v]) };
}

/** y[T, N] = x[T, K] · Wᵀ (+ bias [N]) for a stacked W: linearForward's arithmetic (bias first, then accumulate). */
export function stackedLinear(
  model: GpuModel,
  y: GPUBuffer,
  x: GPUBuffer,
  w: TensorRef,
  bias: GPUBuffer | undefined,
  T: number,
  N: number,
  K: number,
): void {
  if (bias) elementwise(model.gpu, 'axpby', y, model.ones(T * N), bias, T * N, 0, 1);
  linearMatmul(model.gpu, { a: x, b: w, c: y, M: T, N, K, transB: true, accumulate: !!bias });
}
