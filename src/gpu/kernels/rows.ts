// Row gather / scatter between a [T, D] buffer and its selected rows [n, D] (u32 row indices), plus CPU references.
import cellsSource from '../../../shaders/common/row_cells.wgsl?raw';
import source from '../../../shaders/rows_scatter.wgsl?raw';
import { Kernel } from '../launcher';
import type { Gpu } from '../runtime';
import { grid1d } from './grid';
import { embeddingForward } from './embedding';
import { checkBuffers } from './logprobs';

const scatterKernel = new Kernel({
  family: 'rows',
  source: cellsSource + source,
  uniforms: [
    ['n', 'u32'],
    ['D', 'u32'],
    ['_p0', 'u32'],
    ['_p1', 'u32'],
  ],
});
const WG = 256;

/** out[i, :] = src[rows[i], :] for i < n; src has T rows (the embedding gather with the rows as ids). */
export function gatherRows(
  gpu: Gpu,
  out: GPUBuffer,
  src: GPUBuffer,
  rows: GPUBuffer,
  n: number,
  T: number,
  D: number,
): void {
  checkBuffers('gatherRows', { out: [out, n * D], src: [src, T * D], rows: [rows, n] });
  embeddingForward(gpu, out, src, rows, n, D, T);
}

/** dst[rows[i], :] = src[i, :] for i < n; other rows of dst untouched. rows must be distinct and < dst's rows. */
export function scatterRows(
  gpu: Gpu,
  dst: GPUBuffer,
  src: GPUBuffer,
  rows: GPUBuffer,
  n: number,
  T: number,
  D: number,
): void {
  checkBuffers('scatterRows', { dst: [dst, T * D], src: [src, n * D], rows: [rows, n] });
  scatterKernel.dispatch(gpu, {
    buffers: [src, rows, dst],
    uniforms: { n, D, _p0: 0, _p1: 0 },
    workgroups: grid1d(n * D, WG),
    overrides: { WG },
  });
}

export function gatherRowsRef(src: Float32Array, rows: Uint32Array, D: number): Float32Array {
  const out = new Float32Array(rows.length * D);
  rows.forEach((r, i) => out.set(src.subarray(r * D, r * D + D), i * D));
  return out;
}

/** Returns a copy of dst with the rows scattered in. */
export function scatterRowsRef(dst: Float32Array, src: Float32Array, rows: Uint32Array, D: number): Float32Array {
  const out = dst.slice();
  rows.forEach((r, i) => out.set(src.subarray(i * D, i * D + D), r * D));
  return out;
}
