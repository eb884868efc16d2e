// The lab's limits on a real device (Dawn on SwiftShader) created with lowered limits: a device at WebGPU's default of
// 8 storage buffers per stage runs a micro GRPO update (the 8-buffer kernel variants) as a larger one does, and a
// device below what a preset's lab needs is refused before any buffer is made, by a message naming the limit.
import { describe, expect, it } from 'vitest';
import { Gpu } from '../gpu/runtime';
import { nodeGpu } from '../gpu/device-node';
import { AdapterLimitError, checkLimits } from '../gpu/limits';
import { presetConfig } from '../rl/config';
import type { GrpoItem, GrpoSettings } from '../rl/policy';
import { buildPolicies, freshSources } from './lab-setup';
import { checkLabLimits, labLimits } from './lab-limits';
import { paramCount, preset } from '../model/config';
import { freshSeed, maxAbsDiff, mulberry32 } from '../testing/random';

describe('lab limits', () => {
  const config = presetConfig('micro', { seed: 3 });
  const sources = freshSources(config);

  /** One GRPO update of the micro coder on a device capped at `cap` storage buffers per stage (none: the adapter's). */
  async function update(cap: number | null, items: GrpoItem[], settings: GrpoSettings) {
    const gpu = await Gpu.create(nodeGpu(), cap ? { limitCaps: { maxStorageBuffersPerShaderStage: cap } } : {});
    try {
      const limit = gpu.device.limits.maxStorageBuffersPerShaderStage;
      gpu.device.pushErrorScope('validation');
      const { coder, tester } = buildPolicies(gpu, config, sources);
      const stats = await coder.grpoUpdate(items, settings);
      const params = await coder.model.readParams();
      const error = await gpu.device.popErrorScope();
      coder.destroy();
      if (tester !== coder) tester.destroy();
      return { limit, stats, params, error: error?.message ?? null };
    } finally {
      gpu.destroy();
    }
  }

  it("runs a micro GRPO update at WebGPU's default 8 storage buffers per stage as on the adapter's own", async () => {
    expect(labLimits(1).maxStorageBuffersPerShaderStage).toBe(8);
    const seed = freshSeed();
    const rng = mulberry32(seed);
    const V = sources.coder.config.vocabSize;
    const tokens = (n: number) => Array.from({ length: n }, () => Math.floor(rng() * V));
    // Random prompts and completions of different lengths (left and right padding in the batch), both advantage signs,
    // rollout log-probs near a fresh model's -ln V so the IS weight and its cap both act.
    const items: GrpoItem[] = Array.from({ length: 4 }, (_, i) => {
      const completionTokens = tokens(3 + Math.floor(rng() * 12));
      return {
        promptTokens: tokens(5 + Math.floor(rng() * 20)),
        completionTokens,
        rolloutLogprobs: completionTokens.map(() => -Math.log(V) + (rng() - 0.5)),
        advantage: (i % 2 ? 1 : -1) * (0.5 + rng()),
      };
    });
    const settings: GrpoSettings = {
      lr: config.optim.lr,
      grpo: config.grpo,
      optim: config.optim,
      rollout: { max_completion_length: config.rollout.max_completion_length, temperature: 1 },
    };
    const low = await update(8, items, settings);
    const own = await update(null, items, settings);
    const dParams = maxAbsDiff(low.params, own.params);
    const moved = maxAbsDiff(own.params, sources.coder.params);
    console.log(
      `micro GRPO update (seed ${seed}), ${low.limit} vs ${own.limit} storage buffers per stage: loss ${low.stats.loss} vs ` +
        `${own.stats.loss}, grad norm ${low.stats.gradNorm} vs ${own.stats.gradNorm}, max |Δθ| between them ` +
        `${dParams.toExponential(2)} (the update moved θ by up to ${moved.toExponential(2)})`,
    );
    expect(low.limit).toBe(8);
    expect(own.limit).toBeGreaterThan(8);
    expect(low.error).toBeNull();
    expect(own.error).toBeNull();
    expect(low.stats.skipped).toBe(false);
    expect(moved).toBeGreaterThan(0);
    expect(Math.abs(low.stats.loss - own.stats.loss)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(own.stats.loss)));
    expect(Math.abs(low.stats.gradNorm - own.stats.gradNorm)).toBeLessThanOrEqual(1e-5 * own.stats.gradNorm);
    expect(dParams).toBeLessThanOrEqual(1e-3 * moved);
  }, 300_000);

  it('refuses a device below a need, naming the limit, the need and the offer', async () => {
    const gpu = await Gpu.create(nodeGpu(), { limitCaps: { maxStorageBuffersPerShaderStage: 8 } });
    try {
      const needs = { ...labLimits(paramCount(preset('micro'))), maxStorageBuffersPerShaderStage: 9 };
      let err: unknown;
      try {
        checkLimits(gpu.device.limits, needs, "the 'micro' preset's lab");
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(AdapterLimitError);
      expect((err as Error).message).toBe(
        "the 'micro' preset's lab needs maxStorageBuffersPerShaderStage ≥ 9; this WebGPU device offers 8",
      );
    } finally {
      gpu.destroy();
    }
  });

  it("refuses a preset whose flat parameter buffer exceeds the device's maxBufferSize", async () => {
    const floats = paramCount(preset('small'));
    const gpu = await Gpu.create(nodeGpu(), {
      limitCaps: { maxBufferSize: 256 * 2 ** 20, maxStorageBufferBindingSize: 256 * 2 ** 20 },
    });
    try {
      const need = labLimits(floats);
      expect(need.maxStorageBufferBindingSize).toBeGreaterThan(gpu.device.limits.maxStorageBufferBindingSize);
      expect(() => checkLabLimits(gpu, presetConfig('paper'), floats)).toThrow(
        /'paper' preset's lab needs maxStorageBufferBindingSize ≥ [\d,]+; this WebGPU device offers 268,435,456/,
      );
    } finally {
      gpu.destroy();
    }
  });
});
