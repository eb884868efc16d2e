// AdamW launcher over one flat buffer (clip coefficient read from the GPU), a buffer fill/zero, and CPU references.
import source from '../../../shaders/adamw.wgsl?raw';
import { Kernel } from '../launcher';
import type { Gpu } from '../runtime';
import { grid1d } from './grid';

const stepKernel = new Kernel({
  family: 'adamw',
  source,
  entryPoint: 'step',
  uniforms: [
    ['n', 'u32'],
    ['lr', 'f32'],
    ['beta1', 'f32'],
    ['beta2', 'f32'],
    ['eps', 'f32'],
    ['wd', 'f32'],
    ['stepSize', 'f32'],
    ['bc2Sqrt', 'f32'],
    ['masked', 'u32'],
    ['pad0', 'u32'],
    ['pad1', 'u32'],
    ['pad2', 'u32'],
  ],
});
const fillKernel = new Kernel({
  family: 'fill',
  source,
  entryPoint: 'fill',
  uniforms: [
    ['n', 'u32'],
    ['value', 'f32'],
    ['pad0', 'u32'],
    ['pad1', 'u32'],
  ],
});
const WG = 256;

export interface AdamWConfig {
  lr: number;
  beta1: number;
  beta2: number;
  eps: number;
  weightDecay: number;
  /**
   * Which elements weight decay applies to: a u32 bitmask buffer (bit i%32 of word i/32 set = decay element i) from
   * `decayMaskFromRanges`. Absent: every element decays.
   */
  decayMask?: GPUBuffer;
}

const dummies = new WeakMap<Gpu, GPUBuffer>();
function dummyMask(gpu: Gpu): GPUBuffer {
  let b = dummies.get(gpu);
  if (!b) dummies.set(gpu, (b = gpu.buffer('adamw.dummy_mask', 16)));
  return b;
}

/** The bitmask `AdamWConfig.decayMask` expects, from the [offset, size) ranges (e.g. a layout's tensors) that decay. */
export function decayMaskFromRanges(n: number, ranges: ReadonlyArray<{ offset: number; size: number }>): Uint32Array {
  const bits = new Uint32Array(Math.max(1, Math.ceil(n / 32)));
  for (const { offset, size } of ranges) for (let i = offset; i < offset + size; i++) bits[i >>> 5] |= 1 << (i & 31);
  return bits;
}

/**
 * One AdamW update of params[n] from grads[n] * clip, with moments m[n], v[n] (all flat f32) and `step` counted
 * from 1 (bias correction). `clip` is the 16-byte output of `gradNorm` ([norm, clip, nonFinite, sumsq]); a
 * non-finite flag skips the update. Weight decay applies to every element unless `cfg.decayMask` says otherwise.
 */
export function adamwStep(
  gpu: Gpu,
  params: GPUBuffer,
  m: GPUBuffer,
  v: GPUBuffer,
  grads: GPUBuffer,
  clip: GPUBuffer,
  n: number,
  cfg: AdamWConfig,
  step: number,
): void {
  if (!(step >= 1) || !Number.isInteger(step)) throw new Error(`adamw: step must be an integer >= 1, got ${step}`);
  const bc1 = 1 - Math.pow(cfg.beta1, step);
  const bc2 = 1 - Math.pow(cfg.beta2, step);
  stepKernel.dispatch(gpu, {
    buffers: [grads, clip, params, m, v, cfg.decayMask ?? dummyMask(gpu)],
    uniforms: {
      n,
      lr: cfg.lr,
      beta1: cfg.beta1,
      beta2: cfg.beta2,
      eps: cfg.eps,
      wd: cfg.weightDecay,
      stepSize: cfg.lr / bc1,
      bc2Sqrt: Math.sqrt(bc2),
      masked: cfg.decayMask ? 1 : 0,
      pad0: 0,
      pad1: 0,
      pad2: 0,
    },
    workgroups: grid1d(n, WG),
    overrides: { WG },
  });
}

/** buf[0..n) = value (f32). Use value 0 to clear gradient accumulators before a new step. */
export function fillBuffer(gpu: Gpu, buf: GPUBuffer, n: number, value = 0): void {
  fillKernel.dispatch(gpu, {
    buffers: [buf],
    uniforms: { n, value, pad0: 0, pad1: 0 },
    workgroups: grid1d(n, WG),
    overrides: { WG },
  });
}

export function zeroBuffer(gpu: Gpu, buf: GPUBuffer, n: number): void {
  fillBuffer(gpu, buf, n, 0);
}

/**
 * In-place float64 AdamW (PyTorch's torch.optim.AdamW formula); clip scales the gradient, skip leaves all as is;
 * `mask` (the bits `decayMaskFromRanges` packs) limits weight decay to the elements whose bit is set.
 */
export function adamwStepRef(
  params: Float64Array,
  m: Float64Array,
  v: Float64Array,
  grads: ArrayLike<number>,
  clip: number,
  cfg: Omit<AdamWConfig, 'decayMask'>,
  step: number,
  skip = false,
  mask?: Uint32Array,
): void {
  if (skip) return;
  const bc1 = 1 - Math.pow(cfg.beta1, step);
  const bc2 = 1 - Math.pow(cfg.beta2, step);
  for (let i = 0; i < params.length; i++) {
    const g = grads[i] * clip;
    if (!mask || (mask[i >>> 5] >>> (i & 31)) & 1) params[i] *= 1 - cfg.lr * cfg.weightDecay;
    m[i] = cfg.beta1 * m[i] + (1 - cfg.beta1) * g;
    v[i] = cfg.beta2 * v[i] + (1 - cfg.beta2) * g * g;
    params[i] -= ((cfg.lr / bc1) * m[i]) / (Math.sqrt(v[i]) / Math.sqrt(bc2) + cfg.eps);
  }
}
