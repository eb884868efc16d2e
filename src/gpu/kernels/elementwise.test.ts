// Elementwise kernels against their CPU reference on fresh random data, including sizes off the workgroup grid.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import { elementwise, elementwiseRef, ELEMENTWISE_OPS, type ElementwiseOp } from './elementwise';
import { freshSeed, maxAbsDiff, mulberry32, randomF32 } from '../../testing/random';

describe('elementwise', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  for (const op of Object.keys(ELEMENTWISE_OPS) as ElementwiseOp[]) {
    for (const n of [1, 255, 257, 4099]) {
      it(`${op} n=${n} (seed ${seed})`, async () => {
        const gpu = await sharedNodeGpu();
        const a = randomF32(n, rng, 3);
        const b = randomF32(n, rng, 3);
        const ga = gpu.buffer('a', a);
        const gb = gpu.buffer('b', b);
        const out = gpu.buffer('out', n * 4);
        elementwise(gpu, op, out, ga, gb, n, 0.7, -1.3);
        const got = await gpu.readF32(out, n);
        const want = elementwiseRef(op, a, b, 0.7, -1.3);
        const diff = maxAbsDiff(got, want);
        console.log(`elementwise ${op} n=${n} max abs diff ${diff.toExponential(2)}`);
        expect(diff).toBeLessThan(1e-5);
        [ga, gb, out].forEach((x) => x.destroy());
      });
    }
  }
  it('broadcasts a shorter b row', async () => {
    const gpu = await sharedNodeGpu();
    const a = randomF32(60, rng);
    const b = randomF32(6, rng);
    const out = gpu.buffer('out', 240);
    elementwise(gpu, 'add', out, gpu.buffer('a', a), gpu.buffer('b', b), 60);
    expect(maxAbsDiff(await gpu.readF32(out, 60), elementwiseRef('add', a, b))).toBeLessThan(1e-6);
  });
});
