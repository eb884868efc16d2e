// Embedding launchers (gather forward, deterministic atomic-free scatter-add backward) and their CPU references.
import cellsSource from '../../../shaders/common/row_cells.wgsl?raw';
import embeddingSource from '../../../shaders/embedding.wgsl?raw';
import { Kernel } from '../launcher';
import type { Gpu } from '../runtime';
import { grid1d } from './grid';

const uniforms = [
  ['T', 'u32'],
  ['D', 'u32'],
  ['V', 'u32'],
  ['pad', 'u32'],
] as const;
type Uniform = (typeof uniforms)[number][0];

const source = cellsSource + embeddingSource;
const forwardKernel = new Kernel<Uniform>({ family: 'embedding', source, entryPoint: 'forward', uniforms });
const linkKernel = new Kernel<Uniform>({ family: 'embedding', source, entryPoint: 'link', uniforms });
const accumulateKernel = new Kernel<Uniform>({ family: 'embedding', source, entryPoint: 'accumulate', uniforms });

const WG = 256;
const LINK_WG = 64;

/** out[T, D] = table[ids[t], :] for table [V, D] and u32 ids [T]. An id >= V yields a NaN row (loud, not silent). */
export function embeddingForward(
  gpu: Gpu,
  out: GPUBuffer,
  table: GPUBuffer,
  ids: GPUBuffer,
  T: number,
  D: number,
  V: number,
): void {
  forwardKernel.dispatch(gpu, {
    buffers: [table, ids, out],
    uniforms: { T, D, V, pad: 0 },
    workgroups: grid1d(T * D, WG),
    overrides: { WG },
  });
}

/**
 * dTable[ids[t], :] += dOut[t, :] over all tokens. ACCUMULATES into dTable (+=) so gradients can be summed over
 * micro-batches; zero dTable before the first micro-batch. Rows whose id never occurs are left untouched.
 * Deterministic: tokens sharing an id are summed in token order by one thread per column (no float atomics).
 * Cost: O(T^2) integer compares for the link pass (early exit: ~T * distinct-gap on real text) plus O(T*D) adds.
 */
export function embeddingBackward(
  gpu: Gpu,
  dTable: GPUBuffer,
  dOut: GPUBuffer,
  ids: GPUBuffer,
  T: number,
  D: number,
  V: number,
): void {
  if (T === 0) return;
  const link = gpu.temp('embedding.link', 2 * T * 4);
  const u = { T, D, V, pad: 0 };
  linkKernel.dispatch(gpu, {
    buffers: [ids, link],
    uniforms: u,
    workgroups: grid1d(T, LINK_WG),
    overrides: { WG: LINK_WG },
  });
  accumulateKernel.dispatch(gpu, {
    buffers: [dOut, ids, link, dTable],
    uniforms: u,
    workgroups: grid1d(T * D, WG),
    overrides: { WG },
  });
  gpu.release(link);
}

export function embeddingForwardRef(table: Float32Array, ids: Uint32Array, D: number): Float32Array {
  const out = new Float32Array(ids.length * D);
  for (let t = 0; t < ids.length; t++) {
    for (let d = 0; d < D; d++) out[t * D + d] = table[ids[t] * D + d];
  }
  return out;
}

/** Accumulates into dTable in place (+=), like the GPU kernel. */
export function embeddingBackwardRef<A extends Float32Array | Float64Array>(
  dTable: A,
  dOut: ArrayLike<number>,
  ids: Uint32Array,
  D: number,
): A {
  for (let t = 0; t < ids.length; t++) {
    for (let d = 0; d < D; d++) dTable[ids[t] * D + d] += dOut[t * D + d];
  }
  return dTable;
}
