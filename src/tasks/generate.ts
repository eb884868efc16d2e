// The built-in curriculum: deterministic instances of every family, with train / held-out / held-out-family splits.
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
  /** Share of each training family's instances held out by instance. */
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
    split: wholeOut ? 'heldout-family' : heldout.has(i) ? 'heldout' : 'train',
    seed: f,
  }));
}

/** Instances of one family, distinct by (function name, parameters), in a seed-determined order. */
export function familyInstances(family: Family, opts: CurriculumOptions = {}): Instance[] {
  return familySeeds(family, opts).map((f) => f.seed.make(f.id, f.split));
}

let defaultTasks: Map<string, string> | undefined;

/**
 * The task a problem poses: for a generated instance its family and parameters (instances that differ only in the
 * function name are one task), for anything else its id. Instances of one task are not independent evidence, so
 * intervals that resample tasks rather than instances use this (the default curriculum, the one the lab trains on).
 */
export function taskOf(problemId: string): string {
  if (!defaultTasks) {
    defaultTasks = new Map();
    for (const f of FAMILIES) for (const s of familySeeds(f)) defaultTasks.set(s.id, s.seed.task);
  }
  return defaultTasks.get(problemId) ?? problemId;
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

/** The instance (styles, mutants, probe inputs) behind a generated problem id such as "three_sum/0042". */
export function instanceFor(problemId: string, opts: CurriculumOptions = {}): Instance {
  const family = problemId.split('/')[0];
  const inst = familyInstances(familyByName(family), opts).find((i) => i.problem.id === problemId);
  if (!inst) throw new Error(`no generated problem "${problemId}" (seed ${opts.seed ?? DEFAULT_SEED})`);
  return inst;
}
