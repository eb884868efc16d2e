// Node entry for the runtime: a Gpu on Dawn/SwiftShader, failing loudly (never skipping) when none can be had.
import { availableParallelism } from 'node:os';
import { Gpu } from './runtime';
import { nodeGpu, nodeIcdHint, yieldCpuToGpu } from './device-node';
import { NoAdapterError } from './device';

let shared: Promise<Gpu> | undefined;

/**
 * Dawn starts the threads that run createComputePipelineAsync on first use, and a thread inherits its creator's
 * priority: started after yieldCpuToGpu they would run at nice 19, level with the main thread, which spins while any
 * GPU promise is pending and so took about a third of the CPU from warm-up compiles. Started here they keep nice 0.
 */
async function spawnCompileThreads(device: GPUDevice): Promise<void> {
  const module = device.createShaderModule({
    label: 'spawn-compile-threads',
    code: 'override N: u32 = 1;\n@compute @workgroup_size(N) fn main() {}\n',
  });
  const n = Math.max(2, availableParallelism());
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      device.createComputePipelineAsync({
        layout: 'auto',
        compute: { module, entryPoint: 'main', constants: { N: i + 1 } },
      }),
    ),
  );
}

export async function createNodeGpu(): Promise<Gpu> {
  try {
    const gpu = await Gpu.create(nodeGpu());
    await spawnCompileThreads(gpu.device);
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
