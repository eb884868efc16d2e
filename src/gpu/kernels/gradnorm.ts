// Global grad-norm launcher (two-pass GPU reduction, result stays on the GPU for AdamW) and its CPU reference.
import source from '../../../shaders/gradnorm.wgsl?raw';
import { Kernel, ceilDiv } from '../launcher';
import type { Gpu } from '../runtime';

const uniforms = [
  ['n', 'u32'],
  ['partials', 'u32'],
  ['maxNorm', 'f32'],
  ['pad', 'u32'],
] as const;
type Uniform = (typeof uniforms)[number][0];
const partialKernel = new Kernel<Uniform>({ family: 'gradnorm', source, entryPoint: 'partial', uniforms });
const finishKernel = new Kernel<Uniform>({ family: 'gradnorm', source, entryPoint: 'finish', uniforms });

/** Layout of the 4-float output buffer. */
export const GRADNORM_OUT = { norm: 0, clip: 1, nonFinite: 2, sumsq: 3 } as const;
export const GRADNORM_OUT_BYTES = 16;

const WG = 64;
/** At least this many elements per partial-sum thread, so small buffers do not pay for idle threads. */
const ELEMS_PER_THREAD = 64;
/** Enough threads to fill a GPU's memory bus; the single finishing thread then adds at most this many values. */
const MAX_PARTIALS = 8192;

/**
 * out[0..4) = [norm, clip, nonFinite, sumsq] for the flat gradient `grads` of n floats, where
 * clip = min(1, maxNorm / (norm + 1e-6)) (1 when maxNorm <= 0, i.e. clipping off). If the sum of squares is not
 * finite, nonFinite = 1 and clip = 0; `adamwStep` then skips the update entirely, so one bad batch cannot poison the
 * weights or the moments. Nothing is read back: AdamW consumes `out` on the GPU.
 */
export function gradNorm(gpu: Gpu, out: GPUBuffer, grads: GPUBuffer, n: number, maxNorm: number): void {
  const partials = Math.max(1, Math.min(MAX_PARTIALS, ceilDiv(n, ELEMS_PER_THREAD)));
  const tmp = gpu.temp('gradnorm.partials', partials * 4);
  const u = { n, partials, maxNorm, pad: 0 };
  partialKernel.dispatch(gpu, {
    buffers: [grads, tmp],
    uniforms: u,
    workgroups: [ceilDiv(partials, WG)],
    overrides: { WG },
  });
  finishKernel.dispatch(gpu, { buffers: [tmp, out], uniforms: u, workgroups: [1] });
  gpu.release(tmp);
}

export function gradNormRef(
  grads: ArrayLike<number>,
  maxNorm: number,
): { norm: number; clip: number; nonFinite: boolean } {
  let ss = 0;
  for (let i = 0; i < grads.length; i++) ss += grads[i] * grads[i];
  const norm = Math.sqrt(ss);
  if (!Number.isFinite(ss)) return { norm, clip: 0, nonFinite: true };
  return { norm, clip: maxNorm > 0 ? Math.min(1, maxNorm / (norm + 1e-6)) : 1, nonFinite: false };
}
