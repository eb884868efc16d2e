// The Worker's platform pieces: WebGPU device, Pyodide sandbox, and GPU policies. Kept apart from the loop so the
// loop reads the same whatever the model and sandbox modules look like.
import { createBrowserGpu } from '../../gpu/browser';
import type { Gpu } from '../../gpu/runtime';
import type { Sandbox } from '../../sandbox/types';
import { createBrowserSandbox, type SandboxPool } from '../../sandbox/browser';

export async function openGpu(): Promise<Gpu> {
  return createBrowserGpu({ powerPreference: 'high-performance' });
}

/**
 * A pool of Pyodide Web Workers (nested in this Worker), booting from now on: nothing waits for it until a step first
 * runs Python (its calls queue until a worker is ready), so the models load and the Coder samples meanwhile. A boot
 * that fails is reported by the first call, as any sandbox failure is.
 */
export function startSandbox(): SandboxPool {
  const pool = createBrowserSandbox();
  pool.warm().catch(() => {});
  return pool;
}

/** Counts sandbox calls and their wall time for the Perf panel (sandbox throughput). */
export function countingSandbox(inner: Sandbox): Sandbox & { calls: number; ms: number } {
  const c = {
    calls: 0,
    ms: 0,
    async time<T>(p: () => Promise<T>): Promise<T> {
      const t = performance.now();
      try {
        return await p();
      } finally {
        c.calls++;
        c.ms += performance.now() - t;
      }
    },
  };
  return {
    get calls() {
      return c.calls;
    },
    get ms() {
      return c.ms;
    },
    judge: (req) => c.time(() => inner.judge(req)),
    extract: (raw, entry, k) => c.time(() => inner.extract(raw, entry, k)),
    validate: (gt, entry, tests, timeoutMs, setup) => c.time(() => inner.validate(gt, entry, tests, timeoutMs, setup)),
    execute: (code, entry, calls, timeoutMs) => c.time(() => inner.execute(code, entry, calls, timeoutMs)),
    close: () => inner.close(),
  };
}
