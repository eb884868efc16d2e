// The held-out-task split on the real curriculum: one instance per task no curriculum instance poses under any name,
// capped per family, deterministic, verifiable like any instance, and classified "new" against every training part.
import { describe, expect, it } from 'vitest';
import {
  HELDOUT_FAMILIES,
  HELDOUT_TASK_CAP,
  generateCurriculum,
  generateHeldoutTasks,
  instanceFor,
  taskOf,
} from './generate';
import { noveltyAgainst } from './novelty';
import { loadCurriculum } from '../run/lab-setup';
import { parseEvalSplits, parseHeldOutSplits } from '../run/eval-splits';
import type { Problem } from './types';

// count_items and remove_char have fewer spare tasks than the cap, clamp_values more; acronym and keys_above none
// (every task of theirs is in the curriculum); reverse_integer is held out whole.
const FAMS = ['count_items', 'clamp_values', 'remove_char', 'acronym', 'keys_above', 'reverse_integer'];
const curriculum = generateCurriculum({ families: FAMS }).map((i) => i.problem);
const fresh = generateHeldoutTasks({ families: FAMS });
const blank = (p: Problem) => p.prompt.replace(new RegExp(`\\b${p.entryPoint}\\b`, 'g'), 'FN');

describe('generateHeldoutTasks', () => {
  it('poses tasks no curriculum instance poses, once each, under the split heldout-task', () => {
    expect(fresh.length).toBeGreaterThan(20);
    const used = new Set(curriculum.map((p) => taskOf(p.id)));
    const tasks = fresh.map((i) => taskOf(i.problem.id));
    for (const t of tasks) expect(used.has(t)).toBe(false);
    expect(new Set(tasks).size).toBe(tasks.length);
    // The prompts say so too: with the name blanked, none equals a curriculum prompt or another new one.
    const seen = new Set(curriculum.map(blank));
    for (const i of fresh) expect(seen.has(blank(i.problem))).toBe(false);
    expect(new Set(fresh.map((i) => blank(i.problem))).size).toBe(fresh.length);
    for (const i of fresh) {
      expect(i.problem.split).toBe('heldout-task');
      expect(i.problem.id).toMatch(/^[a-z_]+\/t\d{3}$/);
      expect(i.problem.hiddenTests.length).toBeGreaterThan(0);
      expect(i.mutants.length).toBeGreaterThan(0);
    }
  });

  it('takes every spare task up to the cap per family, none from a family held out whole', () => {
    const per = (f: string) => fresh.filter((i) => i.problem.family === f).length;
    expect(per('clamp_values')).toBe(HELDOUT_TASK_CAP);
    expect(per('count_items')).toBeGreaterThan(0);
    expect(per('count_items')).toBeLessThan(HELDOUT_TASK_CAP);
    expect(per('acronym')).toBe(0);
    expect(HELDOUT_FAMILIES).toContain('reverse_integer');
    expect(per('reverse_integer')).toBe(0);
  });

  it('is deterministic and leaves the curriculum as it was', () => {
    const again = generateHeldoutTasks({ families: FAMS });
    expect(again.map((i) => [i.problem.id, i.problem.prompt])).toEqual(
      fresh.map((i) => [i.problem.id, i.problem.prompt]),
    );
    expect(generateCurriculum({ families: FAMS }).map((i) => i.problem.id)).toEqual(curriculum.map((p) => p.id));
    // Another seed draws other instances.
    const other = generateHeldoutTasks({ families: ['clamp_values'], seed: 7 });
    expect(other.map((i) => i.problem.prompt)).not.toEqual(
      fresh.filter((i) => i.problem.family === 'clamp_values').map((i) => i.problem.prompt),
    );
  });

  it('is found by id, classified new, loaded with its mutants and named by the eval flags', () => {
    const first = fresh[0].problem;
    expect(instanceFor(first.id).problem.prompt).toBe(first.prompt);
    const novelty = noveltyAgainst(curriculum, 'rl');
    for (const i of fresh) expect(novelty(i.problem.id)).toBe('new');
    const cur = loadCurriculum(FAMS);
    expect(cur.heldoutTask.map((p) => p.id)).toEqual(fresh.map((i) => i.problem.id));
    expect(cur.mutants.get(first.id)?.length).toBeGreaterThan(0);
    expect(cur.instances.some((i) => i.problem.split === 'heldout-task')).toBe(false);
    expect(parseEvalSplits('heldout,heldout-task', '--splits').has('heldout-task')).toBe(true);
    expect(parseHeldOutSplits(undefined, '--eval-splits').has('heldout-task')).toBe(false);
  });
});
