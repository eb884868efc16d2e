// The Worker's platform pieces: WebGPU device, Pyodide sandbox, and GPU policies. Kept apart from the loop so the
// loop reads the same whatever the model and sandbox modules look like.
import { createBrowserGpu } from '../../gpu/browser';
import type { Gpu } from '../../gpu/runtime';
import type { Sandbox } from '../../sandbox/types';
import { createBrowserSandbox } from '../../sandbox/browser';

export async function openGpu(): Promise<Gpu> {
  return createBrowserGpu({ powerPreference: 'high-performance' });
}

/** A pool of Pyodide Web Workers (nested in this Worker), warmed before the first step needs it. */
export async function openSandbox(): Promise<Sandbox> {
  const pool = createBrowserSandbox();
  await pool.warm();
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
