// The lab's limits refusal on a real device (Dawn on SwiftShader) created with lowered limits: a device below what a
// preset's lab needs is refused before any buffer is made, by a message naming the limit, the need and the offer.
import { describe, expect, it } from 'vitest';
import { Gpu } from '../gpu/runtime';
import { nodeGpu } from '../gpu/device-node';
import { AdapterLimitError } from '../gpu/limits';
import { presetConfig } from '../rl/config';
import { buildPolicies, freshSources } from './lab-setup';
import { checkLabLimits, labLimits } from './lab-limits';
import { paramCount, preset } from '../model/config';

describe('lab limits', () => {
  it('refuses a device with 8 storage buffers per stage, naming the limit; accepts one with the stated 9', async () => {
    const config = presetConfig('micro', { seed: 3 });
    const sources = freshSources(config);
    const low = await Gpu.create(nodeGpu(), { limitCaps: { maxStorageBuffersPerShaderStage: 8 } });
    try {
      expect(low.device.limits.maxStorageBuffersPerShaderStage).toBe(8);
      let err: unknown;
      try {
        buildPolicies(low, config, sources);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(AdapterLimitError);
      expect((err as Error).message).toBe(
        "the 'micro' preset's lab needs maxStorageBuffersPerShaderStage ≥ 9; this WebGPU device offers 8",
      );
    } finally {
      low.destroy();
    }
    const enough = await Gpu.create(nodeGpu(), { limitCaps: { maxStorageBuffersPerShaderStage: 9 } });
    try {
      const { coder, tester } = buildPolicies(enough, config, sources);
      coder.destroy();
      tester.destroy();
    } finally {
      enough.destroy();
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
