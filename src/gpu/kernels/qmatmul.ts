// Quantized-weight matmul launcher (y = x · dequant(W)ᵀ, W in [out, in] layout), upload helper and CPU reference.
import qmatmulSource from '../../../shaders/qmatmul.wgsl?raw';
import storeTileSource from '../../../shaders/common/store_tile.wgsl?raw';
import quadX4 from '../../../shaders/qmatmul_quad.wgsl?raw';
import { ceilDiv, Kernel, type ScalarType } from '../launcher';
import type { Gpu } from '../runtime';
import { splitOperand, type Operand } from './matmul';
import { dequantize, scalesPerRow, wordsPerRow, type QuantFormat, type QuantizedTensor } from '../quant';

export type QUniform = 'M' | 'N' | 'K' | 'wordsPerRow' | 'scalesPerRow' | 'inOff' | 'outOff' | 'beta';

/** The struct U of qmatmul.wgsl and qmatmul_t.wgsl: W is [N, K]; inOff / outOff are the operands' element offsets. */
export const QUANT_UNIFORMS: ReadonlyArray<readonly [QUniform, ScalarType]> = [
  ['M', 'u32'],
  ['N', 'u32'],
  ['K', 'u32'],
  ['wordsPerRow', 'u32'],
  ['scalesPerRow', 'u32'],
  ['inOff', 'u32'],
  ['outOff', 'u32'],
  ['beta', 'f32'],
];

const MAIN_PLAIN = 'fn main(@builtin(global_invocation_id) gid: vec3<u32>) {';
const MAIN_QUAD =
  'fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(subgroup_invocation_id) sg: u32) {\n  lane = sg & 3u;';

/** qmatmul.wgsl with its x loads shared across each quad (shaders/qmatmul_quad.wgsl); needs 'subgroups'. */
export function quadSource(plain: string): string {
  const start = plain.indexOf('// <x4>');
  const end = plain.indexOf('// </x4>');
  if (start < 0 || end < 0 || !plain.includes(MAIN_PLAIN))
    throw new Error('qmatmul.wgsl: <x4> markers or main() signature changed');
  return (
    'enable subgroups;\n' +
    plain.slice(0, start) +
    quadX4 +
    plain.slice(end + '// </x4>'.length).replace(MAIN_PLAIN, MAIN_QUAD)
  );
}

const source = qmatmulSource + storeTileSource;
const kernel = new Kernel<QUniform>({ family: 'qmatmul', source, uniforms: QUANT_UNIFORMS });
let quadKernel: Kernel<QUniform> | undefined;

/** The FORMAT override of both quantized-product shaders. */
export const FORMAT_ID: Record<QuantFormat, number> = { 'int8-row': 0, 'int8-b32': 1, 'int4-b32': 2 };

/** A quantized [rows = out, cols = in] weight on the GPU: codes and scales as two storage buffers. */
export interface GpuQuantized {
  format: QuantFormat;
  rows: number;
  cols: number;
  data: GPUBuffer;
  scales: GPUBuffer;
}

export function uploadQuantized(gpu: Gpu, q: QuantizedTensor, label = 'qweight'): GpuQuantized {
  return {
    format: q.format,
    rows: q.rows,
    cols: q.cols,
    data: gpu.buffer(`${label}.codes`, q.data),
    scales: gpu.buffer(`${label}.scales`, q.scales),
  };
}

/** Re-uploads new codes and scales (after re-quantizing updated masters) into the existing buffers. */
export function updateQuantized(gpu: Gpu, dst: GpuQuantized, q: QuantizedTensor): void {
  if (q.format !== dst.format || q.rows !== dst.rows || q.cols !== dst.cols) {
    throw new Error(
      `updateQuantized: ${q.format} ${q.rows}x${q.cols} does not match ${dst.format} ${dst.rows}x${dst.cols}`,
    );
  }
  gpu.write(dst.data, q.data);
  gpu.write(dst.scales, q.scales);
}

export interface QMatmulArgs extends QuantLaunchArgs {
  /** x is [M, K = w.cols] row-major. */
  x: Operand;
  /** y is [M, N = w.rows] row-major. */
  y: Operand;
  /** Output features per invocation (4 or 8); default 8 once M fills 4 rows. */
  nf?: 4 | 8;
  wg?: number;
  /** Share x loads across quads with subgroup ops (default: whenever the device has 'subgroups'). */
  quads?: boolean;
}

