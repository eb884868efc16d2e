// fp32 matmul launcher in the three training forms (A·B, A·Bᵀ, Aᵀ·B) with alpha and accumulate, plus CPU reference.
// Kernels: 'fast' (vec4 register tiles, best on SwiftShader; needs 4-aligned dims), 'general' (scalar-load register
// tiles, any shape: the fallback next to 'fast'), 'tiled' (workgroup memory, any shape, for real GPUs) and 'naive'
// (one output per invocation, the benchmark baseline). 'auto' takes gpu.tuning.matmul; 'fast' falls back to
// 'general' for shapes it cannot take.
import fastSource from '../../../shaders/matmul.wgsl?raw';
import tiledSource from '../../../shaders/matmul_tiled.wgsl?raw';
import naiveSource from '../../../shaders/matmul_naive.wgsl?raw';
import generalSource from '../../../shaders/matmul_general.wgsl?raw';
import matmulIoSource from '../../../shaders/common/matmul_io.wgsl?raw';
import matmulTileSource from '../../../shaders/common/matmul_tile.wgsl?raw';
import storeTileSource from '../../../shaders/common/store_tile.wgsl?raw';
import { ceilDiv, Kernel, type ScalarType } from '../launcher';
import type { Gpu } from '../runtime';
import type { MatmulKernel } from '../tuning';

/** A buffer, or a buffer plus an offset in f32 elements (tensors cut from one flat parameter buffer). */
export type Operand = GPUBuffer | { buffer: GPUBuffer; offset: number };

export type MatmulImpl = 'auto' | MatmulKernel;

export interface MatmulArgs {
  /** op(A) is [M, K]: A is [M, K] row-major, or [K, M] when transA. */
  a: Operand;
  /** op(B) is [K, N]: B is [K, N] row-major, or [N, K] when transB (Linear weights stored [out, in]). */
  b: Operand;
  /** C is [M, N] row-major. */
  c: Operand;
  M: number;
  N: number;
  K: number;
  transA?: boolean;
  transB?: boolean;
  /** C += alpha·op(A)·op(B) instead of C = alpha·op(A)·op(B) (gradient accumulation). */
  accumulate?: boolean;
  alpha?: number;
  impl?: MatmulImpl;
  /** Rows per invocation for the fast and general kernels (1, 2, 4 or 8); default picks by M. */
  tm?: 1 | 2 | 4 | 8;
  /** Columns per invocation for the fast kernel (4 or 8); default picks by M. */
  tn?: 4 | 8;
  /** Workgroup size [x, y] override for benchmarking. */
  wg?: [number, number];
}

export const MATMUL_UNIFORMS: ReadonlyArray<readonly [MatmulUniform, ScalarType]> = [
  ['M', 'u32'],
  ['N', 'u32'],
  ['K', 'u32'],
  ['alpha', 'f32'],
  ['beta', 'f32'],
  ['aOff', 'u32'],
  ['bOff', 'u32'],
  ['cOff', 'u32'],
];
export type MatmulUniform = 'M' | 'N' | 'K' | 'alpha' | 'beta' | 'aOff' | 'bOff' | 'cOff';

const kernels = {
  fast: new Kernel<MatmulUniform>({
    family: 'matmul',
    source: fastSource + matmulIoSource + matmulTileSource + storeTileSource,
    uniforms: MATMUL_UNIFORMS,
  }),
  tiled: new Kernel<MatmulUniform>({
    family: 'matmul',
    source: tiledSource + matmulIoSource,
    uniforms: MATMUL_UNIFORMS,
  }),
  naive: new Kernel<MatmulUniform>({
    family: 'matmul',
    source: naiveSource + matmulIoSource,
    uniforms: MATMUL_UNIFORMS,
  }),
  general: new Kernel<MatmulUniform>({
    family: 'matmul',
    source: generalSource + matmulIoSource + matmulTileSource,
    uniforms: MATMUL_UNIFORMS,
  }),
};

export function splitOperand(op: Operand): { buffer: GPUBuffer; offset: number } {
  // GPUBuffer has no 'buffer' member, so this tells the two forms apart.
  return 'buffer' in op ? op : { buffer: op, offset: 0 };
}

/** True when the vec4 kernel can take this shape (see the alignment notes in shaders/matmul.wgsl). */
export function fastMatmulFits(
  args: Pick<MatmulArgs, 'M' | 'N' | 'K' | 'transA' | 'transB'>,
  offsets: number[] = [],
): boolean {
  const { M, N, K, transA = false, transB = false } = args;
  if (offsets.some((o) => o % 4 !== 0)) return false;
  if (transA && transB) return false;
  if (transA) return M % 4 === 0 && N % 4 === 0;
  if (transB) return K % 4 === 0;
  return K % 4 === 0 && N % 4 === 0;
}

function checkExtent(name: string, op: { buffer: GPUBuffer; offset: number }, elements: number): void {
  const need = (op.offset + elements) * 4;
  // Robustness is disabled in Dawn, so an out-of-range shape must be caught here, not clamped by the driver.
  if (need > op.buffer.size) {
    throw new Error(
      `matmul: ${name} needs ${need} bytes (offset ${op.offset} + ${elements} floats) but '${op.buffer.label}' has ${op.buffer.size}`,
    );
  }
}

