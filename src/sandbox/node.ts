// Node factory for the sandbox: a pool of worker_threads, each with its own Pyodide.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { SandboxPool, type PoolOptions, type WorkerHandle, type WorkerSpawner } from './pool';
import type { FromWorker } from './protocol';
import { harnessSources } from './sources';

const bootUrl = new URL('./worker-node-boot.mjs', import.meta.url);

export const nodeSpawner: WorkerSpawner = {
  spawn(onMessage: (msg: FromWorker) => void, onExit: (why: string) => void): WorkerHandle {
    // No env for the worker: even a full escape would not see the host's environment variables.
    const w = new Worker(bootUrl, { env: {} });
    w.on('message', onMessage);
    w.on('error', (e: Error) => onExit(`worker error: ${e.message}`));
    w.on('exit', (code) => onExit(`worker exited with code ${code}`));
    w.unref();
    return {
      post: (msg) => w.postMessage(msg),
      terminate: () => void w.terminate(),
    };
  },
};

/** A warm-on-demand pool; `await sandbox.warm()` to pay the cold start up front. */
export function createNodeSandbox(opts: PoolOptions = {}): SandboxPool {
  return new SandboxPool(nodeSpawner, harnessSources, availableParallelism(), opts);
}
