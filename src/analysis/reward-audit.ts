// How well a run's Coder reward tracks correctness: the candidates its rollouts record, each with the reward it got
// and its pass rate on the problem's hidden tests (never used for the reward), summarised per run.
import type { RolloutRecord } from '../rl/records';

export interface RewardAudit {
  candidates: number;
  /** Share of candidates rewarded 1 (passed everything they were graded on). */
  rewardedFull: number;
  /** Of those, the share that fail some hidden test: a wrong candidate graded like a right one. */
  falsePositive: number;
  /** Share of candidates that pass every hidden test. */
  correct: number;
  /** Of those, the share rewarded below 1: a right candidate graded like a wrong one. */
  underRewarded: number;
  /** Pearson correlation between the reward and the hidden pass rate over all candidates (NaN when one is constant). */
  correlation: number;
  /**
   * Within each problem's group (what GRPO's advantages compare), the pairs of candidates whose hidden pass rates
   * differ, and of them the share the reward orders the same way, ties (no signal) and the opposite way.
   */
  pairs: { n: number; right: number; tied: number; wrong: number };
  /** Share of correct candidates in the first and in the last fifth of the steps (the Coder's training-set progress). */
  correctEarly: number;
  correctLate: number;
}

/** Whether a reward or pass rate counts as full (rewards are means of pass rates, so allow rounding). */
const full = (x: number) => x >= 1 - 1e-9;

export function rewardAudit(steps: readonly (readonly RolloutRecord[])[]): RewardAudit {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const records of steps)
    for (const r of records)
      for (const c of r.candidates) {
        xs.push(c.reward);
        ys.push(c.hiddenPassRate);
      }
  const n = xs.length;
  const share = (k: number, of: number) => (of ? k / of : 0);
  const rewarded = xs.filter(full).length;
  const correct = ys.filter(full).length;
  const fp = xs.filter((x, i) => full(x) && !full(ys[i])).length;
  const under = ys.filter((y, i) => full(y) && !full(xs[i])).length;
  const pairs = groupPairs(steps);
  const fifth = Math.max(1, Math.floor(steps.length / 5));
  const correctIn = (part: readonly (readonly RolloutRecord[])[]) => {
    const hs = part.flatMap((records) => records.flatMap((r) => r.candidates.map((c) => c.hiddenPassRate)));
    return share(hs.filter(full).length, hs.length);
  };
  return {
    candidates: n,
    rewardedFull: share(rewarded, n),
    falsePositive: share(fp, rewarded),
    correct: share(correct, n),
    underRewarded: share(under, correct),
    correlation: pearson(xs, ys),
    pairs: {
      n: pairs.n,
      right: share(pairs.right, pairs.n),
      tied: share(pairs.tied, pairs.n),
      wrong: share(pairs.wrong, pairs.n),
    },
    correctEarly: correctIn(steps.slice(0, fifth)),
    correctLate: correctIn(steps.slice(-fifth)),
  };
}

/** Counts the candidate pairs of one group with different hidden pass rates by how the reward orders them. */
function groupPairs(steps: readonly (readonly RolloutRecord[])[]) {
  let n = 0;
  let right = 0;
  let tied = 0;
  for (const records of steps)
    for (const { candidates: cs } of records)
      for (let i = 0; i < cs.length; i++)
        for (let j = i + 1; j < cs.length; j++) {
          const dh = cs[i].hiddenPassRate - cs[j].hiddenPassRate;
          if (Math.abs(dh) < 1e-9) continue;
          n++;
          const dr = cs[i].reward - cs[j].reward;
          if (Math.abs(dr) < 1e-9) tied++;
          else if (Math.sign(dr) === Math.sign(dh)) right++;
        }
  return { n, right, tied, wrong: n - right - tied };
}

function pearson(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

export const AUDIT_HEADER = [
  '| run | candidates | rewarded 1 (%) | of them wrong (%) | correct (%) | of them rewarded < 1 (%) | corr(reward, hidden) | in-group pairs: ordered right / tied / wrong (%) | correct, first → last fifth of steps (%) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

export function auditRow(run: string, a: RewardAudit): string {
  const pct = (x: number) => (100 * x).toFixed(1);
  const p = a.pairs;
  return `| ${run} | ${a.candidates} | ${pct(a.rewardedFull)} | ${pct(a.falsePositive)} | ${pct(a.correct)} | ${pct(a.underRewarded)} | ${a.correlation.toFixed(2)} | ${pct(p.right)} / ${pct(p.tied)} / ${pct(p.wrong)} (${p.n}) | ${pct(a.correctEarly)} → ${pct(a.correctLate)} |`;
}
