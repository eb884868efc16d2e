// Steps 3–5 of a Code-A1 step for one problem, counted as the published reward module counts: extraction, ground-truth
// fill-in and de-duplication, execution of each candidate against all valid tests of its rollouts plus Mistake Book
// replays. The counting itself (`countTests`) is pure so it can be tested on hand-written inputs.
import type { Problem } from '../tasks/types';
import type { JudgeResult, RejectedLine, Sandbox, TestVerdict, ValidatedTest } from '../sandbox/types';
import type { BreakDetail } from './mistake-book';
import {
  coderReward,
  nonPrintableRatio,
  testerReward,
  type ReplayOutcome,
  type TesterReward,
  type TesterRolloutOutcome,
} from './rewards';

/**
 * Tests extracted per rollout. The release has no cap; ours bounds sandbox work. Lines past it are rejected by the
 * extraction and counted as invalid like any malformed line.
 */
export const MAX_TESTS_PER_ROLLOUT = 256;

export interface CountedTest extends ValidatedTest {
  /** `assert <call> == <ground-truth output>` when the call ran on the ground truth. */
  filled?: string;
  /** The filled-in statement repeats an earlier one of the same rollout (counted invalid, not run). */
  repeat?: boolean;
}

export interface CountedRollout {
  raw: string;
  /** The extracted tests in order, with fill-in and repeat marks. */
  tests: CountedTest[];
  /** Distinct filled-in statements whose call ran, in order: the rollout's valid tests. */
  valid: string[];
  /** Malformed assert lines (rejected by the extraction, exact repeats included). */
  malformed: number;
  numInvalid: number;
  nonPrintableRatio: number;
}

export interface JudgedRollout extends CountedRollout {
  /** passed[i]: the candidate passed valid[i]. */
  passed: boolean[];
  /** got[i]: for a failed valid[i], what the sandbox said the candidate did ("got 3, expected 4", an error). */
  got?: (string | undefined)[];
  outcome: TesterRolloutOutcome;
}

export interface JudgedCandidate {
  code: string;
  compiles: boolean;
  rollouts: JudgedRollout[];
  replay: ReplayOutcome;
  /** replayPassed[i]: the candidate passed replays[i]. */
  replayPassed: boolean[];
  hiddenPassRate: number;
  /** With `reward.coder_tests=shared`: the candidate on its problem group's shared test set (what its reward uses). */
  shared?: { numValid: number; numPassed: number };
}

/**
 * The ground-truth form of a test whose call ran, or undefined when it raised / timed out. It calls with the argument
 * values the ground truth received (`callLiteral`): arguments are data, evaluated once.
 */
export function attackForm(t: ValidatedTest): string | undefined {
  if (!t.callOk || t.gtOutput === undefined) return undefined;
  return `assert ${t.callLiteral ?? t.call} == ${t.gtOutput}`;
}

/** The release's filled-in statement (its text, not its values): what repeats are counted on. */
function releaseForm(t: ValidatedTest): string {
  return `assert ${t.call} == ${t.gtOutput}`;
}

/** A rejected line the release would have counted: every line that is an assert statement, however malformed. */
export function isAssertLine(r: RejectedLine): boolean {
  return /^\s*assert\b/.test(r.line);
}

/**
 * The release's counting for one rollout. valid = distinct filled-in statements whose call ran; invalid = malformed
 * assert lines + calls that raised + wrong expected values (the test stays valid) + repeats after the fill-in.
 */
export function countTests(raw: string, tests: ValidatedTest[], rejected: RejectedLine[]): CountedRollout {
  const malformed = rejected.filter(isAssertLine).length;
  let invalid = malformed;
  const seen = new Set<string>();
  const valid: string[] = [];
  const counted = tests.map((t): CountedTest => {
    const filled = attackForm(t);
    if (filled === undefined) {
      invalid++;
      return { ...t };
    }
    const key = releaseForm(t);
    if (seen.has(key)) {
      invalid++;
      return { ...t, filled, repeat: true };
    }
    seen.add(key);
    valid.push(filled);
    if (!t.valid) invalid++;
    return { ...t, filled };
  });
  return { raw, tests: counted, valid, malformed, numInvalid: invalid, nonPrintableRatio: nonPrintableRatio(raw) };
}