/** Records y = x · dequant(W)ᵀ. Nothing is submitted. */
export function qmatmul(gpu: Gpu, args: QMatmulArgs): void {
  const { w, M } = args;
  const [N, K] = [w.rows, w.cols];
  const { input: x, output: y, uniforms, tm } = quantLaunch('qmatmul', args, ['x', args.x, K], ['y', args.y, N]);
  if (M === 0 || N === 0 || K === 0) return;
  const nf = args.nf ?? (tm >= 4 ? 8 : 4);
  const wg = args.wg ?? 64;
  const quads = args.quads ?? gpu.hasSubgroups;
  if (quads && !gpu.hasSubgroups) throw new Error("qmatmul: quads need the 'subgroups' feature");
  const k = quads
    ? (quadKernel ??= new Kernel<QUniform>({ family: 'qmatmul', source: quadSource(source), uniforms: QUANT_UNIFORMS }))
    : kernel;
  k.dispatch(gpu, {
    buffers: [x.buffer, w.data, w.scales, y.buffer],
    uniforms,
    workgroups: [ceilDiv(N, nf * wg), ceilDiv(M, tm)],
    overrides: { FORMAT: FORMAT_ID[w.format], TM: tm, NF: nf, WG: wg },
  });
}

/** What qmatmul and qmatmulT both launch with: W, M rows, accumulate and an optional row tile. */
export interface QuantLaunchArgs {
  w: GpuQuantized;
  M: number;
  /** Add into the output instead of overwriting it (qmatmul straight into a residual stream, qmatmulT when several
   * projections share one input). */
  accumulate?: boolean;
  /** Rows of the input per invocation (1, 2, 4 or 8); default picks by M. */
  tm?: 1 | 2 | 4 | 8;
}

/** [name for errors, operand, columns] of a row-major [M, columns] operand. */
type NamedOperand = readonly [name: string, op: Operand, cols: number];

/**
 * The checks and uniforms qmatmul and qmatmulT share: `input` is read as [M, cols], `output` written as [M, cols],
 * and W's buffers must hold its [N, K] shape. Also picks the default row tile by M.
 */
export function quantLaunch(fn: string, args: QuantLaunchArgs, input: NamedOperand, output: NamedOperand) {
  const { w, M, accumulate = false } = args;
  const [N, K] = [w.rows, w.cols];
  const [inp, out] = [input, output].map(([name, op, cols]) => {
    const s = splitOperand(op);
    if ((s.offset + M * cols) * 4 > s.buffer.size)
      throw new Error(`${fn}: ${name} '${s.buffer.label}' too small for ${M}x${cols} at offset ${s.offset}`);
    return s;
  });
  const wpr = wordsPerRow(w.format, K);
  const spr = scalesPerRow(w.format, K);
  if (w.data.size < N * wpr * 4 || w.scales.size < N * spr * 4)
    throw new Error(`${fn}: '${w.data.label}' smaller than its ${N}x${K} ${w.format} shape`);
  const uniforms: Record<QUniform, number> = {
    M,
    N,
    K,
    wordsPerRow: wpr,
    scalesPerRow: spr,
    inOff: inp.offset,
    outOff: out.offset,
    beta: accumulate ? 1 : 0,
  };
  const tm = args.tm ?? (M >= 8 ? 8 : M >= 4 ? 4 : M >= 2 ? 2 : 1);
  return { input: inp, output: out, uniforms, tm };
}

/** CPU reference: dequantize with src/gpu/quant.ts, then a plain float64-accumulated x · Wᵀ. */
export function qmatmulRef(x: Float32Array, q: QuantizedTensor, M: number, y0?: Float32Array): Float32Array {
  const W = dequantize(q);
  const N = q.rows;
  const K = q.cols;
  const out = new Float32Array(M * N);
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < N; j++) {
      let acc = 0;
      for (let k = 0; k < K; k++) acc += x[i * K + k] * W[j * K + k];
      out[i * N + j] = acc + (y0 ? y0[i * N + j] : 0);
    }
  }
  return out;
}
