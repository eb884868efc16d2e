// TCS's parts of a training step: choosing what the Tester attacks from the rolling buffer, judging those targets,
// and the staged Tester rewards (tcs.ts holds the rules).
import type { Problem } from '../tasks/types';
import type { Sandbox } from '../sandbox/types';
import type { TrainConfig } from './config';
import { executeCandidate, scoreCandidate, type CountedRollout, type JudgedCandidate } from './judging';
import type { TesterReward } from './rewards';
import { hiddenPassRates, tcsStage, tcsTesterReward, type TcsBuffer, type TcsStage } from './tcs';

export interface TcsStep {
  /** Per candidate slot (M per problem): the program the Tester's N rollouts for that slot attack. */
  targets: string[];
  /** Per problem: the reward stage this step (stage 2 falls back to 1 where nothing fails). */
  stages: TcsStage[];
  /** Per slot, filled by the execution: the target judged on the slot's tests. */
  judgedTargets?: JudgedCandidate[];
}

/** Adds this step's candidates (with their hidden-test pass rates) to the buffer and picks the Tester's targets. */
export async function tcsTargets(
  sandbox: Sandbox,
  buffer: TcsBuffer,
  cfg: TrainConfig,
  step: number,
  problems: Problem[],
  candidates: string[],
): Promise<TcsStep> {
  const M = cfg.rollout.num_generations;
  const rates = await Promise.all(
    problems.map((p, pi) => hiddenPassRates(sandbox, p, candidates.slice(pi * M, (pi + 1) * M), cfg.reward.timeout_ms)),
  );
  buffer.add(
    problems.flatMap((p, pi) =>
      rates[pi].map((passRate, j) => ({ problemId: p.id, code: candidates[pi * M + j], step, passRate })),
    ),
    step,
    cfg.methods.tcs_buffer_steps,
  );
  const stage = tcsStage(step, cfg.methods.tcs_stage2_step);
  const picks = problems.map((p, pi) => buffer.targets(p.id, candidates.slice(pi * M, (pi + 1) * M), stage));
  return { targets: picks.flatMap((x) => x.codes), stages: picks.map((x) => x.stage) };
}

/** Judges each slot's target on the slot's tests (reusing the candidate's verdicts when the target is the candidate). */
export async function tcsJudgeTargets(
  sandbox: Sandbox,
  cfg: TrainConfig,
  problems: Problem[],
  t: TcsStep,
  judged: JudgedCandidate[],
  validated: CountedRollout[],
): Promise<void> {
  const { num_generations: M, tester_generations: N, tests_per_group: K } = cfg.rollout;
  t.judgedTargets = await Promise.all(
    t.targets.map((code, ci) =>
      code === judged[ci].code
        ? judged[ci]
        : executeCandidate(
            sandbox,
            problems[Math.floor(ci / M)],
            code,
            validated.slice(ci * N, (ci + 1) * N),
            [],
            K,
            cfg.reward.timeout_ms,
          ),
    ),
  );
}

/** Coder rewards as Code-A1 (its candidates against the tests of its slot); Tester rewards by stage, on the targets. */
export function tcsRewards(
  cfg: TrainConfig,
  t: TcsStep,
  judged: JudgedCandidate[],
): { coderRewards: number[]; testerRewards: TesterReward[][] } {
  const { num_generations: M, tests_per_group: K } = cfg.rollout;
  const targets = t.judgedTargets ?? judged;
  return {
    coderRewards: judged.map((c) => scoreCandidate(c, K, cfg.reward.alpha).coder),
    testerRewards: targets.map((c, ci) =>
      c.rollouts.map((r) => tcsTesterReward(r, t.stages[Math.floor(ci / M)], K, c.compiles)),
    ),
  };
}
