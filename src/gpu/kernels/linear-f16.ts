// Launchers of the f16 compute path's Linear (shaders/linear_f16.wgsl with its native or packed prelude) and of the
// f32 → f16 weight conversion (shaders/convert_f16.wgsl), f16 weight upload, and the CPU emulation of the kernel.
import bodySource from '../../../shaders/linear_f16.wgsl?raw';
import nativePrelude from '../../../shaders/linear_f16_native.wgsl?raw';
import packedPrelude from '../../../shaders/linear_f16_packed.wgsl?raw';
import convertSource from '../../../shaders/convert_f16.wgsl?raw';
import cellsSource from '../../../shaders/common/row_cells.wgsl?raw';
import storeTileSource from '../../../shaders/common/store_tile.wgsl?raw';
import { ceilDiv, Kernel, type ScalarType } from '../launcher';
import type { Gpu } from '../runtime';
import { f16Round, toHalves } from '../f16';
import { splitOperand, type Operand } from './matmul';
import { grid1d } from './grid';

/**
 * 'native': W as array<vec4<f16>> behind `enable f16` (needs a device created with 'shader-f16'). 'packed': the same
 * bytes and numbers through core WGSL's pack2x16float / unpack2x16float, so CI can run the f16 path on SwiftShader.
 */
export type F16Variant = 'native' | 'packed';

type LUniform = 'M' | 'N' | 'K' | 'rowVec4' | 'xOff' | 'yOff' | 'biasOff' | 'flags';

const UNIFORMS: ReadonlyArray<readonly [LUniform, ScalarType]> = [
  ['M', 'u32'],
  ['N', 'u32'],
  ['K', 'u32'],
  ['rowVec4', 'u32'],
  ['xOff', 'u32'],
  ['yOff', 'u32'],
  ['biasOff', 'u32'],
  ['flags', 'u32'],
];

/** The full WGSL of a variant (the prelude first: `enable` must precede every declaration). */
export function linearF16Source(variant: F16Variant): string {
  return (variant === 'native' ? nativePrelude : packedPrelude) + bodySource + storeTileSource;
}

const kernels: Record<F16Variant, Kernel<LUniform>> = {
  native: new Kernel<LUniform>({ family: 'linear_f16', source: linearF16Source('native'), uniforms: UNIFORMS }),
  packed: new Kernel<LUniform>({ family: 'linear_f16', source: linearF16Source('packed'), uniforms: UNIFORMS }),
};

type CUniform = 'rows' | 'cols' | 'rowVec4' | 'srcOff';
const convertKernel = new Kernel<CUniform>({
  family: 'convert_f16',
  source: cellsSource + convertSource,
  uniforms: [
    ['rows', 'u32'],
    ['cols', 'u32'],
    ['rowVec4', 'u32'],
    ['srcOff', 'u32'],
  ],
});
const CONVERT_WG = 256;

/** An f16 [rows = out, cols = in] weight on the GPU, each row padded with zero halves to rowVec4 · 4 columns. */
export interface GpuF16Matrix {
  rows: number;
  cols: number;
  rowVec4: number;
  buffer: GPUBuffer;
}

/** The variant a device runs, or undefined when it has no 'shader-f16' (then the f32 path runs). */
export function f16VariantFor(gpu: Gpu): F16Variant | undefined {
  return gpu.hasF16 ? 'native' : undefined;
}

export function allocF16Matrix(gpu: Gpu, rows: number, cols: number, label: string): GpuF16Matrix {
  const rowVec4 = Math.ceil(cols / 4);
  return { rows, cols, rowVec4, buffer: gpu.buffer(label, rows * rowVec4 * 8) };
}

/** Row-padded half bits of a row-major [rows, cols] f32 matrix (round to nearest even), as the GPU holds them. */
export function padHalves(w: ArrayLike<number> | Uint16Array, rows: number, cols: number): Uint16Array {
  const halves = w instanceof Uint16Array ? w : toHalves(w);
  const stride = Math.ceil(cols / 4) * 4;
  if (stride === cols) return halves;
  const out = new Uint16Array(rows * stride);
  for (let r = 0; r < rows; r++) out.set(halves.subarray(r * cols, (r + 1) * cols), r * stride);
  return out;
}

/** Uploads an f16 weight from f32 values (rounded here) or from half bits [rows, cols]. */
export function uploadF16Matrix(
  gpu: Gpu,
  w: ArrayLike<number> | Uint16Array,
  rows: number,
  cols: number,
  label = 'f16weight',
): GpuF16Matrix {
  if (w.length < rows * cols) throw new Error(`uploadF16Matrix: ${w.length} values for a ${rows}x${cols} matrix`);
  const m = allocF16Matrix(gpu, rows, cols, label);
  gpu.write(m.buffer, padHalves(w, rows, cols));
  return m;
}

