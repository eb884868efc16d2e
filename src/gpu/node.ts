// Node entry for the runtime: a Gpu on Dawn/SwiftShader, failing loudly (never skipping) when none can be had.
import { Gpu } from './runtime';
import { nodeGpu, nodeIcdHint, yieldCpuToGpu } from './device-node';
import { NoAdapterError } from './device';

let shared: Promise<Gpu> | undefined;

export async function createNodeGpu(): Promise<Gpu> {
  try {
    const gpu = await Gpu.create(nodeGpu());
    yieldCpuToGpu();
    return gpu;
  } catch (e) {
    if (e instanceof NoAdapterError) throw new NoAdapterError(`${e.message}. ${nodeIcdHint()}`);
    throw e;
  }
}

/** One device per process: tests and CLIs share it. */
export function sharedNodeGpu(): Promise<Gpu> {
  shared ??= createNodeGpu();
  return shared;
}
