// Which held-out instances pose a task the lab trained on under another function name, and which pose a new one: a
// held-out instance differs from the training ones in its name and only sometimes in its constants.
import { generateProblems, taskOf } from './generate';
import { selectTrainPart, trainPartIds, type TrainPart } from './split';
import type { Problem } from './types';

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
  return noveltyAgainst(generateProblems({ families }), rlPart, warmPart);
}

/** taskNovelty over the given problems (their training instances are the parts' pool). */
export function noveltyAgainst(
  problems: readonly Problem[],
  rlPart: TrainPart,
  warmPart: TrainPart = warmStartPart(rlPart),
): (problemId: string) => Novelty {
  const ids = trainPartIds(problems);
  const tasks = (part: TrainPart) => new Set(selectTrainPart(problems, ids, part).map((p) => taskOf(p.id)));
  const warm = tasks(warmPart);
  const rl = tasks(rlPart);
  return (id) => {
    const t = taskOf(id);
    return warm.has(t) ? 'warm-start' : rl.has(t) ? 'rl-only' : 'new';
  };
}

/** Instances and the tasks they pose. */
export interface TaskCount {
  instances: number;
  tasks: number;
}

/** How many tasks a curriculum's splits and training parts hold, and how its held-out instances relate to training. */
export interface TaskSummary {
  train: TaskCount;
  sft: TaskCount;
  rl: TaskCount;
  /** RL-part instances whose task an SFT-part instance poses under another name. */
  rlRenamingSft: number;
  /** The renamed split (instances held out by instance). */
  heldout: TaskCount;
  /** Renamed instances by novelty against the SFT-half warm-start with RL on the RL part. */
  heldoutVsHalves: Record<Novelty, number>;
  /** The same against a warm-start on every training instance (RL on all of them). */
  heldoutVsAll: Record<Novelty, number>;
  heldoutFamily: TaskCount;
}

const count = (ps: readonly Problem[]): TaskCount => ({
  instances: ps.length,
  tasks: new Set(ps.map((p) => taskOf(p.id))).size,
});

/** The task counts of `problems` (a generated curriculum, possibly restricted to some families). */
export function taskSummary(problems: readonly Problem[]): TaskSummary {
  const ids = trainPartIds(problems);
  const [sft, rl] = [selectTrainPart(problems, ids, 'sft'), selectTrainPart(problems, ids, 'rl')];
  const sftTasks = new Set(sft.map((p) => taskOf(p.id)));
  const heldout = problems.filter((p) => p.split === 'renamed');
  const tally = (of: (id: string) => Novelty) => {
    const out: Record<Novelty, number> = { new: 0, 'warm-start': 0, 'rl-only': 0 };
    for (const p of heldout) out[of(p.id)]++;
    return out;
  };
  return {
    train: count(problems.filter((p) => p.split === 'train')),
    sft: count(sft),
    rl: count(rl),
    rlRenamingSft: rl.filter((p) => sftTasks.has(taskOf(p.id))).length,
    heldout: count(heldout),
    heldoutVsHalves: tally(noveltyAgainst(problems, 'rl')),
    heldoutVsAll: tally(noveltyAgainst(problems, 'all')),
    heldoutFamily: count(problems.filter((p) => p.split === 'heldout-family')),
  };
}
