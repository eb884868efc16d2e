// In-browser evaluation of the current models on held-out problems, with the same harness as `npm run eval`.
import { DEFAULT_EVAL, evaluateSplit } from '../../rl/eval';
import { loadCurriculum } from '../../rl/lab-setup';
import type { EvalReport } from '../store/types';
import type { Session } from './session';

export async function evaluate(
  s: Session,
  split: 'heldout' | 'heldout-family',
  maxProblems: number,
  samples: number,
  onProgress: (what: string, done: number, total: number) => void,
): Promise<EvalReport> {
  const t0 = performance.now();
  const cur = loadCurriculum(s.config.tasks.families);
  const pool = split === 'heldout' ? cur.heldout : cur.heldoutFamily;
  if (!pool.length) throw new Error(`this run's curriculum has no ${split} problems`);
  // A fixed, evenly spread subset: the same problems before and after training.
  const stride = Math.max(1, Math.floor(pool.length / maxProblems));
  const chosen = pool.filter((_, i) => i % stride === 0).slice(0, maxProblems);
  const tester = s.config.mode === 'self-play' ? s.coder : s.tester;
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
  return {
    step: s.trainer.step,
    split,
    problems: r.problems,
    passAt1: r.coderPass1,
    passAt1Greedy: r.coderPass1Greedy,
    testerValidity: r.testerValidity,
    mutationScore: r.mutationScore,
    codetPassAt1: r.selectedPass1,
    seconds: (performance.now() - t0) / 1000,
  };
}
