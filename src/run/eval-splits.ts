// The splits an evaluation can cover, the CLI flags (--splits, --eval-splits) that name them, and the reading of
// records written under the old names.
import { TRAIN_SUBSETS, type TrainSubset } from '../tasks/split';
import type { Split } from '../tasks/types';

/**
 * heldout: one instance per task no curriculum instance poses (what "held-out" means everywhere in the lab);
 * heldout-family: the families never trained on; renamed: instances held out by instance, most of which pose a
 * training task under another function name (opt-in: it measures recall of renamed tasks as much as generalisation).
 */
export type HeldOutSplit = 'heldout' | 'heldout-family' | 'renamed';
/**
 * What `npm run eval` can evaluate: the held-out splits, and the training split whole or by warm-start part (the SFT
 * half the warm-start saw, the RL half and its fit / validation halves, tasks/split.ts), which shows how much of a
 * model's pass rate is recall.
 */
export type EvalSplit = HeldOutSplit | 'train' | `train-${TrainSubset}`;
export const HELD_OUT_SPLITS: readonly HeldOutSplit[] = ['heldout', 'heldout-family', 'renamed'];
const EVAL_SPLITS: readonly EvalSplit[] = [
  ...HELD_OUT_SPLITS,
  'train',
  ...TRAIN_SUBSETS.map((p) => `train-${p}` as const),
];
/** What an evaluation covers when no split is named: the tasks never trained on, and the families never trained on. */
export const DEFAULT_SPLITS = 'heldout,heldout-family';

/** A comma-separated list of splits among `allowed` (a CLI flag's value); undefined means DEFAULT_SPLITS. */
function parseSplits<T extends string>(text: string | undefined, flag: string, allowed: readonly T[]): Set<T> {
  const out = new Set<T>();
  for (const s of (text ?? DEFAULT_SPLITS).split(',')) {
    if (s === 'heldout-task')
      throw new Error(
        `${flag}: 'heldout-task' is now called 'heldout' (tasks never trained on); the old instance split is 'renamed'`,
      );
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

/**
 * A record's split under the current names. Records written before held-out meant "tasks never trained on" (issue
 * 47) lack `splitsByTask`: their 'heldout' was the instance split (now 'renamed') and their 'heldout-task' the tasks
 * never trained on (now 'heldout').
 */
export function migrateSplit<R extends { split: Split; splitsByTask?: true }>(r: R): R {
  if (r.splitsByTask) return r;
  const old: string = r.split;
  const split: Split = old === 'heldout' ? 'renamed' : old === 'heldout-task' ? 'heldout' : r.split;
  return { ...r, split, splitsByTask: true };
}