/**
 * Picks rows per invocation: large tiles once M fills them (8 rows measured 25-30% faster than 4 here at M = 8
 * and 16), small ones for decode-sized M so lanes are not wasted on clamped rows.
 */
function pickTm(M: number, transA: boolean): 1 | 2 | 4 | 8 {
  if (M >= 8) return 8;
  if (transA || M >= 4) return 4;
  return M >= 2 ? 2 : 1;
}

/** Records C = alpha·op(A)·op(B) (+ C when accumulate). Nothing is submitted. */
export function matmul(gpu: Gpu, args: MatmulArgs): void {
  const { M, N, K, transA = false, transB = false, accumulate = false, alpha = 1 } = args;
  for (const [n, v] of [
    ['M', M],
    ['N', N],
    ['K', K],
  ] as const) {
    if (!Number.isInteger(v) || v < 0) throw new Error(`matmul: ${n}=${v} must be a non-negative integer`);
  }
  const a = splitOperand(args.a);
  const b = splitOperand(args.b);
  const c = splitOperand(args.c);
  checkExtent('A', a, M * K);
  checkExtent('B', b, K * N);
  checkExtent('C', c, M * N);
  if (M === 0 || N === 0) return;
  let impl = args.impl ?? 'auto';
  if (impl === 'auto') impl = gpu.tuning.matmul;
  const fits = fastMatmulFits(args, [a.offset, b.offset, c.offset]);
  if (impl === 'fast' && !fits) {
    if (args.impl === 'fast')
      throw new Error(`matmul: shape ${M}x${N}x${K} transA=${transA} transB=${transB} does not fit the vec4 kernel`);
    impl = 'general';
  }
  const uniforms = { M, N, K, alpha, beta: accumulate ? 1 : 0, aOff: a.offset, bOff: b.offset, cOff: c.offset };
  const buffers = [a.buffer, b.buffer, c.buffer];
  const flags = { TRANS_A: transA ? 1 : 0, TRANS_B: transB ? 1 : 0 };
  if (impl === 'fast') {
    const tm = args.tm ?? pickTm(M, transA);
    // 8-column tiles load 16 vec4 per 256 FMAs at 8 rows (8x4: 12 per 128): 10-20% faster here.
    const tn = args.tn ?? (tm >= 4 ? 8 : 4);
    if (transA && tm < 4) throw new Error('matmul: Aᵀ·B needs tm >= 4');
    const [wx, wy] = args.wg ?? (tm >= 4 ? [16, 4] : [64, 1]);
    kernels.fast.dispatch(gpu, {
      buffers,
      uniforms,
      workgroups: [ceilDiv(N, tn * wx), ceilDiv(ceilDiv(M, tm), wy)],
      overrides: { ...flags, TM: tm, TN: tn, WG_X: wx, WG_Y: wy },
    });
  } else if (impl === 'general') {
    const tm = args.tm ?? pickTm(M, false);
    const [wx, wy] = args.wg ?? (tm >= 4 ? [16, 4] : [64, 1]);
    kernels.general.dispatch(gpu, {
      buffers,
      uniforms,
      workgroups: [ceilDiv(N, 4 * wx), ceilDiv(ceilDiv(M, tm), wy)],
      overrides: { ...flags, TM: tm, WG_X: wx, WG_Y: wy },
    });
  } else if (impl === 'tiled') {
    const [wx, wy] = args.wg ?? [8, 8];
    kernels.tiled.dispatch(gpu, {
      buffers,
      uniforms,
      workgroups: [ceilDiv(N, 4 * wx), ceilDiv(M, 4 * wy)],
      overrides: { ...flags, WG_X: wx, WG_Y: wy },
    });
  } else {
    const [wx, wy] = args.wg ?? [16, 16];
    kernels.naive.dispatch(gpu, {
      buffers,
      uniforms,
      workgroups: [ceilDiv(N, wx), ceilDiv(M, wy)],
      overrides: { ...flags, WG_X: wx, WG_Y: wy },
    });
  }
}

export interface MatmulRefOptions {
  transA?: boolean;
  transB?: boolean;
  alpha?: number;
  /** Initial C to accumulate into (C += …); omitted means C = …. */
  c?: Float32Array;
}

/** Plain-loop CPU reference with float64 accumulation. */
export function matmulRef(
  a: Float32Array,
  b: Float32Array,
  M: number,
  N: number,
  K: number,
  opts: MatmulRefOptions = {},
): Float32Array {
  const { transA = false, transB = false, alpha = 1 } = opts;
  const out = new Float32Array(M * N);
  for (let i = 0; i < M; i++) {
    for (let j = 0; j < N; j++) {
      let s = 0;
      for (let k = 0; k < K; k++) {
        const av = transA ? a[k * M + i] : a[i * K + k];
        const bv = transB ? b[j * K + k] : b[k * N + j];
        s += av * bv;
      }
      out[i * N + j] = alpha * s + (opts.c ? opts.c[i * N + j] : 0);
    }
  }
  return out;
}
