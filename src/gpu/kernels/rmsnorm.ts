// RMSNorm launchers (forward saving rstd; backward dx and accumulated dw) and float64 CPU references.
import rowReduceSource from '../../../shaders/common/row_reduce.wgsl?raw';
import rmsnormSource from '../../../shaders/rmsnorm.wgsl?raw';
import { Kernel, ceilDiv } from '../launcher';
import type { Gpu } from '../runtime';
import type { RowImpl } from '../tuning';
import { grid1d } from './grid';

export type { RowImpl };

const uniforms = [
  ['T', 'u32'],
  ['D', 'u32'],
  ['eps', 'f32'],
  ['chunk', 'u32'],
] as const;
type Uniform = (typeof uniforms)[number][0];

const make = (entryPoint: string) =>
  new Kernel<Uniform>({ family: 'rmsnorm', source: rowReduceSource + rmsnormSource, entryPoint, uniforms });
const forwardKernels = { workgroup: make('forward'), rows: make('forwardRows') };
const inputKernels = { workgroup: make('backwardInput'), rows: make('backwardInputRows') };

const partialKernel = make('weightPartial');
const reduceKernel = make('weightReduce');

/** Threads per row; rows are short (D ≤ a few thousand), so 128 keeps occupancy without idle lanes. */
const ROW_WG = 128;
const COL_WG = 64;
const ROWS_WG = 64;

function rowDispatch(impl: RowImpl, T: number): { workgroups: [number, number]; overrides: { WG: number } } {
  return impl === 'rows'
    ? { workgroups: grid1d(T, ROWS_WG), overrides: { WG: ROWS_WG } }
    : { workgroups: grid1d(T, 1), overrides: { WG: ROW_WG } };
}
/** Rows per dw partial sum: bounds the serial loop per thread and the partial buffer to ceil(T/CHUNK) rows. */
const CHUNK = 64;

/** y[T, D] = x * rstd * w and rstd[T] = 1/sqrt(mean(x^2) + eps) (saved for the backward pass). */
export function rmsnormForward(
  gpu: Gpu,
  y: GPUBuffer,
  rstd: GPUBuffer,
  x: GPUBuffer,
  w: GPUBuffer,
  T: number,
  D: number,
  eps: number,
  impl: RowImpl = gpu.tuning.rmsnorm,
): void {
  forwardKernels[impl].dispatch(gpu, {
    buffers: [x, w, y, rstd],
    uniforms: { T, D, eps, chunk: CHUNK },
    ...rowDispatch(impl, T),
  });
}

/**
 * dx[T, D] is WRITTEN (overwritten); dw[D] is ACCUMULATED (+=) so weight gradients sum over micro-batches.
 * Needs the rstd saved by the forward pass.
 */
export function rmsnormBackward(
  gpu: Gpu,
  dx: GPUBuffer,
  dw: GPUBuffer,
  dy: GPUBuffer,
  x: GPUBuffer,
  w: GPUBuffer,
  rstd: GPUBuffer,
  T: number,
  D: number,
  impl: RowImpl = gpu.tuning.rmsnorm,
): void {
  if (T === 0) return;
  const u = { T, D, eps: 0, chunk: CHUNK };
  inputKernels[impl].dispatch(gpu, { buffers: [dy, x, w, rstd, dx], uniforms: u, ...rowDispatch(impl, T) });
  const chunks = ceilDiv(T, CHUNK);
  const partial = gpu.temp('rmsnorm.dwPartial', chunks * D * 4);
  partialKernel.dispatch(gpu, {
    buffers: [dy, x, rstd, partial],
    uniforms: u,
    workgroups: [ceilDiv(D, COL_WG), chunks],
    overrides: { WG: COL_WG },
  });
  reduceKernel.dispatch(gpu, {
    buffers: [partial, dw],
    uniforms: u,
    workgroups: [ceilDiv(D, COL_WG)],
    overrides: { WG: COL_WG },
  });
  gpu.release(partial);
}

export function rmsnormForwardRef(
  x: ArrayLike<number>,
  w: ArrayLike<number>,
  T: number,
  D: number,
  eps: number,
): { y: Float64Array; rstd: Float64Array } {
  const y = new Float64Array(T * D);
  const rstd = new Float64Array(T);
  for (let t = 0; t < T; t++) {
    let ss = 0;
    for (let d = 0; d < D; d++) ss += x[t * D + d] * x[t * D + d];
    const r = 1 / Math.sqrt(ss / D + eps);
    rstd[t] = r;
    for (let d = 0; d < D; d++) y[t * D + d] = x[t * D + d] * r * w[d];
  }
  return { y, rstd };
}

/** Returns dx and adds into `dw` in place (like the GPU kernel); rstd is recomputed in float64 from x. */
export function rmsnormBackwardRef(
  dw: Float32Array | Float64Array,
  dy: ArrayLike<number>,
  x: ArrayLike<number>,
  w: ArrayLike<number>,
  T: number,
  D: number,
  eps: number,
): Float64Array {
  const dx = new Float64Array(T * D);
  const { rstd } = rmsnormForwardRef(x, w, T, D, eps);
  for (let t = 0; t < T; t++) {
    const r = rstd[t];
    let dot = 0;
    for (let d = 0; d < D; d++) dot += dy[t * D + d] * w[d] * x[t * D + d];
    const c = (dot / D) * r * r;
    for (let d = 0; d < D; d++) {
      dx[t * D + d] = r * (w[d] * dy[t * D + d] - x[t * D + d] * c);
      dw[d] += dy[t * D + d] * x[t * D + d] * r;
    }
  }
  return dx;
}