/** Records dst = f16(src [rows, cols] at an element offset): the GPU-side refresh of an f16 copy of f32 weights. */
export function convertToF16(gpu: Gpu, dst: GpuF16Matrix, src: Operand): void {
  const s = splitOperand(src);
  const { rows, cols, rowVec4 } = dst;
  if ((s.offset + rows * cols) * 4 > s.buffer.size)
    throw new Error(`convertToF16: '${s.buffer.label}' too small for ${rows}x${cols} at offset ${s.offset}`);
  convertKernel.dispatch(gpu, {
    buffers: [s.buffer, dst.buffer],
    uniforms: { rows, cols, rowVec4, srcOff: s.offset },
    workgroups: grid1d(rows * rowVec4, CONVERT_WG),
    overrides: { WG: CONVERT_WG },
  });
}

export interface LinearF16Args {
  /** x is [M, K = w.cols] f32 (its values are rounded to f16 as they are read). */
  x: Operand;
  w: GpuF16Matrix;
  /** y is [M, N = w.rows] f32; receives f16 values, or f32 sums y + f16 value when accumulate. */
  y: Operand;
  M: number;
  /** [N] f32, added before the result is rounded. */
  bias?: Operand;
  accumulate?: boolean;
  variant: F16Variant;
  /** Rows of x per invocation (1, 2, 4 or 8) and output features (4 or 8); defaults pick by M. */
  tm?: 1 | 2 | 4 | 8;
  nf?: 4 | 8;
  wg?: number;
}

/** Records y (+)= f16(f16(x) · Wᵀ + bias). Nothing is submitted. */
export function linearF16(gpu: Gpu, args: LinearF16Args): void {
  const { w, M, accumulate = false, variant } = args;
  if (variant === 'native' && !gpu.hasF16)
    throw new Error("linearF16: the native f16 kernel needs a device created with the 'shader-f16' feature");
  const N = w.rows;
  const K = w.cols;
  const x = splitOperand(args.x);
  const y = splitOperand(args.y);
  const b = args.bias ? splitOperand(args.bias) : undefined;
  if ((x.offset + M * K) * 4 > x.buffer.size)
    throw new Error(`linearF16: x '${x.buffer.label}' too small for ${M}x${K} at offset ${x.offset}`);
  if ((y.offset + M * N) * 4 > y.buffer.size)
    throw new Error(`linearF16: y '${y.buffer.label}' too small for ${M}x${N} at offset ${y.offset}`);
  if (b && (b.offset + N) * 4 > b.buffer.size)
    throw new Error(`linearF16: bias '${b.buffer.label}' too small for ${N} at offset ${b.offset}`);
  if (w.buffer.size < N * w.rowVec4 * 8) throw new Error(`linearF16: '${w.buffer.label}' smaller than ${N}x${K} f16`);
  if (M === 0 || N === 0 || K === 0) return;
  const tm = args.tm ?? (M >= 8 ? 8 : M >= 4 ? 4 : M >= 2 ? 2 : 1);
  const nf = args.nf ?? (tm >= 4 ? 8 : 4);
  const wg = args.wg ?? 64;
  kernels[variant].dispatch(gpu, {
    // Without a bias, x stands in for the unused binding (both are read-only).
    buffers: [x.buffer, w.buffer, b ? b.buffer : x.buffer, y.buffer],
    uniforms: {
      M,
      N,
      K,
      rowVec4: w.rowVec4,
      xOff: x.offset,
      yOff: y.offset,
      biasOff: b ? b.offset : 0,
      flags: (b ? 1 : 0) | (accumulate ? 2 : 0),
    },
    workgroups: [ceilDiv(N, nf * wg), ceilDiv(M, tm)],
    overrides: { TM: tm, NF: nf, WG: wg },
  });
}

/**
 * CPU emulation of linear_f16.wgsl, in float64: y = f16(Σ_k f16(x[m, k]) · w[n, k] + bias[n]), plus y0 (as an f32
 * add) when given. `w` must hold f16 values already (the kernel's weights are f16). Products of halves are exact; the
 * GPU's f32 sum differs from this exact one by at most K · 2^-24 · Σ|x·w|, which can move the f16 result by one ulp
 * where it lands next to a rounding boundary (linear-f16.test.ts bounds exactly that).
 */
export function linearF16Ref(
  x: ArrayLike<number>,
  w: ArrayLike<number>,
  M: number,
  N: number,
  K: number,
  bias?: ArrayLike<number>,
  y0?: ArrayLike<number>,
): Float64Array {
  const xh = Float64Array.from({ length: M * K }, (_, i) => f16Round(x[i]));
  const out = new Float64Array(M * N);
  for (let m = 0; m < M; m++) {
    for (let n = 0; n < N; n++) {
      let acc = 0;
      for (let k = 0; k < K; k++) acc += xh[m * K + k] * w[n * K + k];
      const v = f16Round(acc + (bias ? bias[n] : 0));
      out[m * N + n] = y0 ? Math.fround(y0[m * N + n] + v) : v;
    }
  }
  return out;
}
