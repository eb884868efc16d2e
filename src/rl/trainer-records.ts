// The per-step rollout records (for the inspector and rollouts/step-N.json), built from a step's judged candidates.
import type { Problem } from '../tasks/types';
import type { TrainConfig } from './config';
import type { RolloutRecord } from './records';
import type { JudgedCandidate } from './judging';
import type { TesterReward } from './rewards';
import { modeRules } from './modes';

export function buildRolloutRecords(
  step: number,
  cfg: TrainConfig,
  problems: Problem[],
  judged: JudgedCandidate[],
  replays: string[][],
  coderRewards: number[],
  coderAdv: { advantages: number[][] },
  testerRewards: TesterReward[][],
  testerAdv: { advantages: number[][] },
  /** TCS: the program each slot's tester rollouts attacked (a buffered failure may differ from the candidate). */
  targets?: string[],
): RolloutRecord[] {
  const M = cfg.rollout.num_generations;
  return problems.map((p, pi) => ({
    step,
    mode: cfg.mode,
    problemId: p.id,
    prompt: p.prompt,
    entryPoint: p.entryPoint,
    replays: replays[pi],
    candidates: judged.slice(pi * M, (pi + 1) * M).map((c, j) => {
      const ci = pi * M + j;
      return {
        code: c.code,
        compiles: c.compiles,
        reward: coderRewards[ci],
        advantage: coderAdv.advantages[pi][j],
        hiddenPassRate: c.hiddenPassRate,
        ...(targets && targets[ci] !== c.code ? { target: targets[ci] } : {}),
        testerRollouts:
          modeRules(cfg.mode).coderReward === 'golden-tests'
            ? // The golden tests, shown as one (correct, untrained) test group so the inspector can display them.
              c.rollouts.map((r) => ({
                raw: r.tests.map((t) => t.text).join('\n'),
                tests: r.tests.map((t) => ({ text: t.text, valid: true, callOk: true })),
                passed: r.passed,
                validity: 1,
                adversarial: (r.outcome.numValid - r.outcome.numPassed) / Math.max(1, r.outcome.numValid),
                reward: 0,
                advantage: 0,
              }))
            : c.rollouts.map((r, ri) => ({
                raw: r.raw,
                // A repeat after the fill-in did not run: shown as not-run so `passed` lines up with the callOk tests.
                tests: r.tests.map((t) => ({
                  text: t.text,
                  valid: t.valid && !t.repeat,
                  callOk: t.callOk && !t.repeat,
                  ...(t.repeat ? { repeat: true } : {}),
                })),
                passed: r.passed,
                ...(r.malformed ? { malformed: r.malformed } : {}),
                validity: testerRewards[ci][ri].validity,
                adversarial: testerRewards[ci][ri].adversarial,
                reward: testerRewards[ci][ri].reward,
                advantage: testerAdv.advantages[ci][ri],
              })),
      };
    }),
  }));
}
