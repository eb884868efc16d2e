// Launcher for GPU re-quantization (shaders/qmatmul_quantize.wgsl): fp32 masters → GpuQuantized codes and scales.
import source from '../../../shaders/qmatmul_quantize.wgsl?raw';
import { Kernel, type ScalarType } from '../launcher';
import type { Gpu } from '../runtime';
import { grid1d } from './grid';
import { splitOperand, type Operand } from './matmul';
import type { GpuQuantized } from './qmatmul';
import { scalesPerRow, wordsPerRow, type QuantFormat } from '../quant';

type QzUniform = 'rows' | 'cols' | 'wordsPerRow' | 'scalesPerRow' | 'wOff';
const UNIFORMS: ReadonlyArray<readonly [QzUniform, ScalarType]> = [
  ['rows', 'u32'],
  ['cols', 'u32'],
  ['wordsPerRow', 'u32'],
  ['scalesPerRow', 'u32'],
  ['wOff', 'u32'],
];
const scalesKernel = new Kernel<QzUniform>({ family: 'quantize', source, entryPoint: 'scales_main', uniforms: UNIFORMS });
const codesKernel = new Kernel<QzUniform>({ family: 'quantize', source, entryPoint: 'codes_main', uniforms: UNIFORMS });

const FORMAT_ID: Record<QuantFormat, number> = { 'int8-row': 0, 'int8-b32': 1, 'int4-b32': 2 };
const WG = 64;

/**
 * Records dst = quantize(w) for a row-major [dst.rows, dst.cols] fp32 weight (HF [out, in]). Matches the CPU
 * `quantize` up to float rounding: scales to a few ulps, codes at most one step apart on exact-tie elements.
 */
export function quantizeGpu(gpu: Gpu, w: Operand, dst: GpuQuantized): void {
  const { rows, cols, format } = dst;
  const src = splitOperand(w);
  if ((src.offset + rows * cols) * 4 > src.buffer.size) throw new Error(`quantizeGpu: '${src.buffer.label}' too small for ${rows}x${cols}`);
  const wpr = wordsPerRow(format, cols);
  const spr = scalesPerRow(format, cols);
  if (dst.data.size < rows * wpr * 4 || dst.scales.size < rows * spr * 4) throw new Error(`quantizeGpu: '${dst.data.label}' smaller than ${rows}x${cols} ${format}`);
  if (rows === 0 || cols === 0) return;
  const uniforms = { rows, cols, wordsPerRow: wpr, scalesPerRow: spr, wOff: src.offset };
  const overrides = { FORMAT: FORMAT_ID[format], WG };
  scalesKernel.dispatch(gpu, { buffers: [src.buffer, dst.scales], uniforms, workgroups: grid1d(rows * spr, WG), overrides });
  codesKernel.dispatch(gpu, { buffers: [src.buffer, dst.scales, dst.data], uniforms, workgroups: grid1d(rows * wpr, WG), overrides });
}
