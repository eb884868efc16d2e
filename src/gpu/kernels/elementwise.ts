// Launcher and CPU reference for elementwise ops (add, mul, axpby, silu, scale, relu-gate).
import source from '../../../shaders/elementwise.wgsl?raw';
import { Kernel } from '../launcher';
import type { Gpu } from '../runtime';
import { grid1d } from './grid';

export const ELEMENTWISE_OPS = { add: 0, mul: 1, axpby: 2, silu: 3, scale: 4, reluGate: 5 } as const;
export type ElementwiseOp = keyof typeof ELEMENTWISE_OPS;

const kernel = new Kernel({
  family: 'elementwise',
  source,
  uniforms: [
    ['n', 'u32'],
    ['op', 'u32'],
    ['alpha', 'f32'],
    ['beta', 'f32'],
  ],
});

const WG = 256;

/** out[i] = op(a[i], b[i % len(b)]); `b` may be shorter than `a` to broadcast a row. */
export function elementwise(
  gpu: Gpu,
  op: ElementwiseOp,
  out: GPUBuffer,
  a: GPUBuffer,
  b: GPUBuffer,
  n: number,
  alpha = 1,
  beta = 1,
): void {
  kernel.dispatch(gpu, {
    buffers: [a, b, out],
    uniforms: { n, op: ELEMENTWISE_OPS[op], alpha, beta },
    workgroups: grid1d(n, WG),
    overrides: { WG },
  });
}

export function elementwiseRef(op: ElementwiseOp, a: Float32Array, b: Float32Array, alpha = 1, beta = 1): Float32Array {
  const out = new Float32Array(a.length);
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i % b.length];
    switch (op) {
      case 'add':
        out[i] = x + y;
        break;
      case 'mul':
        out[i] = x * y;
        break;
      case 'axpby':
        out[i] = alpha * x + beta * y;
        break;
      case 'silu':
        out[i] = x / (1 + Math.exp(-x));
        break;
      case 'scale':
        out[i] = alpha * x;
        break;
      case 'reluGate':
        out[i] = Math.max(x, 0) * y;
        break;
    }
  }
  return out;
}
