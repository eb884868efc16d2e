// gpu.tuning: each context owns its kernel choices (no module global shared across contexts), and the launchers read
// the context's values rather than their own defaults.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from './node';
import { defaultTuning } from './tuning';
import { rowWorkgroup, softwareAdapter } from './kernels/logprobs';
import { quadMatmulApplies } from './kernels/linear-quad';
import type { AdapterSummary } from './device';
import type { Gpu } from './runtime';

/** A context as far as the variant choice reads it: the adapter's summary and the tuning. */
const contextOn = (summary: Partial<AdapterSummary>): Gpu =>
  ({
    summary: { vendor: '', architecture: '', device: '', description: '', fallback: false, ...summary },
    tuning: defaultTuning(),
  }) as unknown as Gpu;

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

  // What each stack's adapter reports here (GPUAdapterInfo, read 05 Dec 2026): Firefox names nothing, so only
  // isFallbackAdapter tells its lavapipe or SwiftShader from a GPU. Taking the GPU variants there cost 4x the CPU.
  it('CPU adapters get the CPU variants, told by name or by isFallbackAdapter', () => {
    const dawn = { vendor: 'google', architecture: 'swiftshader', description: 'SwiftShader driver 5.0.0' };
    const cases: [string, Partial<AdapterSummary>, boolean][] = [
      ['Dawn on SwiftShader (Node, Chromium)', { ...dawn, fallback: true }, true],
      ['Dawn on SwiftShader, an implementation without isFallbackAdapter', dawn, true],
      ['Firefox (wgpu) on lavapipe or SwiftShader', { fallback: true }, true],
      ['a GPU', { vendor: 'nvidia', architecture: 'ada', description: 'NVIDIA GeForce RTX 4090' }, false],
      ['a GPU whose browser hides its names', {}, false],
    ];
    for (const [what, summary, cpu] of cases) {
      const gpu = contextOn(summary);
      expect(rowWorkgroup(gpu), what).toBe(cpu ? 16 : 256);
      gpu.tuning.software = !cpu; // pinned (the pipeline walk does this) it wins over the adapter
      expect(rowWorkgroup(gpu), `${what}, pinned`).toBe(cpu ? 256 : 16);
    }
  });
});
