// Heap left behind: a job that grows the wasm memory (to just under the recycle threshold) must not make the honest
// jobs after it on that worker dearer than on a fresh one. Counted work, not time: with copy restores every restore
// writes everything it covers, so restoredBytes per restore is what each later job pays for the reset.
import { describe, expect, it } from 'vitest';
import { statuses, usePool } from './test-helpers';
import type { JudgeRequest } from './types';

const pool = usePool({ restore: 'copy', recycleBytes: 256 * 2 ** 20 });

const HONEST: JudgeRequest = {
  code: 'def f(xs):\n    return sorted(xs)[::-1]\n',
  entryPoint: 'f',
  tests: ['assert f([1, 3, 2]) == [3, 2, 1]', 'assert f([]) == []'],
};

async function bytesPerRestore(jobs: number): Promise<number> {
  const s = pool().stats;
  const [b0, r0] = [s.restoredBytes, s.restores];
  for (let i = 0; i < jobs; i++) expect(statuses(await pool().judge(HONEST))).toEqual(['passed', 'passed']);
  return (pool().stats.restoredBytes - b0) / (pool().stats.restores - r0);
}

describe('heap left behind', () => {
  it.each([12, 40, 200])(
    'after a job that grew memory by %i MiB, a restore costs at most 1.5x a fresh one',
    async (mib) => {
      const fresh = await bytesPerRestore(5);
      const grow = await pool().judge({
        code: 'def f(n):\n    b = bytearray(n)\n    return len(b)\n',
        entryPoint: 'f',
        tests: [`assert f(${mib} * 2**20) == ${mib} * 2**20`],
        timeoutMs: 20_000,
      });
      expect(statuses(grow)).toEqual(['passed']);
      await pool().warm();
      const after = await bytesPerRestore(5);
      console.log(`grew ${mib} MiB: ${(fresh / 2 ** 20).toFixed(1)} → ${(after / 2 ** 20).toFixed(1)} MiB per restore`);
      expect(after / fresh).toBeLessThanOrEqual(1.5);
    },
  );
});
