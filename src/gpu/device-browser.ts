// Browser adapter: navigator.gpu, with a clear error naming the browsers that have WebGPU.
import { NoAdapterError } from './device';

export const WEBGPU_BROWSERS =
  'Chrome or Edge 113+ (desktop), Chrome 121+ on Android, Safari 26+, or Firefox 141+ on Windows';

export function browserGpu(): GPU {
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  if (!nav?.gpu)
    throw new NoAdapterError(`this browser has no navigator.gpu. WebGPU is available in ${WEBGPU_BROWSERS}.`);
  return nav.gpu;
}
