// Browser factory for the sandbox: a pool of module Web Workers, each with its own Pyodide (needs a
// cross-origin-isolated page for SharedArrayBuffer).
import { SandboxPool, type PoolOptions, type WorkerHandle, type WorkerSpawner } from './pool';
import type { FromWorker } from './protocol';
import { harnessSources } from './sources';

export const browserSpawner: WorkerSpawner = {
  spawn(onMessage: (msg: FromWorker) => void, onExit: (why: string) => void): WorkerHandle {
    const w = new Worker(new URL('./worker-browser.ts', import.meta.url), { type: 'module', name: 'sandbox' });
    w.onmessage = (e: MessageEvent<FromWorker>) => onMessage(e.data);
    w.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      onExit(`worker error: ${e.message}`);
    };
    return { post: (msg) => w.postMessage(msg), terminate: () => w.terminate() };
  },
};

export function createBrowserSandbox(opts: PoolOptions = {}): SandboxPool {
  if (typeof SharedArrayBuffer === 'undefined')
    throw new Error('the sandbox needs a cross-origin-isolated page (SharedArrayBuffer)');
  return new SandboxPool(browserSpawner, harnessSources, navigator.hardwareConcurrency || 2, opts);
}
