// SwiGLU launchers and CPU references. Layout: gate and up are two separate [T, F] buffers (not one fused [T, 2F]).
import source from '../../../shaders/swiglu.wgsl?raw';
import { Kernel } from '../launcher';
import type { Gpu } from '../runtime';
import { grid1d } from './grid';

const uniforms = [
  ['n', 'u32'],
  ['pad0', 'u32'],
  ['pad1', 'u32'],
  ['pad2', 'u32'],
] as const;
type Uniform = (typeof uniforms)[number][0];
const forwardKernel = new Kernel<Uniform>({ family: 'swiglu', source, entryPoint: 'forward', uniforms });
const backwardKernel = new Kernel<Uniform>({ family: 'swiglu', source, entryPoint: 'backward', uniforms });
const WG = 256;

/** h[T, F] = silu(gate) * up, with gate and up separate [T, F] buffers; n = T * F. */
export function swigluForward(gpu: Gpu, h: GPUBuffer, gate: GPUBuffer, up: GPUBuffer, n: number): void {
  forwardKernel.dispatch(gpu, {
    buffers: [gate, up, h],
    uniforms: { n, pad0: 0, pad1: 0, pad2: 0 },
    workgroups: grid1d(n, WG),
    overrides: { WG },
  });
}

/** dgate and dup [T, F] are WRITTEN (activation gradients, not accumulated). */
export function swigluBackward(gpu: Gpu, dgate: GPUBuffer, dup: GPUBuffer, dh: GPUBuffer, gate: GPUBuffer, up: GPUBuffer, n: number): void {
  backwardKernel.dispatch(gpu, {
    buffers: [dh, gate, up, dgate, dup],
    uniforms: { n, pad0: 0, pad1: 0, pad2: 0 },
    workgroups: grid1d(n, WG),
    overrides: { WG },
  });
}

const sigmoid = (g: number): number => 1 / (1 + Math.exp(-g));

export function swigluForwardRef(gate: ArrayLike<number>, up: ArrayLike<number>): Float64Array {
  const h = new Float64Array(gate.length);
  for (let i = 0; i < gate.length; i++) h[i] = gate[i] * sigmoid(gate[i]) * up[i];
  return h;
}

export function swigluBackwardRef(dh: ArrayLike<number>, gate: ArrayLike<number>, up: ArrayLike<number>): { dgate: Float64Array; dup: Float64Array } {
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
