// Node factory for the sandbox: a pool of worker_threads, each with its own Pyodide.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { SandboxPool, type PoolOptions, type WorkerHandle, type WorkerSpawner } from './pool';
import type { FromWorker } from './protocol';
import { harnessSources } from './sources';

const bootUrl = new URL('./worker-node-boot.mjs', import.meta.url);

/**
 * The worker thread's native stack. CPython guards C recursion by the wasm program's own stack (~10 MiB here) and
 * raises RecursionError, as CPython does; but every wasm frame also takes native stack, and with Node's default 4 MiB
 * V8 overflowed first (RangeError), which Pyodide treats as fatal: the worker died and was respawned. 256 MiB lets
 * CPython's guard fire first on the deep recursions tried (lru_cache, sort keys, reduce-built nests: 64 MiB did not
 * suffice for lru_cache); it is reserved address space, committed only as deep recursion touches it.
 * redteam-crash.test.ts checks it.
 */
export const NODE_WORKER_STACK_MB = 256;

/** Spawns worker_threads with `stackSizeMb` of native stack (tests pass a small one to provoke real crashes). */
export function nodeSpawnerWith(stackSizeMb = NODE_WORKER_STACK_MB): WorkerSpawner {
  return {
    spawn(onMessage: (msg: FromWorker) => void, onExit: (why: string) => void): WorkerHandle {
      // No env for the worker: even a full escape would not see the host's environment variables.
      const w = new Worker(bootUrl, { env: {}, resourceLimits: { stackSizeMb } });
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
}

export const nodeSpawner: WorkerSpawner = nodeSpawnerWith();

/** A warm-on-demand pool; `await sandbox.warm()` to pay the cold start up front. */
export function createNodeSandbox(opts: PoolOptions = {}, spawner = nodeSpawner): SandboxPool {
  return new SandboxPool(spawner, harnessSources, availableParallelism(), opts);
}
