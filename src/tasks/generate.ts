// The built-in curriculum: deterministic instances of every family, with train / renamed / held-out-family splits, and
// the held-out split: instances of tasks no curriculum instance poses.
import type { Problem, Split } from './types';
import type { Family, Instance, InstanceSeed } from './family';
import { FAMILIES } from './families/index';
import { Rng } from './rng';

/** Families never seen in training: they measure generalisation to new task kinds (one or two per category). */
export const HELDOUT_FAMILIES: readonly string[] = [
  'alternating_sum',
  'caesar_shift',
  'reverse_integer',
  'invert_dict',
  'kth_smallest',
  'first_unique_index',
];

export interface CurriculumOptions {
  /** Everything (parameters, tests, splits) derives from this seed. */
  seed?: number;
  /** Distinct instances per family (fewer when a family's parameter space is smaller). */
  perFamily?: number;
  /** Share of each training family's instances held out by instance (the renamed split). */
  heldoutFraction?: number;
  /** Restrict to these families (by name). */
  families?: readonly string[];
}

export const DEFAULT_SEED = 20260311;
export const DEFAULT_PER_FAMILY = 64;

export function familyByName(name: string): Family {
  const f = FAMILIES.find((x) => x.name === name);
  if (!f) throw new Error(`unknown family "${name}"`);
  return f;
}

/** One family's distinct instance seeds (by function name and parameters) with their ids and splits, unbuilt. */
function familySeeds(family: Family, opts: CurriculumOptions = {}): { id: string; split: Split; seed: InstanceSeed }[] {
  const seed = opts.seed ?? DEFAULT_SEED;
  const want = opts.perFamily ?? DEFAULT_PER_FAMILY;
  const frac = opts.heldoutFraction ?? 0.2;
  const found: InstanceSeed[] = [];
  const seen = new Set<string>();
  for (let i = 0; found.length < want && i < want * 20; i++) {
    const inst = family.instantiate(seed, i);
    if (seen.has(inst.key)) continue;
    seen.add(inst.key);
    found.push(inst);
  }
  const wholeOut = HELDOUT_FAMILIES.includes(family.name);
  // Exactly round(frac * n) instances held out, chosen by a seeded shuffle so the split is stable.
  const order = Rng.from(seed, 'split', family.name).shuffle(found.map((_, i) => i));
  const heldout = new Set(order.slice(0, Math.round(frac * found.length)));
  return found.map((f, i) => ({
    id: `${family.name}/${String(i).padStart(4, '0')}`,
    split: wholeOut ? 'heldout-family' : heldout.has(i) ? 'renamed' : 'train',
    seed: f,
  }));
}

/**
 * Most held-out instances per family: the split is one instance per new task, and a family with a large parameter
 * space (clamp_values has 39 tasks no curriculum instance poses) would otherwise be most of it.
 */
export const HELDOUT_TASK_CAP = 16;

/**
 * The held-out split of one family: one instance (the first found, under its seeded function name) of each task no
 * curriculum instance of the family poses under any name, up to HELDOUT_TASK_CAP, ids `family/t000`: first the
 * curriculum's own parameter draws it left unused, then the family's task variants. Unlike the renamed split, whose
 * instances mostly rename a training task, these are parameters the lab never trained on; the curriculum is unchanged
 * by them. Families held out whole have none (every task of theirs is held out already).
 */
