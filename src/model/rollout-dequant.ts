// Records the expansion of packed rollout weights to fp32 (shaders/rollout_dequantize.wgsl): value = code · scale.
import source from '../../shaders/rollout_dequantize.wgsl?raw';
import { Kernel } from '../gpu/launcher';
import { grid1d } from '../gpu/kernels/grid';
import type { Gpu } from '../gpu/runtime';
import type { GpuQuantized } from '../gpu/kernels/qmatmul';
import { scalesPerRow, wordsPerRow, type QuantFormat } from '../gpu/quant';

const FORMAT_ID: Record<QuantFormat, number> = { 'int8-row': 0, 'int8-b32': 1, 'int4-b32': 2 };

const kernel = new Kernel({
  family: 'quantize',
  source,
  uniforms: [
    ['rows', 'u32'],
    ['cols', 'u32'],
    ['dstOff', 'u32'],
    ['wordsPerRow', 'u32'],
    ['scalesPerRow', 'u32'],
    ['format', 'u32'],
    ['_p0', 'u32'],
    ['_p1', 'u32'],
  ],
});

/** Records dst[dstOff + r·cols + j] = dequant(q)[r, j] for the whole [rows, cols] matrix. */
export function dequantizeOnGpu(gpu: Gpu, q: GpuQuantized, dst: GPUBuffer, dstOff: number): void {
  const { rows, cols, format } = q;
  const wpr = wordsPerRow(format, cols);
  if ((dstOff + rows * cols) * 4 > dst.size) throw new Error(`dequantizeOnGpu: '${dst.label}' holds ${dst.size} bytes, needs ${(dstOff + rows * cols) * 4}`);
  kernel.dispatch(gpu, {
    buffers: [q.data, q.scales, dst],
    uniforms: { rows, cols, dstOff, wordsPerRow: wpr, scalesPerRow: scalesPerRow(format, cols), format: FORMAT_ID[format], _p0: 0, _p1: 0 },
    workgroups: grid1d(rows * wpr, 64),
    overrides: { WG: 64 },
  });
}
