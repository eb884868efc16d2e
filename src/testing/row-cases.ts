// Shared harness of the row-kernel tests (logprobs, xent): one test per case on fresh random logits and targets,
// run with the row-reduction workgroup the case forces.
import { it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import type { Gpu } from '../gpu/runtime';
import { withRowReduceWorkgroup } from './loss-check';
import { randomF32 } from './random';

export interface RowCase {
  T: number;
  V: number;
  /** Logits are uniform in ±scale, shifted by offset (large offsets test the max-subtraction). */
  scale: number;
  offset: number;
  /** Forced row-reduction workgroup size; absent = the runtime's choice. */
  wg?: number;
}

/** Registers one test per case; logits [T, V] and targets [T] are drawn from rng in case order (one seed, one data set). */
export function itRowCases<C extends RowCase>(
  cases: C[],
  title: (c: C) => string,
  rng: () => number,
  body: (gpu: Gpu, c: C, logits: Float32Array, targets: Uint32Array) => Promise<void>,
): void {
  for (const c of cases) {
    it(title(c), async () => {
      const gpu = await sharedNodeGpu();
      const logits = randomF32(c.T * c.V, rng, c.scale).map((x) => x + c.offset);
      const targets = new Uint32Array(c.T).map(() => Math.floor(rng() * c.V));
      await withRowReduceWorkgroup(gpu, c.wg ?? 0, () => body(gpu, c, logits, targets));
    });
  }
}
