// Launchers for matrices split by rows across buffers (shaders/chunk_rows.wgsl): the embedding lookup from one row
// chunk of the table, and column-block moves between a [R, ld] matrix and a dense [R, w] one; with CPU references.
import chunkSource from '../../../shaders/chunk_rows.wgsl?raw';
import cellsSource from '../../../shaders/common/row_cells.wgsl?raw';
import { Kernel } from '../launcher';
import type { Gpu } from '../runtime';
import { grid1d } from './grid';

const uniforms = [
  ['n', 'u32'],
  ['D', 'u32'],
  ['lo', 'u32'],
  ['rows', 'u32'],
  ['V', 'u32'],
  ['ld', 'u32'],
  ['pad', 'u32'],
  ['_p', 'u32'],
] as const;
type Uniform = (typeof uniforms)[number][0];

const source = cellsSource + chunkSource;

const lookupKernel = new Kernel<Uniform>({ family: 'chunk_rows', source, entryPoint: 'lookup', uniforms });
const placeKernel = new Kernel<Uniform>({ family: 'chunk_rows', source, entryPoint: 'place', uniforms });
const takeKernel = new Kernel<Uniform>({ family: 'chunk_rows', source, entryPoint: 'take', uniforms });

const WG = 256;

/** A chunk of a row-split [V, D] table: rows [lo, lo + rows) in `table`. */
export interface RowChunk {
  buffer: GPUBuffer;
  lo: number;
  rows: number;
}

/**
 * out[t, :] = table[ids[t], :] with the table split into row chunks that together cover [0, V): one dispatch per
 * chunk, each writing only its own tokens (ids >= V give NaN rows, as embeddingForward).
 */
export function chunkedLookup(
  gpu: Gpu,
  out: GPUBuffer,
  chunks: RowChunk[],
  ids: GPUBuffer,
  n: number,
  D: number,
  V: number,
): void {
  for (const c of chunks) {
    lookupKernel.dispatch(gpu, {
      buffers: [c.buffer, ids, out],
      uniforms: { n, D, lo: c.lo, rows: c.rows, V, ld: 0, pad: 0, _p: 0 },
      workgroups: grid1d(n * D, WG),
      overrides: { WG },
    });
  }
}

/** dst[r, c0 + j] = src[r, j] for a [R, w] src and a [R, ld] dst. */
export function placeColumns(gpu: Gpu, dst: GPUBuffer, src: GPUBuffer, R: number, w: number, ld: number, c0: number) {
  columns(placeKernel, gpu, dst, src, R, w, ld, c0);
}

/** dst[r, j] = src[r, c0 + j] for a [R, ld] src and a [R, w] dst. */
export function takeColumns(gpu: Gpu, dst: GPUBuffer, src: GPUBuffer, R: number, w: number, ld: number, c0: number) {
  columns(takeKernel, gpu, dst, src, R, w, ld, c0);
}

function columns(
  k: Kernel<Uniform>,
  gpu: Gpu,
  dst: GPUBuffer,
  src: GPUBuffer,
  R: number,
  w: number,
  ld: number,
  c0: number,
): void {
  k.dispatch(gpu, {
    buffers: [src, dst],
    uniforms: { n: R, D: w, lo: c0, rows: 0, V: 0, ld, pad: 0, _p: 0 },
    workgroups: grid1d(R * w, WG),
    overrides: { WG },
  });
}

/** Row ranges of at most `maxRows` rows covering [0, V). */
export function rowRanges(V: number, maxRows: number): { lo: number; rows: number }[] {
  if (maxRows < 1) throw new Error(`rowRanges: a chunk must hold at least one row (got ${maxRows})`);
  const out: { lo: number; rows: number }[] = [];
  for (let lo = 0; lo < V; lo += maxRows) out.push({ lo, rows: Math.min(maxRows, V - lo) });
  return out;
}

/** CPU reference of chunkedLookup over the whole table: out rows for ids < V, NaN rows otherwise. */
export function chunkedLookupRef(table: Float32Array, ids: Uint32Array, D: number, V: number): Float32Array {
  const out = new Float32Array(ids.length * D);
  ids.forEach((id, t) => {
    for (let d = 0; d < D; d++) out[t * D + d] = id < V ? table[id * D + d] : NaN;
  });
  return out;
}
