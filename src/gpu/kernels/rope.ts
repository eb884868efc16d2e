// RoPE launchers (forward and backward share one kernel), the float64 cos/sin table, and CPU references.
import ropePairSource from '../../../shaders/common/rope_pair.wgsl?raw';
import source from '../../../shaders/rope.wgsl?raw';
import { Kernel } from '../launcher';
import type { Gpu } from '../runtime';
import { grid1d } from './grid';

const kernel = new Kernel({
  family: 'rope',
  source: ropePairSource + source,
  uniforms: [
    ['T', 'u32'],
    ['H', 'u32'],
    ['Dh', 'u32'],
    ['maxPos', 'u32'],
    ['sgn', 'f32'],
    ['nanBits', 'u32'],
    ['xOff', 'u32'],
    ['xStride', 'u32'],
    ['yOff', 'u32'],
    ['yStride', 'u32'],
  ],
});

const WG = 256;
const NAN_BITS = 0x7fc00000;

export interface RopeTable {
  buffer: GPUBuffer;
  headDim: number;
  theta: number;
  /** Positions must be < maxPositions; larger ones produce NaN outputs. */
  maxPositions: number;
}

/** HF inverse frequencies: theta^(-2i/Dh) for i < Dh/2. */
function invFreq(headDim: number, theta: number, i: number): number {
  return 1 / Math.pow(theta, (2 * i) / headDim);
}

/** The [cos block | sin block] table, each [maxPositions, Dh/2], computed in float64 then rounded to f32. */
export function ropeTableData(headDim: number, theta: number, maxPositions: number): Float32Array {
  if (headDim % 2 !== 0) throw new Error(`rope: head dim ${headDim} must be even`);
  const half = headDim / 2;
  const out = new Float32Array(2 * maxPositions * half);
  for (let p = 0; p < maxPositions; p++) {
    for (let i = 0; i < half; i++) {
      const angle = p * invFreq(headDim, theta, i);
      out[p * half + i] = Math.cos(angle);
      out[maxPositions * half + p * half + i] = Math.sin(angle);
    }
  }
  return out;
}

/** Uploads the cos/sin table once per (headDim, theta, maxPositions); the model keeps it for its lifetime. */
export function createRopeTable(gpu: Gpu, headDim: number, theta: number, maxPositions: number): RopeTable {
  const buffer = gpu.buffer(
    `rope.table[Dh=${headDim},theta=${theta},max=${maxPositions}]`,
    ropeTableData(headDim, theta, maxPositions),
  );
  return { buffer, headDim, theta, maxPositions };
}

/**
 * Optional strided views, in elements: token t's heads start at off + t * stride. Defaults: dense [T, H, Dh]
 * (stride H * Dh, offset 0). Lets q/k be rotated inside a fused [T, (Hq + 2 Hkv) * Dh] QKV buffer.
 */
export interface RopeLayout {
  inOffset?: number;
  inStride?: number;
  outOffset?: number;
  outStride?: number;
}

/** The arguments of ropeForward and ropeBackward: (out, x) is (dx, dy) for the backward. */
type RopeArgs = [
  gpu: Gpu,
  out: GPUBuffer,
  x: GPUBuffer,
  positions: GPUBuffer,
  table: RopeTable,
  T: number,
  H: number,
  layout?: RopeLayout,
];

function dispatch(sgn: number, ...[gpu, out, x, positions, table, T, H, layout = {}]: RopeArgs): void {
  const Dh = table.headDim;
  const dense = H * Dh;
  kernel.dispatch(gpu, {
    buffers: [x, positions, table.buffer, out],
    uniforms: {
      T,
      H,
      Dh,
      maxPos: table.maxPositions,
      sgn,
      nanBits: NAN_BITS,
      xOff: layout.inOffset ?? 0,
      xStride: layout.inStride ?? dense,
      yOff: layout.outOffset ?? 0,
      yStride: layout.outStride ?? dense,
    },
    workgroups: grid1d((T * H * Dh) / 2, WG),
    overrides: { WG },
  });
}

/**
 * out[T, H, Dh] = rope(x) with positions[t] (u32 per token, so left padding and KV-cache offsets work). Works for
 * any H (queries, or GQA keys with fewer heads). out must not alias x (WebGPU forbids a buffer bound read and write);
 * elements of `out` outside the rotated view are left untouched.
 */
export function ropeForward(...args: RopeArgs): void {
  dispatch(1, ...args);
}

/** dx = R^T dy: the inverse rotation. dx is WRITTEN (activation gradient, not accumulated). */
export function ropeBackward(...args: RopeArgs): void {
  dispatch(-1, ...args);
}

function rotate(
  x: ArrayLike<number>,
  positions: Uint32Array,
  H: number,
  Dh: number,
  theta: number,
  sgn: number,
): Float64Array {
  const T = positions.length;
  const half = Dh / 2;
  const y = new Float64Array(T * H * Dh);
  for (let t = 0; t < T; t++) {
    for (let h = 0; h < H; h++) {
      const base = (t * H + h) * Dh;
      for (let i = 0; i < half; i++) {
        const angle = positions[t] * invFreq(Dh, theta, i);
        const c = Math.cos(angle);
        const s = sgn * Math.sin(angle);
        const a = x[base + i];
        const b = x[base + i + half];
        y[base + i] = a * c - b * s;
        y[base + i + half] = b * c + a * s;
      }
    }
  }
  return y;
}

/** HF reference: q*cos + rotate_half(q)*sin with rotate_half(q) = [-q2, q1]. */
export function ropeForwardRef(
  x: ArrayLike<number>,
  positions: Uint32Array,
  H: number,
  Dh: number,
  theta: number,
): Float64Array {
  return rotate(x, positions, H, Dh, theta, 1);
}

export function ropeBackwardRef(
  dy: ArrayLike<number>,
  positions: Uint32Array,
  H: number,
  Dh: number,
  theta: number,
): Float64Array {
  return rotate(dy, positions, H, Dh, theta, -1);
}
