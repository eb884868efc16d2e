// Where one judged suite's CPU goes, for `npm run bench:sandbox`: the same worker code (worker-core.ts) run on this
// thread with a CPU clock (process.cpuUsage: this process has no other busy thread meanwhile), each message
// structured-cloned as postMessage would, and the verdicts computed as the pool does. The realm is not locked down
// (it is the benchmark's own); nothing else differs from a pool worker. The pool's own figure, measured around
// worker threads, minus this total is what the thread hop costs (event loops, scheduler, wake-ups).
import { nodeBytesEqual } from '../sandbox/bytes-node';
import { CONTROL_BYTES, type FromWorker, type JudgeJob, type RawJudge, type ToWorker } from '../sandbox/protocol';
import { loadNodePyodide } from '../sandbox/pyodide-node';
import { harnessSources } from '../sandbox/sources';
import type { JudgeRequest } from '../sandbox/types';
import { toJudgeResult } from '../sandbox/verdicts';
import { SandboxWorker } from '../sandbox/worker-core';

const mib = (bytes: number): number => bytes / 2 ** 20;
const cpuMs = (): number => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/** Per-suite CPU milliseconds of each part, plus the suites' passed-assert count. */
export interface SuiteCost {
  parts: Record<string, number>;
  total: number;
  restoresPerSuite: number;
  /** Share of restores that wrote every page back (the adaptive choice). */
  copiedShare: number;
  kibPerSuite: number;
  passed: number;
  /** MiB each restore reads: static data, heap up to the break, zeros above it. */
  layout: { staticMiB: number; heapMiB: number; zeroMiB: number };
}

export const COST_PARTS: [key: string, label: string][] = [
  ['exec', 'exec: harness phases, candidate and tests (Python)'],
  ['marshal', 'values out of Python (marshal.dumps, caps, decode)'],
  ['parse', 'JS-side parsing (literal tests, call payloads)'],
  ['compare', 'reset: compare all memory with the snapshot'],
  ['write', 'reset: write back changed pages (or everything)'],
  ['fs', 'reset: file system (mounts, open files, cwd)'],
  ['clone', 'messages: structured clone of job and result'],
  ['verdicts', 'verdicts on the main thread (compare.ts)'],
  ['other', 'other (job bookkeeping, clock reads)'],
];

/** Boots one in-process worker (real harness, real snapshot) and measures `repeats` passes over `suites`. */
export async function measureSuiteCost(suites: JudgeRequest[], repeats: number): Promise<SuiteCost[]> {
  let result: FromWorker | undefined;
  let ready: (() => void) | undefined;
  const worker = new SandboxWorker({
    load: loadNodePyodide,
    lockDown: () => {},
    post: (msg) => {
      if (msg.type === 'ready') ready?.();
      result = structuredClone(msg);
    },
    equal: nodeBytesEqual,
    clock: cpuMs,
  });
  const booted = new Promise<void>((r) => (ready = r));
  const init: ToWorker = {
    type: 'init',
    sources: harnessSources,
    control: new SharedArrayBuffer(CONTROL_BYTES),
    options: {
      outputCap: 8192,
      resultCap: 2 ** 20,
      jobResultCap: 16 * 2 ** 20,
      extractTimeoutMs: 5000,
      memoryCapBytes: 512 * 2 ** 20,
    },
  };
  worker.handle(init);
  await booted;
  const jobs: JudgeJob[] = suites.map((s) => ({ kind: 'judge', ...s, timeoutMs: s.timeoutMs ?? 1000 }));
  const run = (job: JudgeJob, id: number): RawJudge => {
    worker.handle(structuredClone<ToWorker>({ type: 'job', id, job }));
    if (result?.type !== 'result') throw new Error(`job ${id} gave no result`);
    return result.raw as RawJudge;
  };
  jobs.slice(0, 50).forEach(run); // first calls, JIT
  const snapshot = () => ({ ...worker.cost, ...worker.restoreCost });
  const out: SuiteCost[] = [];
  for (let r = 0; r < repeats; r++) {
    const w0 = snapshot();
    let clone = 0;
    let verdicts = 0;
    let passed = 0;
    const t0 = cpuMs();
    jobs.forEach((job, id) => {
      const c0 = cpuMs();
      const msg = structuredClone<ToWorker>({ type: 'job', id, job });
      clone += cpuMs() - c0;
      worker.handle(msg);
      const c1 = cpuMs();
      if (result?.type !== 'result') throw new Error(`job ${id} gave no result`);
      const v = toJudgeResult(job, result.raw as RawJudge);
      passed += v.verdicts.filter((x) => x.status === 'passed').length;
      verdicts += cpuMs() - c1;
    });
    const total = cpuMs() - t0;
    const layout = worker.memoryLayout;
    const w = snapshot();
    const d = (k: keyof typeof w) => (w[k] - w0[k]) / jobs.length;
    const parts: Record<string, number> = {
      exec: d('execMs'),
      marshal: d('marshalMs'),
      parse: d('parseMs'),
      compare: d('compareMs'),
      write: d('writeMs'),
      fs: d('fsMs'),
      clone: clone / jobs.length + d('postMs'),
      verdicts: verdicts / jobs.length,
    };
    parts.other = total / jobs.length - Object.values(parts).reduce((a, b) => a + b, 0);
    out.push({
      parts,
      total: total / jobs.length,
      restoresPerSuite: d('restores'),
      copiedShare: d('copies') / Math.max(1e-9, d('restores')),
      kibPerSuite: d('restoredBytes') / 1024,
      passed,
      layout: { staticMiB: mib(layout.staticBytes), heapMiB: mib(layout.heapBytes), zeroMiB: mib(layout.zeroBytes) },
    });
  }
  return out;
}
