// The WebGPU limits a lab (a training preset with its models) needs, stated once, checked before any buffer is made.
import { checkLimits, type LimitNeeds } from '../gpu/limits';
import type { Gpu } from '../gpu/runtime';
import type { TrainConfig } from '../rl/config';

/**
 * Storage buffers per stage: 8, WebGPU's default (Firefox on Metal offers no more). The GRPO loss backward and the
 * attention backward bind 9 where the device allows and an 8-buffer variant otherwise (gpu/kernels/merge-storage.ts);
 * the kernel page's pipeline walk (e2e/kernels.spec.ts) creates every pipeline a micro lab uses on a device capped at
 * these needs, in Chromium and Firefox. Workgroups stay within WebGPU's defaults (256 invocations, 16 KiB shared
 * memory). Buffers: parameters, gradients and both Adam moments each live in one flat f32 buffer that AdamW binds whole,
 * so a large preset still needs more than the default binding and buffer sizes and is refused below them by name.
 */
export function labLimits(modelFloats: number): LimitNeeds {
  const flat = modelFloats * 4;
  return {
    maxStorageBuffersPerShaderStage: 8,
    maxComputeInvocationsPerWorkgroup: 256,
    maxComputeWorkgroupStorageSize: 16384,
    maxStorageBufferBindingSize: flat,
    maxBufferSize: flat,
  };
}

/** Refuses (AdapterLimitError, naming the limit) a device below what this preset's lab needs. */
export function checkLabLimits(gpu: Gpu, config: TrainConfig, modelFloats: number): void {
  checkLimits(gpu.device.limits, labLimits(modelFloats), `the '${config.preset}' preset's lab`);
}
