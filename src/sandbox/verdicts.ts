// Turns a worker's raw per-step JSON into typed verdicts (judge) and validity marks (ground truth).
import { preview, pyEqual, sameTree, type Tree } from './compare';
import { parseLiteral } from './literal';
import { callSource } from './literal-source';
import type { JudgeJob, RawJudge } from './protocol';
import type { ExecOutcome, ExecResult, ExtractedTest, JudgeResult, TestVerdict, ValidatedTest } from './types';

function errorVerdict(e: string | undefined, m: string | undefined, prefix = ''): TestVerdict {
  return { status: 'error', errorType: e ?? 'Error', message: prefix + (m ?? '') };
}

/** Verdict of test i, or undefined when the candidate never got to run it (see compileError). */
function testVerdict(job: JudgeJob, raw: RawJudge, i: number): TestVerdict {
  const forced = job.forced?.[i];
  if (forced) return forced;
  const prep = raw.prep[i];
  if (!prep) return { status: 'error', errorType: 'Internal', message: 'test was not prepared' };
  if (prep.k === 'x') return errorVerdict(prep.e, prep.m, 'test: ');
  if (prep.ae) return errorVerdict(prep.ae, prep.am, 'test arguments: ');
  if (prep.t) return { status: 'error', errorType: 'Timeout', message: 'expected value timed out' };
  if (prep.k === 'c' && prep.x === undefined) return errorVerdict(prep.e, prep.m, 'expected value: ');
  const run = raw.runs[i];
  if (!run && raw.stoppedAt !== undefined && i > raw.stoppedAt)
    return { status: 'error', errorType: 'NotRun', message: `not run: test ${raw.stoppedAt + 1} timed out` };
  if (!run) return { status: 'error', errorType: 'Internal', message: 'test was not run' };
  if (run.t) return { status: 'timeout' };
  // A pass/fail tag counts only from phase S (a statement test replayed where no candidate code ran); a call test is
  // decided below, by comparing two plain values here.
  if (prep.k === 's' && run.p) return { status: 'passed' };
  if (prep.k === 's' && run.f) return { status: 'failed', message: 'assertion failed' };
  if (run.e === 'ResultTooLarge') return errorVerdict(run.e, run.m);
  if (run.bad) return { status: 'failed', errorType: run.e, message: run.m };
  if (run.e) return errorVerdict(run.e, run.m);
  if (prep.k !== 'c' || run.v === undefined || prep.x === undefined)
    return { status: 'error', errorType: 'Internal', message: 'no value' };
  const same = pyEqual(prep.x as Tree, run.v as Tree);
  return same
    ? { status: 'passed' }
    : { status: 'failed', message: `got ${preview(run.v as Tree)}, expected ${preview(prep.x as Tree)}` };
}

/** Why the candidate could not be defined, with the verdict every test then gets. */
function defineFailure(job: JudgeJob, raw: RawJudge): { compileError: string; verdict: TestVerdict } | undefined {
  const forced = job.forced?.[-1];
  if (forced) return { compileError: `${forced.errorType ?? forced.status}: ${forced.message ?? ''}`, verdict: forced };
  const src = raw.setup ?? raw.define;
  const d = src;
  if (!d) return { compileError: 'Internal: candidate was not defined', verdict: errorVerdict('Internal', '') };
  if (d.t)
    return { compileError: 'Timeout: defining the candidate ran past the time limit', verdict: { status: 'timeout' } };
  if (d.e) {
    const where = raw.setup ? 'setup: ' : '';
    return { compileError: `${where}${d.e}: ${d.m ?? ''}`, verdict: errorVerdict(d.e, d.m) };
  }
  return undefined;
}

export function toJudgeResult(job: JudgeJob, raw: RawJudge): JudgeResult {
  const failure = defineFailure(job, raw);
  const verdicts = job.tests.map((_, i) => (failure ? { ...failure.verdict } : testVerdict(job, raw, i)));
  return {
    ...(failure ? { compileError: failure.compileError } : {}),
    verdicts,
    stdout: raw.stdout,
    stderr: raw.stderr,
    durationMs: raw.durationMs,
  };
}

