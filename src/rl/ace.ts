// ACE (one model writes programs and adversarial inputs; supervision only from execution, no ground truth): the
// inputs are the calls of the asserts a rollout wrote (their expected values are ignored), every candidate of the
// problem runs every input in the hardened sandbox (execution-only jobs), and the scoring below turns the
// ok / exception / timeout / crash matrix into robust programs (kept for SFT) and KTO labels for the adversary.
// docs/method.md lists the choices the paper leaves open.
import type { Problem } from '../tasks/types';
import type { ExecStatus, Sandbox } from '../sandbox/types';
import { judgeRollout, MAX_TESTS_PER_ROLLOUT, type CountedRollout, type JudgedCandidate } from './judging';
import { nonPrintableRatio, type TesterReward } from './rewards';

/** An execution-level failure of the program: what the adversary is rewarded for causing. */
export function isFailure(s: ExecStatus): boolean {
  return s === 'exception' || s === 'timeout' || s === 'crash';
}

export interface AceMatrix {
  /** compiles[c]: candidate c compiled and defined the entry point. */
  compiles: boolean[];
  /** status[c][i]: how candidate c ended on input i (meaningless when it does not compile). */
  status: ExecStatus[][];
}

export interface AceVerdicts {
  /** wellFormed[i]: some compiling candidate returned normally on input i (without ground truth, the only evidence
   * that the input is one the problem admits rather than, say, a wrong type every program rejects). */
  wellFormed: boolean[];
  /** breaks[c][i]: well-formed input i made compiling candidate c raise, hang or crash. */
  breaks: boolean[][];
  /** robust[c]: c compiles, faced at least one well-formed input and survived all of them. */
  robust: boolean[];
}

export function aceVerdicts(m: AceMatrix): AceVerdicts {
  const n = m.status[0]?.length ?? 0;
  const wellFormed = Array.from({ length: n }, (_, i) => m.compiles.some((ok, c) => ok && m.status[c][i] === 'ok'));
  const breaks = m.compiles.map((ok, c) => wellFormed.map((wf, i) => ok && wf && isFailure(m.status[c][i])));
  const anyInput = wellFormed.some(Boolean);
  const robust = m.compiles.map((ok, c) => ok && anyInput && !breaks[c].some(Boolean));
  return { wellFormed, breaks, robust };
}

/**
 * The adversary's label for one rollout aimed at candidate `c`, whose inputs are `inputs` (indices into the
 * problem's input list): +1 (desirable) when one of them broke c, −1 when c compiles and survived them all (or the
 * rollout wrote no usable input), 0 (no preference, not trained on) when c does not compile.
 */
export function aceLabel(v: AceVerdicts, compiles: boolean, c: number, inputs: number[]): 1 | -1 | 0 {
  if (!compiles) return 0;
  return inputs.some((i) => v.breaks[c][i]) ? 1 : -1;
}

/** Extraction only (ACE has no ground truth to validate against): the distinct calls, in order. */
export async function extractInputs(sandbox: Sandbox, problem: Problem, raw: string): Promise<CountedRollout> {
  const ex = await sandbox.extract(raw, problem.entryPoint, MAX_TESTS_PER_ROLLOUT);
  const seen = new Set<string>();
  const tests = ex.tests.flatMap((t) => {
    if (seen.has(t.call)) return [];
    seen.add(t.call);
    return [{ ...t, callOk: false, valid: false }];
  });
  const malformed = ex.rejected.filter((r) => /^\s*assert\b/.test(r.line)).length;
  return { raw, tests, valid: [], malformed, numInvalid: malformed, nonPrintableRatio: nonPrintableRatio(raw) };
}

export interface AceProblemResult {
  judged: JudgedCandidate[];
  /** Per rollout (candidate-major, N per candidate): its KTO label and its reward record. */
  labels: (1 | -1 | 0)[];
  tester: TesterReward[][];
  /** Per candidate: 1 robust, else 0 (robust programs are the coder's SFT data). */
  coder: number[];
}

/**
 * One problem: every candidate runs every distinct input of the problem's rollouts (one execution-only job per
 * candidate), plus the hidden tests for the record only (never for a reward: ACE sees no ground truth).
 */
export async function aceExecuteProblem(
  sandbox: Sandbox,
  problem: Problem,
  candidates: string[],
  rollouts: CountedRollout[],
  k: number,
  timeoutMs: number,
): Promise<AceProblemResult> {
  const N = rollouts.length / candidates.length;
  const calls = [...new Set(rollouts.flatMap((r) => r.tests.map((t) => t.call)))];
  const index = new Map(calls.map((c, i) => [c, i]));
  const runs = await Promise.all(
    candidates.map(async (code) => {
      const [exec, hidden] = await Promise.all([
        sandbox.execute(code, problem.entryPoint, calls, timeoutMs),
        sandbox.judge({
          code,
          entryPoint: problem.entryPoint,
          tests: problem.hiddenTests,
          timeoutMs,
          setupCode: problem.setupCode,
        }),
      ]);
      const hiddenOk =
        hidden.compileError === undefined ? hidden.verdicts.filter((v) => v.status === 'passed').length : 0;
      return { exec, hiddenPassRate: problem.hiddenTests.length ? hiddenOk / problem.hiddenTests.length : 0 };
    }),
  );
  const m: AceMatrix = {
    compiles: runs.map((r) => r.exec.compileError === undefined),
    status: runs.map((r) =>
      r.exec.compileError === undefined ? r.exec.outcomes.map((o) => o.status) : calls.map(() => 'exception' as const),
    ),
  };
  const v = aceVerdicts(m);
  const labels: (1 | -1 | 0)[] = [];
  const tester: TesterReward[][] = [];
  const judged = candidates.map((code, c): JudgedCandidate => {
    const own = rollouts.slice(c * N, (c + 1) * N).map((r) => {
      const idx = r.tests.map((t) => index.get(t.call) as number);
      const label = aceLabel(v, m.compiles[c], c, idx);
      labels.push(label);
      // In records, callOk = the input is well-formed, valid = it broke this candidate; `valid` lists the
      // well-formed inputs (as calls) and passed[j] says whether the candidate survived the j-th of them.
      const tests = r.tests.map((t, j) => ({ ...t, callOk: v.wellFormed[idx[j]], valid: v.breaks[c][idx[j]] }));
      const wf = idx.filter((i) => v.wellFormed[i]);
      const counted: CountedRollout = {
        ...r,
        tests,
        valid: wf.map((i) => calls[i]),
        numInvalid: r.malformed + (idx.length - wf.length),
      };
      const n = Math.max(1, r.tests.length + r.malformed);
      const broke = wf.filter((i) => v.breaks[c][i]).length;
      const reward = { validity: wf.length / n, adversarial: broke / n, reward: label === 1 ? 1 : 0 };
      return {
        judgedRollout: judgeRollout(
          counted,
          wf.map((i) => m.compiles[c] && !v.breaks[c][i]),
          k,
        ),
        reward,
      };
    });
    tester.push(own.map((o) => o.reward));
    return {
      code,
      compiles: m.compiles[c],
      rollouts: own.map((o) => o.judgedRollout),
      replay: { numReplayed: 0, numReplayFailed: 0 },
      replayPassed: [],
      hiddenPassRate: runs[c].hiddenPassRate,
    };
  });
  return { judged, labels, tester, coder: v.robust.map(Number) };
}
