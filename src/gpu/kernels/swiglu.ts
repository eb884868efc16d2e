// SwiGLU launchers and CPU references, for separate gate/up [T, F] buffers or one fused gu [T, 2F] = [gate | up].
import source from '../../../shaders/swiglu.wgsl?raw';
import { Kernel } from '../launcher';
import type { Gpu } from '../runtime';
import { grid1d } from './grid';

const uniforms = [
  ['n', 'u32'],
  ['F', 'u32'],
  ['pad1', 'u32'],
  ['pad2', 'u32'],
] as const;
type Uniform = (typeof uniforms)[number][0];
const forwardKernel = new Kernel<Uniform>({ family: 'swiglu', source, entryPoint: 'forward', uniforms });
const backwardKernel = new Kernel<Uniform>({ family: 'swiglu', source, entryPoint: 'backward', uniforms });
const forwardFusedKernel = new Kernel<Uniform>({ family: 'swiglu', source, entryPoint: 'forwardFused', uniforms });
const backwardFusedKernel = new Kernel<Uniform>({ family: 'swiglu', source, entryPoint: 'backwardFused', uniforms });
const WG = 256;

/** h[T, F] = silu(gate) * up, with gate and up separate [T, F] buffers; n = T * F. */
export function swigluForward(gpu: Gpu, h: GPUBuffer, gate: GPUBuffer, up: GPUBuffer, n: number): void {
  forwardKernel.dispatch(gpu, {
    buffers: [gate, up, h],
    uniforms: { n, F: 0, pad1: 0, pad2: 0 },
    workgroups: grid1d(n, WG),
    overrides: { WG },
  });
}

/** dgate and dup [T, F] are WRITTEN (activation gradients, not accumulated). */
export function swigluBackward(
  gpu: Gpu,
  dgate: GPUBuffer,
  dup: GPUBuffer,
  dh: GPUBuffer,
  gate: GPUBuffer,
  up: GPUBuffer,
  n: number,
): void {
  backwardKernel.dispatch(gpu, {
    buffers: [dh, gate, up, dgate, dup],
    uniforms: { n, F: 0, pad1: 0, pad2: 0 },
    workgroups: grid1d(n, WG),
    overrides: { WG },
  });
}

/** Fused layout: h[T, F] = silu(gu[:, :F]) * gu[:, F:], with gu [T, 2F] (row = [gate | up]). */
export function swigluForwardFused(gpu: Gpu, h: GPUBuffer, gu: GPUBuffer, T: number, F: number): void {
  forwardFusedKernel.dispatch(gpu, {
    buffers: [gu, h],
    uniforms: { n: T * F, F, pad1: 0, pad2: 0 },
    workgroups: grid1d(T * F, WG),
    overrides: { WG },
  });
}

/** Fused layout: dgu [T, 2F] = [dgate | dup] is WRITTEN (not accumulated). */
export function swigluBackwardFused(
  gpu: Gpu,
  dgu: GPUBuffer,
  dh: GPUBuffer,
  gu: GPUBuffer,
  T: number,
  F: number,
): void {
  backwardFusedKernel.dispatch(gpu, {
    buffers: [dh, gu, dgu],
    uniforms: { n: T * F, F, pad1: 0, pad2: 0 },
    workgroups: grid1d(T * F, WG),
    overrides: { WG },
  });
}

/** Splits a fused [T, 2F] buffer into gate and up [T, F] (for the references). */
export function splitGateUp(gu: ArrayLike<number>, T: number, F: number): { gate: Float64Array; up: Float64Array } {
  const gate = new Float64Array(T * F);
  const up = new Float64Array(T * F);
  for (let t = 0; t < T; t++) {
    for (let f = 0; f < F; f++) {
      gate[t * F + f] = gu[t * 2 * F + f];
      up[t * F + f] = gu[t * 2 * F + F + f];
    }
  }
  return { gate, up };
}

const sigmoid = (g: number): number => 1 / (1 + Math.exp(-g));

export function swigluForwardRef(gate: ArrayLike<number>, up: ArrayLike<number>): Float64Array {
  const h = new Float64Array(gate.length);
  for (let i = 0; i < gate.length; i++) h[i] = gate[i] * sigmoid(gate[i]) * up[i];
  return h;
}

export function swigluBackwardRef(
  dh: ArrayLike<number>,
  gate: ArrayLike<number>,
  up: ArrayLike<number>,
): { dgate: Float64Array; dup: Float64Array } {
  const dgate = new Float64Array(gate.length);
  const dup = new Float64Array(gate.length);
  for (let i = 0; i < gate.length; i++) {
    const g = gate[i];
    const s = sigmoid(g);
    dup[i] = dh[i] * g * s;
    dgate[i] = dh[i] * up[i] * s * (1 + g * (1 - s));
  }
  return { dgate, dup };
}
