// Launcher and CPU reference for the input gradient through a frozen quantized Linear (shaders/qmatmul_t.wgsl):
// dx[M, K] = dy[M, N] · dequant(W[N, K]), the backward of qmatmul with no fp32 copy of W.
import source from '../../../shaders/qmatmul_t.wgsl?raw';
import storeTileSource from '../../../shaders/common/store_tile.wgsl?raw';
import { ceilDiv, Kernel } from '../launcher';
import type { Gpu } from '../runtime';
import type { Operand } from './matmul';
import { FORMAT_ID, QUANT_UNIFORMS, quantLaunch, type QUniform, type QuantLaunchArgs } from './qmatmul';
import { dequantize, type QuantizedTensor } from '../quant';

const kernel = new Kernel<QUniform>({
  family: 'qmatmul_t',
  source: source + storeTileSource,
  uniforms: QUANT_UNIFORMS,
});

export interface QMatmulTArgs extends QuantLaunchArgs {
  /** dy is [M, N = w.rows] row-major. */
  dy: Operand;
  /** dx is [M, K = w.cols] row-major. */
  dx: Operand;
}

/** Records dx = dy · dequant(W). Nothing is submitted. */
export function qmatmulT(gpu: Gpu, args: QMatmulTArgs): void {
  const { w, M } = args;
  const [N, K] = [w.rows, w.cols];
  const { input: dy, output: dx, uniforms, tm } = quantLaunch('qmatmulT', args, ['dy', args.dy, N], ['dx', args.dx, K]);
  if (M === 0 || K === 0) return;
  const wg = 64;
  kernel.dispatch(gpu, {
    buffers: [dy.buffer, w.data, w.scales, dx.buffer],
    uniforms,
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
