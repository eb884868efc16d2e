// Steps 3–5 of a Code-A1 step for one problem: extraction, ground-truth validation, execution of each candidate
// against the valid-input tests aimed at it plus Mistake Book replays.
import type { Problem } from '../tasks/types';
import type { Sandbox, ValidatedTest } from '../sandbox/types';
import { hasNonPrintable, type ReplayOutcome, type TesterRolloutOutcome } from './rewards';

export interface JudgedRollout {
  raw: string;
  tests: ValidatedTest[];
  /** Attack form of each valid-input test (`assert call == <ground-truth output>`), aligned with `passed`. */
  attacks: string[];
  /** passed[i]: the candidate passed attacks[i]. */
  passed: boolean[];
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
}

export function attackForm(t: ValidatedTest): string | undefined {
  if (!t.callOk || t.gtOutput === undefined) return undefined;
  return `assert ${t.call} == ${t.gtOutput}`;
}

/** Extracts and validates one tester rollout's tests (independent of the candidate). */
export async function extractAndValidate(
  sandbox: Sandbox,
  problem: Problem,
  raw: string,
  k: number,
  timeoutMs: number,
): Promise<{ tests: ValidatedTest[]; rejected: number }> {
  const ex = await sandbox.extract(raw, problem.entryPoint, k);
  const tests = ex.tests.length
    ? await sandbox.validate(problem.solution, problem.entryPoint, ex.tests, timeoutMs, problem.setupCode)
    : [];
  return { tests, rejected: ex.rejected.length };
}

/**
 * Runs one candidate against all attacks from its rollouts, the replays and the hidden tests in a single judge call,
 * then splits the verdicts back per rollout.
 */
export async function executeCandidate(
  sandbox: Sandbox,
  problem: Problem,
  code: string,
  rollouts: { raw: string; tests: ValidatedTest[] }[],
  replays: string[],
  timeoutMs: number,
): Promise<JudgedCandidate> {
  const perRollout = rollouts.map((r) => r.tests.map(attackForm).filter((a): a is string => a !== undefined));
  const all = [...perRollout.flat(), ...replays, ...problem.hiddenTests];
  const res = await sandbox.judge({ code, entryPoint: problem.entryPoint, tests: all, timeoutMs, setupCode: problem.setupCode });
  const compiles = res.compileError === undefined;
  const ok = res.verdicts.map((v) => compiles && v.status === 'passed');
  let at = 0;
  const judged: JudgedRollout[] = rollouts.map((r, i) => {
    const attacks = perRollout[i];
    const passed = ok.slice(at, at + attacks.length);
    at += attacks.length;
    const numValid = r.tests.filter((t) => t.valid).length;
    return {
      raw: r.raw,
      tests: r.tests,
      attacks,
      passed,
      outcome: {
        numTests: r.tests.length,
        numValid,
        numInvalid: r.tests.length - numValid,
        numValidInput: attacks.length,
        numValidInputFailed: passed.filter((p) => !p).length,
        nonPrintable: hasNonPrintable(r.raw),
      },
    };
  });
  const replayPassed = ok.slice(at, at + replays.length);
  at += replays.length;
  const hidden = ok.slice(at, at + problem.hiddenTests.length);
  return {
    code,
    compiles,
    rollouts: judged,
    replay: { numReplayed: replays.length, numReplayFailed: replayPassed.filter((p) => !p).length },
    replayPassed,
    hiddenPassRate: hidden.length ? hidden.filter(Boolean).length / hidden.length : 0,
  };
}
