// GRPO advantages and group statistics (TRL names: num_generations, scale_rewards), as pure functions.
//
// Departures from the paper / TRL:
// - NaN rewards (a candidate with no usable tests) carry no signal: they get advantage 0 and are left out of the
//   group mean/std.
// - scale_rewards 'batch' divides by the std over the whole batch (TRL ≥ 0.22 semantics), 'none' only centres
//   (Dr. GRPO).
import type { ScaleRewards } from './config';

// verl compute_grpo_outcome_advantage's epsilon.
const EPS = 1e-6;

export interface Advantages {
  /** Same shape as the rewards: [groups][members]. */
  advantages: number[][];
  /** Fraction of groups whose finite rewards all equal each other (no learning signal). */
  fracZeroStd: number;
  mean: number;
  std: number;
}

function stats(xs: number[]): { mean: number; std: number } {
  const f = xs.filter(Number.isFinite);
  if (f.length === 0) return { mean: 0, std: 0 };
  const mean = f.reduce((a, b) => a + b, 0) / f.length;
  // TRL uses the unbiased std (torch.std default).
  const varSum = f.reduce((a, b) => a + (b - mean) ** 2, 0);
  const std = f.length > 1 ? Math.sqrt(varSum / (f.length - 1)) : 0;
  return { mean, std };
}

/** rewards: [groups][members] → group-relative advantages. */
export function groupAdvantages(rewards: number[][], scale: ScaleRewards): Advantages {
  const all = rewards.flat();
  const batch = stats(all);
  let zero = 0;
  const advantages = rewards.map((group) => {
    // verl: a group of one has mean 0 and std 1 (its advantage is its reward).
    const g = group.filter(Number.isFinite).length === 1 ? { mean: 0, std: 1 } : stats(group);
    if (stats(group).std < 1e-8) zero++;
    const denom = scale === 'group' ? g.std + EPS : scale === 'batch' ? batch.std + EPS : 1;
    return group.map((r) => (Number.isFinite(r) ? (r - g.mean) / denom : 0));
  });
  return { advantages, fracZeroStd: rewards.length ? zero / rewards.length : 0, mean: batch.mean, std: batch.std };
}

/** Index of the group whose finite rewards vary most (the published choice for training the tester). */
export function maxVarianceGroup(rewards: number[][]): number {
  let best = 0;
  let bestStd = -1;
  rewards.forEach((g, i) => {
    const s = stats(g).std;
    if (s > bestStd) {
      bestStd = s;
      best = i;
    }
  });
  return best;
}

/** Mean and population std of the finite values (0, 0 when there are none): the per-step metric summaries. */
export function meanStd(xs: number[]): { mean: number; std: number } {
  const f = xs.filter(Number.isFinite);
  if (!f.length) return { mean: 0, std: 0 };
  const mean = f.reduce((a, b) => a + b, 0) / f.length;
  return { mean, std: Math.sqrt(f.reduce((a, b) => a + (b - mean) ** 2, 0) / f.length) };
}

export function mean(xs: number[]): number {
  return meanStd(xs).mean;
}
