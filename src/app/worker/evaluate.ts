// In-browser evaluation of the current models on held-out problems, with the same harness as `npm run eval`.
import { DEFAULT_EVAL, evaluateSplit } from '../../rl/eval';
import { generateCurriculum } from '../../tasks/generate';
import type { Mutant } from '../../tasks/types';
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
  const inst = generateCurriculum().filter((i) => i.problem.split === split);
  // A fixed, evenly spread subset: the same problems before and after training.
  const stride = Math.max(1, Math.floor(inst.length / maxProblems));
  const chosen = inst.filter((_, i) => i % stride === 0).slice(0, maxProblems);
  const mutants = new Map<string, Mutant[]>(chosen.map((i) => [i.problem.id, i.mutants]));
  const tester = s.config.mode === 'self-play' ? s.coder : s.tester;
  const r = await evaluateSplit(
    split,
    chosen.map((i) => i.problem),
    mutants,
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
