// Launchers for the rollout weights' GPU quantizer (shaders/rollout_quantize.wgsl: fp32 → codes and scales of
// src/gpu/quant.ts, no readback) and its fp32 expansion (shaders/rollout_dequantize.wgsl: value = code · scale).
import quantizeSource from '../../../shaders/rollout_quantize.wgsl?raw';
import dequantizeSource from '../../../shaders/rollout_dequantize.wgsl?raw';
import cellsSource from '../../../shaders/common/row_cells.wgsl?raw';
import { Kernel, type ScalarType } from '../launcher';
import type { Gpu } from '../runtime';
import { grid1d } from './grid';
import type { GpuQuantized } from './qmatmul';
import { blocksPerRow, scalesPerRow, wordsPerRow, type QuantFormat } from '../quant';

const FORMAT_ID: Record<QuantFormat, number> = { 'int8-row': 0, 'int8-b32': 1, 'int4-b32': 2 };

type Field = 'rows' | 'cols' | 'wordsPerRow' | 'scalesPerRow' | 'format' | '_p0' | '_p1';

/** Both shaders read the same struct U; the third field is the fp32 side's float offset. */
function uniformList<Off extends string>(off: Off): [Off | Field, ScalarType][] {
  return [
    ['rows', 'u32'],
    ['cols', 'u32'],
    [off, 'u32'],
    ['wordsPerRow', 'u32'],
    ['scalesPerRow', 'u32'],
    ['format', 'u32'],
    ['_p0', 'u32'],
    ['_p1', 'u32'],
  ];
}

const quantizeKernel = new Kernel({ family: 'quantize', source: quantizeSource, uniforms: uniformList('srcOff') });
const dequantizeKernel = new Kernel({
  family: 'quantize',
  source: cellsSource + dequantizeSource,
  uniforms: uniformList('dstOff'),
});

function formatUniforms({ rows, cols, format }: GpuQuantized): Record<Field, number> {
  const [wpr, spr] = [wordsPerRow(format, cols), scalesPerRow(format, cols)];
  return { rows, cols, wordsPerRow: wpr, scalesPerRow: spr, format: FORMAT_ID[format], _p0: 0, _p1: 0 };
}

/** Records dst = quantize([rows, cols] fp32 matrix at float offset `srcOff` of `src`), rows and cols from `dst`. */
export function quantizeOnGpu(gpu: Gpu, dst: GpuQuantized, src: GPUBuffer, srcOff: number): void {
  quantizeKernel.dispatch(gpu, {
    buffers: [src, dst.data, dst.scales],
    uniforms: { ...formatUniforms(dst), srcOff },
    workgroups: grid1d(dst.rows * blocksPerRow(dst.cols), 64),
    overrides: { WG: 64 },
  });
}

/** Records dst[dstOff + r·cols + j] = dequant(q)[r, j] for the whole [rows, cols] matrix. */
export function dequantizeOnGpu(gpu: Gpu, q: GpuQuantized, dst: GPUBuffer, dstOff: number): void {
  const { rows, cols, format } = q;
  if ((dstOff + rows * cols) * 4 > dst.size)
    throw new Error(`dequantizeOnGpu: '${dst.label}' holds ${dst.size} bytes, needs ${(dstOff + rows * cols) * 4}`);
  dequantizeKernel.dispatch(gpu, {
    buffers: [q.data, q.scales, dst],
    uniforms: { ...formatUniforms(q), dstOff },
    workgroups: grid1d(rows * wordsPerRow(format, cols), 64),
    overrides: { WG: 64 },
  });
}
