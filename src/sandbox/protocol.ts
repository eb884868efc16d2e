// Messages between the sandbox pool (main thread) and its Pyodide workers, and the shared control-word layout.
import type { Tree } from './compare';
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
/**
 * Int32 slot after the deadline: a test hook (Scheduler.holdWorker) sets it so the worker, once it has taken its next
 * job, waits there until it is terminated; a test can then kill it mid-job without racing the job's own length.
 */
export const HOLD = 6;
export const CONTROL_BYTES = 32;
export const CONTROL_I32 = CONTROL_BYTES / 4;
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

export type RestoreMethod = 'adaptive' | 'compare' | 'copy';

export interface WorkerOptions {
  /** Bytes of stdout (and of stderr) kept per job. */
  outputCap: number;
  /** Largest marshalled value (bytes) one test may return; larger is a ResultTooLarge error. */
  resultCap: number;
  /** Marshalled bytes all values of one job may add up to. */
  jobResultCap: number;
  /** Deadline of one extraction. */
  extractTimeoutMs: number;
  /** Wasm heap ceiling per worker: allocations past it raise MemoryError. */
  memoryCapBytes: number;
  /**
   * How a restore puts memory back (the benchmark's A/B): `adaptive` (default) compares and writes back the changed
   * pages or writes everything, whichever timed cheaper; `compare` always the former, `copy` always the latter.
   */
  restore?: RestoreMethod;
  /** Test fixture only: hand every candidate the harness's globals and Pyodide's core module (`BREACH`). */
  breach?: boolean;
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
  /** JudgeRequest.stopAtTimeout: run no test after the first that timed out. */
  stopAtTimeout?: boolean;
  /** JudgeRequest.trustedTests: Python-evaluated tests may share one interpreter in phase E. */
  trustedTests?: boolean;
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

/** How a test was prepared: a call (name, plain arguments, expected value), a statement test, or unusable. */
export interface PrepOut {
  k: 'c' | 's' | 'x';
  fn?: string;
  /** Positional arguments (a tuple tree) and keyword arguments (a dict tree), evaluated without the candidate. */
  a?: Tree;
  kw?: Tree;
  /** Expected value; absent when it failed (e/m) or timed out (t). */
  x?: Tree;
  t?: 1;
  e?: string;
  m?: string;
  /** The arguments failed (type, message): the call never runs. */
  ae?: string;
  am?: string;
  /** Statement tests: the names the test uses. */
  names?: string[];
}

/** What one run step gave: a value (and its repr for ground truths), a statement verdict, an error or a timeout. */
export interface RunOut {
  v?: Tree;
  r?: string;
  p?: 1;
  f?: 1;
  t?: 1;
  e?: string;
  m?: string;
  bad?: 1;
}

export interface RawJudge {
  kind: 'judge';
  setup?: RunOut;
  prep: PrepOut[];
  define?: RunOut;
  /** Per test, or null when not run (forced, or the candidate failed to define). */
  runs: (RunOut | null)[];
  /** Steps the watchdog had to interrupt: 'prep:i', 'define', 'run:i'. */
  timedOut: string[];
  /** With stopAtTimeout: the test that timed out, after which none ran. */
  stoppedAt?: number;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** Interpreter restores this job cost, and their total time. */
  restores: number;
  restoreMs: number;
  /** Bytes those restores wrote back. */
  restoredBytes: number;
  /** Those of the restores that wrote every page back (RestoreMethod). */
  copies: number;
}

/** A judge result before any step has run; the worker fills it in as the job proceeds. */
export function emptyRawJudge(): RawJudge {
  return {
    kind: 'judge',
    prep: [],
    runs: [],
    timedOut: [],
    stdout: '',
    stderr: '',
    durationMs: 0,
    restores: 0,
    restoreMs: 0,
    restoredBytes: 0,
    copies: 0,
  };
}

export interface RawExtract {
  kind: 'extract';
  json?: string;
  /** Set when extraction did not finish (timeout, crash): the pool then rejects every line with this reason. */
  failed?: string;
}

export type ToWorker =
  | { type: 'init'; sources: HarnessSources; control: SharedArrayBuffer; options: WorkerOptions }
  | { type: 'job'; id: number; job: Job };

export type FromWorker =
  | { type: 'ready'; coldMs: number; heapBytes?: number }
  | { type: 'result'; id: number; raw: RawJudge | RawExtract | RawProbe; heapBytes: number }
  | { type: 'failed'; id: number; error: string; fatal: boolean; step?: number }
  | { type: 'init-error'; error: string };