/** Extracts, validates and counts one tester rollout's tests (independent of the candidate). */
export async function extractAndValidate(
  sandbox: Sandbox,
  problem: Problem,
  raw: string,
  timeoutMs: number,
): Promise<CountedRollout> {
  const ex = await sandbox.extract(raw, problem.entryPoint, MAX_TESTS_PER_ROLLOUT);
  const tests = ex.tests.length
    ? await sandbox.validate(problem.solution, problem.entryPoint, ex.tests, timeoutMs, problem.setupCode)
    : [];
  return countTests(raw, tests, ex.rejected);
}

/** Scores one candidate's verdicts on a counted rollout's valid tests. */
export function judgeRollout(r: CountedRollout, passed: boolean[], k: number): JudgedRollout {
  return {
    ...r,
    passed,
    outcome: {
      numValid: r.valid.length,
      numInvalid: r.numInvalid,
      numPassed: passed.filter(Boolean).length,
      numFailedFirstK: passed.slice(0, k).filter((p) => !p).length,
      nonPrintableRatio: r.nonPrintableRatio,
    },
  };
}

/**
 * Runs one candidate against all valid tests of its rollouts, the replays and the hidden tests in a single judge
 * call, then splits the verdicts back per rollout. Golden mode passes the problem's own tests as one rollout whose
 * valid tests are those statements verbatim (the sandbox parses each with the AST; any assert form works).
 * With `shared` (the problem group's shared test set, which holds every valid test of these rollouts) the candidate
 * runs that set instead, each rollout's verdicts are looked up in it, and `shared` records the candidate's count.
 */
export async function executeCandidate(
  sandbox: Sandbox,
  problem: Problem,
  code: string,
  rollouts: CountedRollout[],
  replays: string[],
  k: number,
  timeoutMs: number,
  shared?: string[],
): Promise<JudgedCandidate> {
  const generated = shared ?? rollouts.flatMap((r) => r.valid);
  const all = [...generated, ...replays, ...problem.hiddenTests];
  const res = await sandbox.judge({
    code,
    entryPoint: problem.entryPoint,
    tests: all,
    timeoutMs,
    setupCode: problem.setupCode,
  });
  const compiles = res.compileError === undefined;
  const ok = res.verdicts.map((v) => compiles && v.status === 'passed');
  const said = res.verdicts.map((v) =>
    v.status === 'passed' ? undefined : compiles ? verdictText(v) : `does not compile: ${res.compileError}`,
  );
  let at = 0;
  const take = (n: number) => ok.slice(at, (at += n));
  const withGot = (r: JudgedRollout, from: number): JudgedRollout => ({
    ...r,
    got: said.slice(from, from + r.valid.length),
  });
  let judged: JudgedRollout[];
  let sharedCount: JudgedCandidate['shared'];
  if (shared) {
    const passedShared = take(shared.length);
    const verdict = new Map(shared.map((t, i) => [t, passedShared[i]]));
    const saidShared = new Map(shared.map((t, i) => [t, said[i]]));
    judged = rollouts.map((r) => ({
      ...judgeRollout(r, r.valid.map(sharedVerdict(verdict)), k),
      got: r.valid.map((t) => saidShared.get(t)),
    }));
    sharedCount = { numValid: shared.length, numPassed: passedShared.filter(Boolean).length };
  } else {
    judged = rollouts.map((r) => {
      const from = at;
      return withGot(judgeRollout(r, take(r.valid.length), k), from);
    });
  }
  const replayPassed = take(replays.length);
  const hidden = take(problem.hiddenTests.length);
  return {
    code,
    compiles,
    rollouts: judged,
    replay: { numReplayed: replays.length, numReplayFailed: replayPassed.filter((p) => !p).length },
    replayPassed,
    hiddenPassRate: hidden.length ? hidden.filter(Boolean).length / hidden.length : 0,
    ...(sharedCount ? { shared: sharedCount } : {}),
  };
}

