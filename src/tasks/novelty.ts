// Which held-out instances pose a task the lab trained on under another function name, and which pose a new one: a
// held-out instance differs from the training ones in its name and only sometimes in its constants.
import { generateProblems, taskOf } from './generate';
import { selectTrainPart, trainPartIds, type TrainPart } from './split';

/** A held-out instance's task: new, posed by a warm-start instance (renamed), or only by an RL problem (renamed). */
export type Novelty = 'new' | 'warm-start' | 'rl-only';
export const NOVELTIES: readonly Novelty[] = ['new', 'warm-start', 'rl-only'];

/**
 * The training instances the warm-start saw when RL trains on `rlPart`: the SFT part for RL on the RL part (or one
 * of its halves: the lab's SFT-half models), every training instance for RL on all of them (the first shipped
 * models, warm-started on everything).
 */
export function warmStartPart(rlPart: TrainPart): TrainPart {
  return rlPart === 'rl' || rlPart === 'rl-fit' || rlPart === 'rl-val' ? 'sft' : 'all';
}

/**
 * Classifies problems of the curriculum restricted to `families` against a warm-start on `warmPart` and RL on
 * `rlPart`: 'warm-start' when some warm-start instance poses the same task, else 'rl-only' when some RL problem
 * does, else 'new'. A training instance is its own task's instance, so this is for held-out problems.
 */
export function taskNovelty(
  families: readonly string[],
  rlPart: TrainPart,
  warmPart: TrainPart = warmStartPart(rlPart),
): (problemId: string) => Novelty {
  const problems = generateProblems({ families });
  const ids = trainPartIds(problems);
  const tasks = (part: TrainPart) => new Set(selectTrainPart(problems, ids, part).map((p) => taskOf(p.id)));
  const warm = tasks(warmPart);
  const rl = tasks(rlPart);
  return (id) => {
    const t = taskOf(id);
    return warm.has(t) ? 'warm-start' : rl.has(t) ? 'rl-only' : 'new';
  };
}
