// Matmul test cases shared by the matmul and quad-shared linear tests: the three forms, and the
// accumulate-with-alpha check on operands placed at element offsets in their buffers.
import type { Gpu } from '../gpu/runtime';
import { matmulRef, type MatmulArgs } from '../gpu/kernels/matmul';
import { maxAbsDiff, maxRelDiff, randomF32 } from './random';

export const MATMUL_FORMS = [
  { name: 'A·B', transA: false, transB: false },
  { name: 'A·Bᵀ', transA: false, transB: true },
  { name: 'Aᵀ·B', transA: true, transB: false },
] as const;

export type MatmulForm = (typeof MATMUL_FORMS)[number];

/**
 * Fresh random A, B and C at element offsets 8, 4 and 12 (multiples of 4, so vec4 paths stay eligible); `run`
 * launches C += alpha·op(A)·op(B) on them. Returns C's max relative error against matmulRef, its max abs error, and
 * the largest change to C's elements before its offset (must be 0).
 */
export async function offsetAccumulateDiffs(
  gpu: Gpu,
  rng: () => number,
  [M, N, K]: [number, number, number],
  form: MatmulForm,
  alpha: number,
  run: (args: MatmulArgs) => void,
): Promise<{ rel: number; abs: number; prefix: number }> {
  const [aOff, bOff, cOff] = [8, 4, 12];
  const a = randomF32(aOff + M * K, rng);
  const b = randomF32(bOff + K * N, rng);
  const c0 = randomF32(cOff + M * N, rng);
  const [ga, gb, gc] = [gpu.buffer('mm.a', a), gpu.buffer('mm.b', b), gpu.buffer('mm.c', c0)];
  const ops = { a: { buffer: ga, offset: aOff }, b: { buffer: gb, offset: bOff }, c: { buffer: gc, offset: cOff } };
  run({ ...ops, M, N, K, ...form, alpha, accumulate: true });
  const got = await gpu.readF32(gc);
  [ga, gb, gc].forEach((x) => x.destroy());
  const want = matmulRef(a.subarray(aOff), b.subarray(bOff), M, N, K, { ...form, alpha, c: c0.subarray(cOff) });
  const c = got.subarray(cOff, cOff + M * N);
  return {
    rel: maxRelDiff(c, want),
    abs: maxAbsDiff(c, want),
    prefix: maxAbsDiff(got.subarray(0, cOff), c0.subarray(0, cOff)),
  };
}
