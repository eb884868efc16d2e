// The StepMetrics line of one training step, assembled from what its phases produced (names follow TRL/verl).
import type { Mode, StepMetrics } from './metrics';
import type { Generation, UpdateStats } from './policy';
import type { CountedRollout, JudgedCandidate } from './judging';
import type { TesterReward } from './rewards';
import { mean, meanStd, type Advantages } from './grpo';

export interface StepResults {
  step: number;
  mode: Mode;
  skipped: boolean;
  coderGens: Generation[];
  testerGens: Generation[];
  validated: CountedRollout[];
  judged: JudgedCandidate[];
  coderRewards: number[];
  testerRewards: TesterReward[][];
  coderAdv: Advantages;
  testerAdv: Advantages;
  coderStats: UpdateStats;
  testerStats: UpdateStats;
  bookSize: number;
  /** Seconds spent generating, in the sandbox, updating, and in the whole step. */
  times: { rollout: number; sandbox: number; update: number; step: number };
}

export function stepMetrics(r: StepResults): StepMetrics {
  const { coderGens, testerGens, validated, judged, coderRewards, coderStats, testerStats, times } = r;
  const genTokens = [...coderGens, ...testerGens].reduce((a, g) => a + g.completionTokens.length, 0);
  const allTester = r.testerRewards.flat();
  const lines = validated.reduce((a, v) => a + v.tests.length + v.malformed, 0);
  const rightTests = validated.reduce((a, v) => a + v.tests.filter((t) => t.valid && !t.repeat).length, 0);
  const replayRuns = judged.filter((c) => c.compiles).flatMap((c) => c.replayPassed);
  const cr = meanStd(coderRewards);
  const tr = meanStd(allTester.map((t) => t.reward));
  return {
    step: r.step,
    mode: r.mode,
    time: Date.now(),
    ...(r.skipped ? { skipped: true } : {}),
    'coder/reward_mean': cr.mean,
    'coder/reward_std': cr.std,
    'coder/pass_rate': mean(judged.flatMap((c) => c.rollouts.flatMap((x) => x.passed.map(Number)))),
    'tester/reward_mean': tr.mean,
    'tester/reward_std': tr.std,
    'tester/validity_mean': mean(allTester.map((t) => t.validity)),
    'tester/adversarial_mean': mean(allTester.map((t) => t.adversarial)),
    'tester/valid_test_rate': lines ? rightTests / lines : 0,
    'mistake_book/size': r.bookSize,
    'mistake_book/replay_pass_rate': replayRuns.length ? replayRuns.filter(Boolean).length / replayRuns.length : 0,
    'coder/loss': coderStats.loss,
    'coder/kl': coderStats.kl,
    'coder/entropy': coderStats.entropy,
    'coder/clip_ratio/low_mean': coderStats.clipLow,
    'coder/clip_ratio/high_mean': coderStats.clipHigh,
    'coder/frac_reward_zero_std': r.coderAdv.fracZeroStd,
    'coder/grad_norm': coderStats.gradNorm,
    'tester/loss': testerStats.loss,
    'tester/kl': testerStats.kl,
    'tester/entropy': testerStats.entropy,
    'tester/clip_ratio/low_mean': testerStats.clipLow,
    'tester/clip_ratio/high_mean': testerStats.clipHigh,
    'tester/frac_reward_zero_std': r.testerAdv.fracZeroStd,
    'tester/grad_norm': testerStats.gradNorm,
    'completions/coder_mean_length': mean(coderGens.map((g) => g.completionTokens.length)),
    'completions/tester_mean_length': mean(testerGens.map((g) => g.completionTokens.length)),
    'rollout/mismatch_kl': mean([coderStats, testerStats].filter((s) => s.tokens > 0).map((s) => s.mismatchKl)),
    'perf/tokens_per_s': times.rollout > 0 ? genTokens / times.rollout : 0,
    'time/rollout_s': times.rollout,
    'time/sandbox_s': times.sandbox,
    'time/update_s': times.update,
    'time/step_s': times.step,
  };
}