/** A rollout's test looked up in the shared set's verdicts (a caller bug, not a failed test, when it is missing). */
function sharedVerdict(verdict: Map<string, boolean>): (t: string) => boolean {
  return (t) => {
    const v = verdict.get(t);
    if (v === undefined) throw new Error(`shared test set lacks a rollout's valid test: ${t.slice(0, 80)}`);
    return v;
  };
}

/** A problem group's shared test set: every valid test its rollouts wrote, once each, in first-seen order. */
export function sharedTestSet(rollouts: CountedRollout[]): string[] {
  return [...new Set(rollouts.flatMap((r) => r.valid))];
}

/** The problem's own tests as a rollout for golden mode: every statement is valid and runs verbatim. */
export function goldenRollout(tests: string[]): CountedRollout {
  return {
    raw: tests.join('\n'),
    tests: tests.map((text) => ({ text, call: '', expected: '', callOk: true, valid: true, filled: text })),
    valid: [...tests],
    malformed: 0,
    numInvalid: 0,
    nonPrintableRatio: 0,
  };
}

/**
 * Step 6 for one candidate: its coder reward and the tester reward of each of its rollouts. Graded on a shared set,
 * the coder reward is the release's per-rollout pass rate with that set as its one rollout.
 */
export function scoreCandidate(
  c: JudgedCandidate,
  k: number,
  alpha: number,
): { coder: number; tester: TesterReward[] } {
  const replay = c.replay.numReplayed ? c.replay : undefined;
  return {
    coder: coderReward(c.compiles, c.shared ? [c.shared] : c.rollouts.map((r) => r.outcome), replay),
    tester: c.rollouts.map((r) => testerReward(r.outcome, k, alpha, c.compiles, replay)),
  };
}

/**
 * The Mistake Book's inputs for one problem (the release's update_mistake_book): over the valid candidates only, the
 * replays each one passed, and the valid tests that broke it, once per rollout they appear in.
 */
export function mistakeBookInputs(
  group: JudgedCandidate[],
  replays: string[],
): { newFailing: string[]; oldPassed: string[]; detail: BreakDetail[] } {
  const valid = group.filter((c) => c.compiles);
  const breaks = valid.flatMap((c) =>
    c.rollouts.flatMap((r) =>
      r.valid.flatMap((t, i) => (r.passed[i] ? [] : [{ t, d: { candidate: c.code, got: r.got?.[i] } }])),
    ),
  );
  return {
    oldPassed: valid.flatMap((c) => replays.filter((_, i) => c.replayPassed[i])),
    newFailing: breaks.map((b) => b.t),
    detail: breaks.map((b) => b.d),
  };
}

/** One line on what a candidate did with a test it did not pass. */
function verdictText(v: TestVerdict): string {
  if (v.status === 'timeout') return 'timed out';
  if (v.status === 'error') return `raised ${v.errorType ?? 'an error'}${v.message ? `: ${v.message}` : ''}`;
  return v.errorType ? `raised ${v.errorType}${v.message ? `: ${v.message}` : ''}` : (v.message ?? 'failed');
}

/**
 * One program run against the problem's hidden tests (with its setup code): the evaluation's ground truth.
 * `stopAtTimeout` for a caller that only asks whether every test passed (`passedAll`): the first timeout ends the job.
 */
export function judgeHidden(
  sandbox: Sandbox,
  p: Problem,
  code: string,
  timeoutMs: number,
  stopAtTimeout = false,
): Promise<JudgeResult> {
  return sandbox.judge({
    code,
    entryPoint: p.entryPoint,
    tests: p.hiddenTests,
    timeoutMs,
    setupCode: p.setupCode,
    stopAtTimeout,
  });
}

/** The program was defined and passed every test it was judged on. */
export const passedAll = (r: JudgeResult): boolean =>
  r.compileError === undefined && r.verdicts.every((v) => v.status === 'passed');
