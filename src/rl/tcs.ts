// TCS (Test Cases Scaling): the Tester is trained in two stages from a rolling buffer of the solver's recent
// candidates. Stage 1 rewards tests consistent with the reference solution; stage 2 aims the Tester at the solver's
// current failure modes (buffered candidates that fail the problem's hidden tests) and rewards counterexamples:
// consistent tests the failing program does not pass. docs/method.md lists the details we chose.
import type { Problem } from '../tasks/types';
import type { Sandbox } from '../sandbox/types';
import { judgeHidden, type JudgedRollout } from './judging';
import { validityReward, type TesterReward } from './rewards';

export interface TcsEntry {
  problemId: string;
  code: string;
  step: number;
  /** Pass rate on the problem's hidden tests; < 1 means the candidate exhibits a failure mode. */
  passRate: number;
}

export type TcsStage = 1 | 2;

export function tcsStage(step: number, stage2Step: number): TcsStage {
  return step >= stage2Step ? 2 : 1;
}

/** The rolling buffer: candidates of the last `keepSteps` steps (the current one included), newest first. */
export class TcsBuffer {
  constructor(public entries: TcsEntry[] = []) {}

  add(entries: TcsEntry[], step: number, keepSteps: number): void {
    this.entries = [...entries, ...this.entries].filter((e) => e.step > step - keepSteps);
  }

  /**
   * The M programs the Tester attacks for one problem, and the stage its rewards follow. Stage 1, or stage 2 with no
   * failing program buffered for the problem: this step's candidates under the stage-1 reward (a counterexample to
   * a program that passes everything cannot exist). Stage 2: the distinct failing programs, newest first, repeated
   * in order to fill M slots.
   */
  targets(problemId: string, current: string[], stage: TcsStage): { codes: string[]; stage: TcsStage } {
    if (stage === 1) return { codes: current, stage: 1 };
    const failing = [
      ...new Set(this.entries.filter((e) => e.problemId === problemId && e.passRate < 1).map((e) => e.code)),
    ];
    if (!failing.length) return { codes: current, stage: 1 };
    return { codes: current.map((_, j) => failing[j % failing.length]), stage: 2 };
  }
}

/** Hidden-test pass rate of each program (0 when it does not compile): where the solver fails now. */
export async function hiddenPassRates(
  sandbox: Sandbox,
  p: Problem,
  codes: string[],
  timeoutMs: number,
): Promise<number[]> {
  return Promise.all(
    codes.map(async (code) => {
      if (!p.hiddenTests.length) return 0;
      const r = await judgeHidden(sandbox, p, code, timeoutMs);
      if (r.compileError !== undefined) return 0;
      return r.verdicts.filter((v) => v.status === 'passed').length / p.hiddenTests.length;
    }),
  );
}

/**
 * Per-test marks of one rollout judged against its target: `consistent` = distinct and its expected value matches
 * the reference solution; `counterexample` = consistent and the target fails it.
 */
export function tcsCounts(r: JudgedRollout): { consistent: number; counterexamples: number } {
  let at = 0;
  let consistent = 0;
  let counterexamples = 0;
  for (const t of r.tests) {
    if (!t.callOk || t.repeat || t.filled === undefined) continue;
    const passed = r.passed[at++];
    if (!t.valid) continue;
    consistent++;
    if (!passed) counterexamples++;
  }
  return { consistent, counterexamples };
}

/**
 * Stage 1: v = clip(min(#consistent/K, 1 − #invalid/K)) (Code-A1's validity with the Tester's own expected values
 * required to match). Stage 2: min(#counterexamples, K)/K, 0 when the target is not valid code. Both minus the share
 * of non-printable characters, as Code-A1.
 */
export function tcsTesterReward(r: JudgedRollout, stage: TcsStage, k: number, targetCompiles: boolean): TesterReward {
  const { consistent, counterexamples } = tcsCounts(r);
  const validity = validityReward(consistent, r.outcome.numInvalid, k);
  const adversarial = targetCompiles ? Math.min(counterexamples, k) / k : 0;
  const base = stage === 1 ? validity : adversarial;
  return { validity, adversarial, reward: base - r.nonPrintableRatio };
}
