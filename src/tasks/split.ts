// The training instances cut in two disjoint parts: an SFT part for the warm-start and an RL part for GRPO, so RL
// is measured on instances the warm-start never saw (otherwise it mostly re-rewards memorised answers).
import type { Problem } from './types';
import { Rng } from './rng';

/** Which training instances a job uses: all of them, the warm-start part, or the RL part. */
export type TrainPart = 'all' | 'sft' | 'rl';
export const TRAIN_PARTS: readonly TrainPart[] = ['all', 'sft', 'rl'];

/**
 * Every family's training instances, sorted by id and shuffled by a seed derived from the family name, are cut at
 * half: the first half (rounded down) is the SFT part, the rest the RL part. Deterministic and independent of which
 * other families are loaded, so pretrain and train agree on it.
 */
export function trainPartIds(problems: readonly Problem[], seed = 19): { sft: Set<string>; rl: Set<string> } {
  const byFamily = new Map<string, Problem[]>();
  for (const p of problems) {
    if (p.split !== 'train') continue;
    const list = byFamily.get(p.family);
    if (list) list.push(p);
    else byFamily.set(p.family, [p]);
  }
  const sft = new Set<string>();
  const rl = new Set<string>();
  for (const [family, ps] of byFamily) {
    const sorted = [...ps].sort((a, b) => a.id.localeCompare(b.id));
    const order = Rng.from(seed, 'sft-rl', family).shuffle(sorted.map((_, i) => i));
    order.forEach((idx, rank) => (rank < Math.floor(sorted.length / 2) ? sft : rl).add(sorted[idx].id));
  }
  return { sft, rl };
}

/** The training problems of one part (all of them for 'all'). */
export function selectTrainPart<T extends { split: Problem['split']; id: string }>(
  items: readonly T[],
  ids: ReturnType<typeof trainPartIds>,
  part: TrainPart,
): T[] {
  const train = items.filter((p) => p.split === 'train');
  if (part === 'all') return train;
  const keep = part === 'sft' ? ids.sft : ids.rl;
  return train.filter((p) => keep.has(p.id));
}
