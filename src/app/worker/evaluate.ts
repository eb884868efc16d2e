// In-browser evaluation of the current models on held-out problems, with the same harness as `npm run eval`.
import { DEFAULT_EVAL, evalSubset, evaluateSplit } from '../../rl/eval';
import { loadCurriculum } from '../../rl/lab-setup';
import { modeRules } from '../../rl/modes';
import type { EvalPoint } from './run-files';
import type { Session } from './session';

export async function evaluate(
  s: Session,
  split: 'heldout' | 'heldout-family',
  maxProblems: number,
  samples: number,
  onProgress: (what: string, done: number, total: number) => void,
): Promise<EvalPoint> {
  const t0 = performance.now();
  const cur = loadCurriculum(s.config.tasks.families);
  const pool = split === 'heldout' ? cur.heldout : cur.heldoutFamily;
  if (!pool.length) throw new Error(`this run's curriculum has no ${split} problems`);
  // Spread over families and fixed by the seed, as `npm run train --eval-problems n` picks them: the same problems
  // before and after training.
  const chosen = evalSubset(pool, maxProblems, DEFAULT_EVAL.seed);
  const tester = modeRules(s.config.mode).testerIsCoder ? s.coder : s.tester;
  const r = await evaluateSplit(
    split,
    chosen,
    cur.mutants,
    s.coder,
    tester,
    s.sandbox,
    {
      ...DEFAULT_EVAL,
      samples,
      maxNewTokens: s.config.rollout.max_completion_length,
      maxTestTokens: s.config.rollout.max_test_completion_length,
      k: s.config.rollout.tests_per_group,
      onProgress,
    },
  );
  return { step: s.trainer.step, rows: [r], seconds: (performance.now() - t0) / 1000 };
}
