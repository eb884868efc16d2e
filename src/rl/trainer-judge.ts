// Execution and rewards of one step's candidates in the modes judged by tests (code-a1, self-play, golden, tcs's
// Coder): which tests each candidate runs, and the rewards that follow. ACE's execution-only rules are trainer-ace.ts.
import type { Sandbox } from '../sandbox/types';
import {
  executeCandidate,
  goldenRollout,
  scoreCandidate,
  sharedTestSet,
  type CountedRollout,
  type JudgedCandidate,
} from './judging';
import { goldenReward, type TesterReward } from './rewards';
import type { StepRun } from './trainer-types';

/**
 * Each candidate against its tester group's validated tests and the problem's replays, or the golden tests. With
 * `reward.coder_tests=shared` every candidate of a problem runs the union of the valid tests of all its group's
 * rollouts (the M×N rollouts aimed at the problem's M candidates).
 */
export function executeCandidates(
  sandbox: Sandbox,
  s: Pick<StepRun, 'cfg' | 'rules' | 'problems' | 'M' | 'N' | 'K'>,
  candidates: string[],
  validated: CountedRollout[],
  replays: string[][],
): Promise<JudgedCandidate[]> {
  const { cfg, rules, problems, M, N, K } = s;
  const shared =
    rules.coderReward !== 'golden-tests' && cfg.reward.coder_tests === 'shared'
      ? problems.map((_, pi) => sharedTestSet(validated.slice(pi * M * N, (pi + 1) * M * N)))
      : undefined;
  return Promise.all(
    candidates.map((code, ci) => {
      const pi = Math.floor(ci / M);
      const p = problems[pi];
      if (rules.coderReward === 'golden-tests') {
        const golden = cfg.reward.golden_tests === 'public' ? p.publicTests : p.hiddenTests;
        return executeCandidate(sandbox, p, code, [goldenRollout(golden)], [], K, cfg.reward.timeout_ms);
      }
      const tests = validated.slice(ci * N, (ci + 1) * N);
      return executeCandidate(sandbox, p, code, tests, replays[pi], K, cfg.reward.timeout_ms, shared?.[pi]);
    }),
  );
}

/** Golden mode: the Coder's share of golden tests passed (no Tester); otherwise the Code-A1 rewards of both. */
export function testRewards(
  s: Pick<StepRun, 'cfg' | 'rules' | 'K'>,
  judged: JudgedCandidate[],
): { coderRewards: number[]; testerRewards: TesterReward[][] } {
  if (s.rules.coderReward === 'golden-tests') {
    const coderRewards = judged.map((c) =>
      goldenReward(c.compiles, c.rollouts[0].outcome.numPassed, c.rollouts[0].outcome.numValid),
    );
    return { coderRewards, testerRewards: [] };
  }
  const scored = judged.map((c) => scoreCandidate(c, s.K, s.cfg.reward.alpha));
  return { coderRewards: scored.map((x) => x.coder), testerRewards: scored.map((x) => x.tester) };
}
