// Browser entry for the runtime: a Gpu on navigator.gpu (main thread or a Worker).
import { Gpu } from './runtime';
import { browserGpu } from './device-browser';
import type { AcquireOptions } from './device';

export function createBrowserGpu(opts: AcquireOptions = {}): Promise<Gpu> {
  return Gpu.create(browserGpu(), opts);
}
