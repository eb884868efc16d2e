// The sandbox pool's platform-facing interface: how a worker is spawned and handled, the pool's options and stats.
import type { FromWorker, RawExtract, RawJudge, RawProbe, RestoreMethod, ToWorker } from './protocol';

export interface WorkerHandle {
  post(msg: ToWorker): void;
  terminate(): void;
}

/** The platform adapter: how to start one worker (worker_threads or a Web Worker). */
export interface WorkerSpawner {
  spawn(onMessage: (msg: FromWorker) => void, onExit: (why: string) => void): WorkerHandle;
}

export interface PoolOptions {
  /** Number of workers; default cores − 1, at least 1. */
  size?: number;
  /** Jobs sent ahead to a worker so it never waits for the main thread. */
  pipeline?: number;
  /** Extra time after the soft stop before the worker is terminated. */
  hardStopGraceMs?: number;
  outputCap?: number;
  memoryCapBytes?: number;
  /** Largest marshalled value one test may return (default 1 MiB), and all values of one job (default 16 MiB). */
  resultCap?: number;
  jobResultCap?: number;
  /** Deadline of one extraction (default 5 s); a timeout rejects every line of that completion. */
  extractTimeoutMs?: number;
  /**
   * A worker not ready this long after it was started counts as a failed boot (replaced; three in a row fail the
   * pool's calls): a boot that hangs would otherwise hold every call forever. Default 180 s (cold starts take 4–20 s).
   */
  bootTimeoutMs?: number;
  /** A worker whose wasm heap grew past this is replaced after its current job. */
  recycleBytes?: number;
  /**
   * A worker whose wasm memory grew more than this past its size at boot is replaced after that job (default 8 MiB):
   * every restore covers all of memory, so growth left behind would make every later job on that worker dearer.
   */
  recycleGrowthBytes?: number;
  defaultTimeoutMs?: number;
  /** Extra booted workers kept ready so a hard stop or crash is replaced at once, not after a cold start. */
  spares?: number;
  /** How restores put memory back (protocol.ts RestoreMethod; default adaptive): for the benchmark's A/B. */
  restore?: RestoreMethod;
  /** Test fixture only (breach-assuming tests): every candidate gets the harness's globals and Pyodide's core. */
  breach?: boolean;
}

export interface PoolStats {
  coldStartMs: number[];
  respawns: number;
  hardStops: number;
  crashes: number;
  /** Largest wasm heap a worker reported (bytes). */
  maxHeapBytes: number;
  /** Whole-interpreter restores done for judge/validate jobs, and the milliseconds they took. */
  restores: number;
  restoreMs: number;
  restoredBytes: number;
  /** Restores that wrote every page back (the rest compared and wrote back the changed pages). */
  restoreCopies: number;
}

export type RawResult = RawJudge | RawExtract | RawProbe;
