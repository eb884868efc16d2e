// Launcher and CPU reference for the input gradient through a frozen quantized Linear (shaders/qmatmul_t.wgsl):
// dx[M, K] = dy[M, N] · dequant(W[N, K]), the backward of qmatmul with no fp32 copy of W.
import source from '../../../shaders/qmatmul_t.wgsl?raw';
import storeTileSource from '../../../shaders/common/store_tile.wgsl?raw';
import { ceilDiv, Kernel, type ScalarType } from '../launcher';
import type { Gpu } from '../runtime';
import { splitOperand, type Operand } from './matmul';
import type { GpuQuantized } from './qmatmul';
import { dequantize, scalesPerRow, wordsPerRow, type QuantFormat, type QuantizedTensor } from '../quant';

type TUniform = 'M' | 'N' | 'K' | 'wordsPerRow' | 'scalesPerRow' | 'dyOff' | 'dxOff' | 'beta';

const UNIFORMS: ReadonlyArray<readonly [TUniform, ScalarType]> = [
  ['M', 'u32'],
  ['N', 'u32'],
  ['K', 'u32'],
  ['wordsPerRow', 'u32'],
  ['scalesPerRow', 'u32'],
  ['dyOff', 'u32'],
  ['dxOff', 'u32'],
  ['beta', 'f32'],
];

const kernel = new Kernel<TUniform>({ family: 'qmatmul_t', source: source + storeTileSource, uniforms: UNIFORMS });

const FORMAT_ID: Record<QuantFormat, number> = { 'int8-row': 0, 'int8-b32': 1, 'int4-b32': 2 };

export interface QMatmulTArgs {
  /** dy is [M, N = w.rows] row-major. */
  dy: Operand;
  w: GpuQuantized;
  /** dx is [M, K = w.cols] row-major. */
  dx: Operand;
  M: number;
  /** dx += dy·W instead of dx = dy·W (several projections share one input). */
  accumulate?: boolean;
  /** Rows of dy per invocation; default picks by M. */
  tm?: 1 | 2 | 4 | 8;
}

/** Records dx = dy · dequant(W). Nothing is submitted. */
export function qmatmulT(gpu: Gpu, args: QMatmulTArgs): void {
  const { w, M, accumulate = false } = args;
  const N = w.rows;
  const K = w.cols;
  const dy = splitOperand(args.dy);
  const dx = splitOperand(args.dx);
  if ((dy.offset + M * N) * 4 > dy.buffer.size)
    throw new Error(`qmatmulT: dy '${dy.buffer.label}' too small for ${M}x${N} at offset ${dy.offset}`);
  if ((dx.offset + M * K) * 4 > dx.buffer.size)
    throw new Error(`qmatmulT: dx '${dx.buffer.label}' too small for ${M}x${K} at offset ${dx.offset}`);
  const wpr = wordsPerRow(w.format, K);
  const spr = scalesPerRow(w.format, K);
  if (w.data.size < N * wpr * 4 || w.scales.size < N * spr * 4)
    throw new Error(`qmatmulT: '${w.data.label}' smaller than its ${N}x${K} ${w.format} shape`);
  if (M === 0 || K === 0) return;
  const tm = args.tm ?? (M >= 8 ? 8 : M >= 4 ? 4 : M >= 2 ? 2 : 1);
  const wg = 64;
  kernel.dispatch(gpu, {
    buffers: [dy.buffer, w.data, w.scales, dx.buffer],
    uniforms: {
      M,
      N,
      K,
      wordsPerRow: wpr,
      scalesPerRow: spr,
      dyOff: dy.offset,
      dxOff: dx.offset,
      beta: accumulate ? 1 : 0,
    },
    workgroups: [ceilDiv(K, 8 * wg), ceilDiv(M, tm)],
    overrides: { FORMAT: FORMAT_ID[w.format], TM: tm, WG: wg },
  });
}

/** CPU reference: dequantize with src/gpu/quant.ts, then dy · W accumulated in float64 (plus dx0 when given). */
export function qmatmulTRef(dy: Float32Array, q: QuantizedTensor, M: number, dx0?: Float32Array): Float64Array {
  const W = dequantize(q);
  const N = q.rows;
  const K = q.cols;
  const out = new Float64Array(M * K);
  for (let i = 0; i < M; i++) {
    for (let n = 0; n < N; n++) {
      const g = dy[i * N + n];
      for (let k = 0; k < K; k++) out[i * K + k] += g * W[n * K + k];
    }
    if (dx0) for (let k = 0; k < K; k++) out[i * K + k] += dx0[i * K + k];
  }
  return out;
}
