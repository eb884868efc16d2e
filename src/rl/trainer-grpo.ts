// GRPO plumbing of the training step: per-step optimiser settings and the items each group contributes.
import { lrAt, type TrainConfig } from './config';
import { maxVarianceGroup } from './grpo';
import type { Generation, GrpoItem, GrpoSettings, Policy, UpdateStats } from './policy';

/** The GRPO settings at `step`: the config's groups as they are, with the lr from the schedule. */
export function grpoSettingsAt(config: TrainConfig, step: number, baseLr: number): GrpoSettings {
  const { grpo, optim, rollout } = config;
  return { lr: lrAt(baseLr, step, optim), grpo, optim, rollout };
}

export function itemsFor(
  gens: Generation[],
  adv: number[][],
  groupSize: number,
  dropTied: boolean,
  keepGroup: (g: number) => boolean = () => true,
): GrpoItem[] {
  const items: GrpoItem[] = [];
  adv.forEach((group, gi) => {
    if (!keepGroup(gi) || (dropTied && group.every((a) => a === 0))) return;
    group.forEach((a, j) => {
      const g = gens[gi * groupSize + j];
      items.push({
        promptTokens: g.promptTokens,
        completionTokens: g.completionTokens,
        rolloutLogprobs: g.rolloutLogprobs,
        advantage: a,
      });
    });
  });
  return items;
}

export async function updateOrIdle(policy: Policy, items: GrpoItem[], s: GrpoSettings): Promise<UpdateStats> {
  return items.length ? policy.grpoUpdate(items, s) : idleStats();
}

export function idleStats(): UpdateStats {
  return { loss: 0, kl: 0, entropy: 0, clipLow: 0, clipHigh: 0, gradNorm: 0, mismatchKl: 0, skipped: false, tokens: 0 };
}

export function chunk<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

/**
 * The Tester's GRPO items: its groups for every candidate (`tester_candidates: all`), or per problem only the
 * candidate whose tester group's rewards vary most (the release's choice).
 */
export function testerItemsFor(
  config: TrainConfig,
  problems: number,
  M: number,
  N: number,
  testerGens: Generation[],
  testerAdv: number[][],
  testerGroups: number[][],
): GrpoItem[] {
  const chosen = new Set<number>();
  for (let pi = 0; pi < problems; pi++) {
    const idx = Array.from({ length: M }, (_, j) => pi * M + j);
    if (config.grpo.tester_candidates === 'all') idx.forEach((i) => chosen.add(i));
    else chosen.add(idx[maxVarianceGroup(idx.map((i) => testerGroups[i]))]);
  }
  return itemsFor(testerGens, testerAdv, N, config.grpo.drop_zero_std_groups, (g) => chosen.has(g));
}
