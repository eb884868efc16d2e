// gpu.tuning: each context owns its kernel choices (no module global shared across contexts), and the launchers read
// the context's values rather than their own defaults.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from './node';
import { defaultTuning } from './tuning';
import { rowWorkgroup, softwareAdapter } from './kernels/logprobs';
import { quadMatmulApplies } from './kernels/linear-quad';

describe('gpu.tuning', () => {
  it('is a fresh object per context', () => {
    const a = defaultTuning();
    const b = defaultTuning();
    a.linear.kChunk = 7;
    a.attention.rows = 3;
    expect(b).toEqual(defaultTuning());
  });

  it('the launchers follow the context’s pinned values', async () => {
    const gpu = await sharedNodeGpu();
    expect(gpu.tuning).toEqual(defaultTuning());
    try {
      gpu.tuning.rowReduceWorkgroup = 64;
      expect(rowWorkgroup(gpu)).toBe(64);
      gpu.tuning.rowReduceWorkgroup = 0;
      expect(rowWorkgroup(gpu)).toBe(softwareAdapter(gpu) ? 16 : 256);
      const a = gpu.buffer('tuning.a', 64 * 64 * 4);
      const args = { a, b: a, c: a, M: 64, N: 64, K: 64 };
      expect(quadMatmulApplies(gpu, args)).toBe(gpu.hasSubgroups);
      gpu.tuning.linear.quad = false;
      expect(quadMatmulApplies(gpu, args)).toBe(false);
      a.destroy();
    } finally {
      Object.assign(gpu.tuning, defaultTuning());
    }
  });
});
