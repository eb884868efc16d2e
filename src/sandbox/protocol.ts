// Messages between the sandbox pool (main thread) and its Pyodide workers, and the shared control-word layout.
import type { TestVerdict } from './types';

/** Int32 slots of the control SharedArrayBuffer (the interrupt word is what Pyodide polls). */
export const IRQ = 0;
export const STATE = 1;
/** The running job's id and step: test index i for prep/run of test i, DEFINE_STEP while defining. */
export const JOB_ID = 2;
export const STEP = 3;
export const DEFINE_STEP = -1;
/** Float64 slot (index into a Float64Array over the same buffer): the absolute deadline of the running step. */
export const DEADLINE_F64 = 2;
export const CONTROL_BYTES = 24;
/** STATE values: >0 a step is running (its sequence number); these mark the watchdog's claim on it. */
export const IDLE = 0;
export const CLAIMING = -1;
export const CLAIMED = -2;
export const SIGINT = 2;

export interface HarnessSources {
  guard: string;
  harness: string;
  extract: string;
  suite: string;
  api: string;
}

export interface WorkerOptions {
  /** Bytes of stdout (and of stderr) kept per job. */
  outputCap: number;
  /** Wasm heap ceiling per worker: allocations past it raise MemoryError. */
  memoryCapBytes: number;
}

export interface JudgeJob {
  kind: 'judge';
  code: string;
  entryPoint: string;
  tests: string[];
  timeoutMs: number;
  setupCode?: string;
  /** Ground-truth runs also return repr() of each output. */
  wantRepr?: boolean;
  /** Steps decided without running (after a hard stop killed a worker on them): test index, or -1 for define. */
  forced?: Record<number, TestVerdict>;
}

export interface ExtractJob {
  kind: 'extract';
  raw: string;
  entryPoint: string;
  k: number;
}

/** Test hook: reports what JS code in the locked-down worker realm could still do. */
export interface ProbeJob {
  kind: 'probe';
}

export type Job = JudgeJob | ExtractJob | ProbeJob;

export interface RawProbe {
  kind: 'probe';
  /** Capability name → still available (true is bad for every entry). */
  report: Record<string, boolean>;
}

/** What Python returned for each step, as JSON text; the pool turns it into verdicts. */
export interface RawJudge {
  kind: 'judge';
  setup?: string;
  prep: string[];
  define?: string;
  /** Per test: JSON from `run`, or null when not run (forced or candidate failed to define). */
  runs: (string | null)[];
  /** Steps the watchdog had to interrupt: 'prep:i', 'define', 'run:i'. */
  timedOut: string[];
  stdout: string;
  stderr: string;
  durationMs: number;
}

export interface RawExtract {
  kind: 'extract';
  json: string;
}

export type ToWorker =
  | { type: 'init'; sources: HarnessSources; control: SharedArrayBuffer; options: WorkerOptions }
  | { type: 'job'; id: number; job: Job };

export type FromWorker =
  | { type: 'ready'; coldMs: number }
  | { type: 'result'; id: number; raw: RawJudge | RawExtract | RawProbe; heapBytes: number }
  | { type: 'failed'; id: number; error: string; fatal: boolean }
  | { type: 'init-error'; error: string };
