// The training instances cut in two disjoint parts: an SFT part for the warm-start and an RL part for GRPO, so RL
// is measured on instances the warm-start never saw (otherwise it mostly re-rewards memorised answers).
import type { Problem } from './types';
import { Rng } from './rng';

/**
 * Which training instances a job uses: all of them, the warm-start part, the RL part, or one of the RL part's two
 * halves: rl-fit to train on and rl-val to choose a setting on (never trained on, so a setting that only fits its
 * training instances better does not win, which held-out numbers must not be used to see).
 */
export type TrainPart = 'all' | 'sft' | 'rl' | 'rl-fit' | 'rl-val';
/** A part that is a subset of the training instances (every part but 'all'). */
export type TrainSubset = Exclude<TrainPart, 'all'>;
export const TRAIN_SUBSETS: readonly TrainSubset[] = ['sft', 'rl', 'rl-fit', 'rl-val'];
export const TRAIN_PARTS: readonly TrainPart[] = ['all', ...TRAIN_SUBSETS];
/** The ids of each subset. */
export type TrainPartIds = Record<TrainSubset, Set<string>>;

/**
 * Every family's training instances, sorted by id and shuffled by a seed derived from the family name, are cut at
 * half: the first half (rounded down) is the SFT part, the rest the RL part. Deterministic and independent of which
 * other families are loaded, so pretrain and train agree on it.
 */
export function trainPartIds(problems: readonly Problem[], seed = 19): TrainPartIds {
  const byFamily = new Map<string, Problem[]>();
  for (const p of problems) {
    if (p.split !== 'train') continue;
    const list = byFamily.get(p.family);
    if (list) list.push(p);
    else byFamily.set(p.family, [p]);
  }
  const ids: TrainPartIds = { sft: new Set(), rl: new Set(), 'rl-fit': new Set(), 'rl-val': new Set() };
  for (const [family, ps] of byFamily) {
    const sorted = [...ps].sort((a, b) => a.id.localeCompare(b.id));
    const order = Rng.from(seed, 'sft-rl', family).shuffle(sorted.map((_, i) => i));
    const shuffled = order.map((idx) => sorted[idx].id);
    const half = Math.floor(sorted.length / 2);
    for (const id of shuffled.slice(0, half)) ids.sft.add(id);
    const rl = shuffled.slice(half);
    for (const id of rl) ids.rl.add(id);
    // The RL part cut again, by its own shuffle, so that the sft / rl cut above stays what it was.
    const valOrder = Rng.from(seed, 'rl-fit-val', family).shuffle(rl.map((_, i) => i));
    valOrder.forEach((idx, rank) => ids[rank < Math.ceil(rl.length / 2) ? 'rl-fit' : 'rl-val'].add(rl[idx]));
  }
  return ids;
}

/** The training problems of one part (all of them for 'all'), in the items' order. */
export function selectTrainPart<T extends { split: Problem['split']; id: string }>(
  items: readonly T[],
  ids: TrainPartIds,
  part: TrainPart,
): T[] {
  const train = items.filter((p) => p.split === 'train');
  if (part === 'all') return train;
  const keep = ids[part];
  return train.filter((p) => keep.has(p.id));
}
