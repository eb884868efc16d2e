// Node adapter: Dawn through the npm `webgpu` package, pointed at SwiftShader's Vulkan ICD when no GPU driver is set.
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import { createRequire } from 'node:module';
import { NoAdapterError } from './device';

const DEBIAN_SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';

let cached: GPU | undefined;

/** Returns a navigator.gpu-like object for Node. Throws NoAdapterError with the reason if Dawn cannot load. */
export function nodeGpu(): GPU {
  if (cached) return cached;
  if (!process.env.VK_ICD_FILENAMES && !process.env.CODE_A1_NO_ICD) {
    if (existsSync(DEBIAN_SWIFTSHADER_ICD)) process.env.VK_ICD_FILENAMES = DEBIAN_SWIFTSHADER_ICD;
  }
  // Dawn's Vulkan loader complains on every start when XDG_RUNTIME_DIR is unset; any writable dir silences it.
  process.env.XDG_RUNTIME_DIR ??= '/tmp';
  const require = createRequire(import.meta.url);
  let mod: { create: (flags: string[]) => GPU; globals: Record<string, unknown> };
  try {
    mod = require('webgpu') as typeof mod;
  } catch (e) {
    throw new NoAdapterError(`the npm package 'webgpu' failed to load (${(e as Error).message})`);
  }
  Object.assign(globalThis, mod.globals);
  // Dawn's bounds checks cost 1.5-2.5x on SwiftShader; our launchers check shapes on the TS side. CODE_A1_ROBUST=1
  // keeps them, as every web page has them (bench:browser-cost compares the CLI with a browser like for like).
  cached = mod.create(process.env.CODE_A1_ROBUST === '1' ? [] : ['enable-dawn-features=disable_robustness']);
  return cached;
}

/**
 * Node's `webgpu` spins its main thread while GPU promises are pending; lowering our priority gives the
 * CPU back to SwiftShader's worker threads.
 */
export function yieldCpuToGpu(): void {
  try {
    setPriority(0, 19);
  } catch {
    // Not permitted on some systems; only a speed hint.
  }
}

export function nodeIcdHint(): string {
  return `VK_ICD_FILENAMES=${process.env.VK_ICD_FILENAMES ?? '(unset)'}; on Debian install 'chromium' and 'libvulkan1' to get SwiftShader at ${DEBIAN_SWIFTSHADER_ICD}`;
}
