// The splits an evaluation can cover, and the CLI flags (--splits, --eval-splits) that name them.
import { TRAIN_SUBSETS, type TrainSubset } from '../tasks/split';

/** heldout-task: one instance per task no curriculum instance poses (opt-in; the default is the first two). */
export type HeldOutSplit = 'heldout' | 'heldout-family' | 'heldout-task';
/**
 * What `npm run eval` can evaluate: the held-out splits, and the training split whole or by warm-start part (the SFT
 * half the warm-start saw, the RL half and its fit / validation halves, tasks/split.ts), which shows how much of a
 * model's pass rate is recall.
 */
export type EvalSplit = HeldOutSplit | 'train' | `train-${TrainSubset}`;
const HELD_OUT_SPLITS: readonly HeldOutSplit[] = ['heldout', 'heldout-family', 'heldout-task'];
const EVAL_SPLITS: readonly EvalSplit[] = [
  ...HELD_OUT_SPLITS,
  'train',
  ...TRAIN_SUBSETS.map((p) => `train-${p}` as const),
];

/** A comma-separated list of splits among `allowed` (a CLI flag's value); undefined means both held-out splits. */
function parseSplits<T extends string>(text: string | undefined, flag: string, allowed: readonly T[]): Set<T> {
  const out = new Set<T>();
  for (const s of (text ?? 'heldout,heldout-family').split(',')) {
    if (!(allowed as readonly string[]).includes(s))
      throw new Error(`${flag}: unknown split '${s}' (${allowed.join(', ')})`);
    out.add(s as T);
  }
  return out;
}

/** The held-out splits a training run evaluates (`--eval-splits`). */
export const parseHeldOutSplits = (text: string | undefined, flag: string): Set<HeldOutSplit> =>
  parseSplits(text, flag, HELD_OUT_SPLITS);
/** The splits `npm run eval --splits` takes: the held-out ones and the training split or one of its parts. */
export const parseEvalSplits = (text: string | undefined, flag: string): Set<EvalSplit> =>
  parseSplits(text, flag, EVAL_SPLITS);