export function toValidated(job: JudgeJob, raw: RawJudge, tests: ExtractedTest[]): ValidatedTest[] {
  const failure = defineFailure(job, raw);
  const seen = new Set<string>();
  return tests.map((test, i) => {
    let t: ExtractedTest & { callLiteral?: string } = test;
    const key = `${t.call} == ${t.expected}`;
    const dup = seen.has(key);
    seen.add(key);
    if (failure) return { ...t, callOk: false, valid: false, reason: `ground truth failed: ${failure.compileError}` };
    const forced = job.forced?.[i];
    if (forced) return { ...t, callOk: false, valid: false, reason: `call ${forced.status}` };
    const prep = raw.prep[i];
    const run = raw.runs[i];
    if (!prep || prep.k === 'x')
      return { ...t, callOk: false, valid: false, reason: `bad test: ${prep?.e}: ${prep?.m}` };
    if (prep.k !== 'c')
      return { ...t, callOk: false, valid: false, reason: 'not of the form `assert <call> == <expected>`' };
    if (prep.ae) return { ...t, callOk: false, valid: false, reason: `arguments failed: ${prep.ae}: ${prep.am ?? ''}` };
    if (!run) return { ...t, callOk: false, valid: false, reason: 'call was not run' };
    if (run.t) return { ...t, callOk: false, valid: false, reason: 'call timed out on the ground truth' };
    if (run.v === undefined)
      return {
        ...t,
        callOk: false,
        valid: false,
        reason: `call raised ${run.e ?? 'an error'} on the ground truth: ${run.m ?? ''}`,
      };
    // The ground-truth output must read back as the same value (nan, inf, objects do not): else no attack.
    const back = run.r === undefined ? undefined : parseLiteral(run.r);
    if (back === undefined || !sameTree(back, run.v))
      return {
        ...t,
        callOk: false,
        valid: false,
        reason: `the ground-truth output ${preview(run.v)} does not round-trip through repr`,
      };
    const gtOutput = run.r;
    // The values the ground truth received, as literals: what later judge jobs run (never the expression again).
    if (prep.a !== undefined && prep.fn) t = { ...t, callLiteral: callSource(prep.fn, prep.a, prep.kw ?? ['d']) };
    if (prep.x === undefined)
      return {
        ...t,
        callOk: true,
        valid: false,
        gtOutput,
        reason: `expected value failed: ${prep.t ? 'timeout' : `${prep.e}: ${prep.m}`}`,
      };
    if (dup) return { ...t, callOk: true, valid: false, gtOutput, reason: 'duplicate test' };
    const valid = pyEqual(prep.x, run.v);
    return valid
      ? { ...t, callOk: true, valid, gtOutput }
      : {
          ...t,
          callOk: true,
          valid,
          gtOutput,
          reason: `expected ${preview(prep.x)} but the ground truth gives ${preview(run.v)}`,
        };
  });
}

/**
 * Execution-only outcomes of a job whose tests are `assert <call> == None`: only how the call ended counts (the
 * comparison with None is never looked at). A step the pool had to force (the worker died or hung) is a crash or a
 * timeout of that call.
 */
export function toExecuted(job: JudgeJob, raw: RawJudge): ExecResult {
  const failure = defineFailure(job, raw);
  if (failure) return { compileError: failure.compileError, outcomes: [] };
  return {
    outcomes: job.tests.map((_, i): ExecOutcome => {
      const forced = job.forced?.[i];
      if (forced)
        return forced.status === 'timeout' ? { status: 'timeout' } : { status: 'crash', errorType: forced.errorType };
      const prep = raw.prep[i];
      if (!prep || prep.k !== 'c') return { status: 'bad-input', errorType: prep?.e ?? 'NotACall' };
      if (prep.ae) return { status: 'bad-input', errorType: prep.ae };
      const run = raw.runs[i];
      if (!run) return { status: 'crash', errorType: 'NotRun' };
      if (run.t) return { status: 'timeout' };
      // A value that is too large or not plain data was still returned: the call ended normally.
      if (run.bad || run.e === 'ResultTooLarge') return { status: 'ok' };
      if (run.v === undefined && run.e) return { status: 'exception', errorType: run.e };
      return { status: 'ok' };
    }),
  };
}