function heldoutTaskSeeds(
  family: Family,
  opts: CurriculumOptions = {},
): { id: string; split: Split; seed: InstanceSeed }[] {
  if (HELDOUT_FAMILIES.includes(family.name)) return [];
  const seed = opts.seed ?? DEFAULT_SEED;
  const curriculum = familySeeds(family, opts);
  const used = new Set(curriculum.map((f) => f.seed.task));
  // One built instance per curriculum task: a candidate whose hidden tests one of them passes (the TS mirror of the
  // reference gives the same output on every hidden input) is a training task in behaviour, whatever its parameters
  // (count_chars_in's 'cw' and 'civw' agree on tests that hold no 'i'), so it is skipped like a used task.
  const reps = new Map<string, Instance>();
  for (const f of curriculum) if (!reps.has(f.seed.task)) reps.set(f.seed.task, f.seed.make(f.id, 'train'));
  const behavesLikeTraining = (cand: Instance) =>
    [...reps.values()].some((r) => cand.hiddenArgs.every((a) => r.expectedRepr(a) === cand.expectedRepr(a)));
  const found: InstanceSeed[] = [];
  // Past the curriculum's draws until HELDOUT_TASK_CAP new tasks, or until MISSES draws in a row pose none (the
  // family's parameter space is spent: most families have no task to spare, and every lab load builds this).
  const MISSES = 1000;
  // Then the family's task variants (parameters the curriculum never draws), from their own RNG stream, so the
  // instances found first keep their ids whatever variants are added.
  const draws = [family.instantiate, family.instantiateVariant];
  for (const draw of draws) {
    if (!draw) continue;
    for (let i = 0, miss = 0; found.length < HELDOUT_TASK_CAP && miss < MISSES; i++) {
      const inst = draw(seed, i);
      if (used.has(inst.task)) {
        miss++;
        continue;
      }
      used.add(inst.task);
      if (behavesLikeTraining(inst.make(`${family.name}/candidate`, 'heldout'))) continue;
      miss = 0;
      found.push(inst);
    }
  }
  return found.map((f, i) => ({ id: `${family.name}/t${String(i).padStart(3, '0')}`, split: 'heldout', seed: f }));
}

/** The held-out instances (tasks never trained on) of the given families (default: every family), in family order. */
export function generateHeldoutTasks(opts: CurriculumOptions = {}): Instance[] {
  const fams = opts.families ? opts.families.map(familyByName) : FAMILIES;
  return fams.flatMap((f) => heldoutTaskSeeds(f, opts).map((s) => s.seed.make(s.id, s.split)));
}

/** Instances of one family, distinct by (function name, parameters), in a seed-determined order. */
export function familyInstances(family: Family, opts: CurriculumOptions = {}): Instance[] {
  return familySeeds(family, opts).map((f) => f.seed.make(f.id, f.split));
}

const defaultTasks = new Map<string, Map<string, string>>();

/**
 * The task a problem poses: for a generated instance its family and parameters (instances that differ only in the
 * function name are one task), for anything else its id. Instances of one task are not independent evidence, so
 * intervals that resample tasks rather than instances use this (the default curriculum, the one the lab trains on).
 */
export function taskOf(problemId: string): string {
  const name = problemId.split('/')[0];
  let tasks = defaultTasks.get(name);
  if (!tasks) {
    // Built per family on first use: the held-out-task search instantiates thousands of parameter draws.
    const family = FAMILIES.find((x) => x.name === name);
    tasks = new Map(
      family ? [...familySeeds(family), ...heldoutTaskSeeds(family)].map((s) => [s.id, s.seed.task] as const) : [],
    );
    defaultTasks.set(name, tasks);
  }
  return tasks.get(problemId) ?? problemId;
}

export function generateCurriculum(opts: CurriculumOptions = {}): Instance[] {
  const fams = opts.families ? opts.families.map(familyByName) : FAMILIES;
  return fams.flatMap((f) => familyInstances(f, opts));
}

export function generateProblems(opts: CurriculumOptions = {}): Problem[] {
  return generateCurriculum(opts).map((i) => i.problem);
}

export function problemsBySplit(problems: readonly Problem[], split: Split): Problem[] {
  return problems.filter((p) => p.split === split);
}

/** The instance (styles, mutants, probe inputs) behind a generated problem id such as "three_sum/0042" or ".../t003". */
export function instanceFor(problemId: string, opts: CurriculumOptions = {}): Instance {
  const family = familyByName(problemId.split('/')[0]);
  const inst = [...familyInstances(family, opts), ...generateHeldoutTasks({ ...opts, families: [family.name] })].find(
    (i) => i.problem.id === problemId,
  );
  if (!inst) throw new Error(`no generated problem "${problemId}" (seed ${opts.seed ?? DEFAULT_SEED})`);
  return inst;
}
