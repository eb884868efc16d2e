// The held-out split on the real curriculum: one instance per task no curriculum instance poses under any name (the
// curriculum's own spare draws, then task variants), capped per family, deterministic, classified "new" against every
// training part, and what the CLI and the lab evaluate by default; the instance split lives on as `renamed`.
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
import { DEFAULT_SPLITS, migrateSplit, parseEvalSplits, parseHeldOutSplits } from '../run/eval-splits';
import { presetConfig } from '../rl/config';
import type { Problem } from './types';

// count_items and remove_char have fewer spare draws than the cap (count_items fills up with variants), clamp_values
// more; acronym and keys_above none of their own (variants only); reverse_integer is held out whole.
const FAMS = ['count_items', 'clamp_values', 'remove_char', 'acronym', 'keys_above', 'reverse_integer'];
const curriculum = generateCurriculum({ families: FAMS }).map((i) => i.problem);
const fresh = generateHeldoutTasks({ families: FAMS });
const blank = (p: Problem) => p.prompt.replace(new RegExp(`\\b${p.entryPoint}\\b`, 'g'), 'FN');

describe('the held-out split (tasks never trained on)', () => {
  it('poses tasks no curriculum instance poses, once each, under the split heldout', () => {
    expect(fresh.length).toBeGreaterThan(50);
    const used = new Set(curriculum.map((p) => taskOf(p.id)));
    const tasks = fresh.map((i) => taskOf(i.problem.id));
    for (const t of tasks) expect(used.has(t)).toBe(false);
    expect(new Set(tasks).size).toBe(tasks.length);
    // The prompts say so too: with the name blanked, none equals a curriculum prompt or another new one.
    const seen = new Set(curriculum.map(blank));
    for (const i of fresh) expect(seen.has(blank(i.problem))).toBe(false);
    expect(new Set(fresh.map((i) => blank(i.problem))).size).toBe(fresh.length);
    for (const i of fresh) {
      expect(i.problem.split).toBe('heldout');
      expect(i.problem.id).toMatch(/^[a-z_]+\/t\d{3}$/);
      expect(i.problem.hiddenTests.length).toBeGreaterThan(0);
      expect(i.mutants.length).toBeGreaterThan(0);
    }
    // No curriculum instance is in it: the instances held out by instance are the renamed split.
    expect(curriculum.some((p) => p.split === 'heldout')).toBe(false);
    expect(curriculum.some((p) => p.split === 'renamed')).toBe(true);
  });

  it('fills every training family to the cap with task variants, none from a family held out whole', () => {
    const per = (f: string) => fresh.filter((i) => i.problem.family === f).length;
    for (const f of ['clamp_values', 'count_items', 'acronym', 'keys_above']) expect(per(f), f).toBe(HELDOUT_TASK_CAP);
    expect(per('remove_char')).toBeGreaterThan(0);
    expect(per('remove_char')).toBeLessThan(HELDOUT_TASK_CAP);
    expect(HELDOUT_FAMILIES).toContain('reverse_integer');
    expect(per('reverse_integer')).toBe(0);
    // The spare draws come first, so adding variants kept the ids the committed records use (count_items had 3).
    const [t0] = fresh.filter((i) => i.problem.family === 'count_items');
    expect(t0.problem.id).toBe('count_items/t000');
  });

  it('the tiny preset (the reference runs) holds enough held-out tasks for the power calculation', () => {
    const cur = loadCurriculum(presetConfig('tiny').tasks.families);
    expect(cur.heldout.length).toBeGreaterThanOrEqual(100);
    expect(new Set(cur.heldout.map((p) => taskOf(p.id))).size).toBe(cur.heldout.length);
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

  it('is found by id, classified new, loaded with its mutants and evaluated by default', () => {
    const first = fresh[0].problem;
    expect(instanceFor(first.id).problem.prompt).toBe(first.prompt);
    const novelty = noveltyAgainst(curriculum, 'rl');
    for (const i of fresh) expect(novelty(i.problem.id)).toBe('new');
    const cur = loadCurriculum(FAMS);
    expect(cur.heldout.map((p) => p.id)).toEqual(fresh.map((i) => i.problem.id));
    expect(cur.renamed.every((p) => p.split === 'renamed')).toBe(true);
    expect(cur.mutants.get(first.id)?.length).toBeGreaterThan(0);
    expect(cur.instances.some((i) => i.problem.split === 'heldout')).toBe(false);
    // The default of `npm run eval --splits` and `train --eval-splits`: held-out tasks and families, not renamed.
    expect([...parseEvalSplits(undefined, '--splits')]).toEqual(DEFAULT_SPLITS.split(','));
    expect(parseHeldOutSplits(undefined, '--eval-splits').has('heldout')).toBe(true);
    expect(parseHeldOutSplits(undefined, '--eval-splits').has('renamed')).toBe(false);
    expect(parseEvalSplits('renamed', '--splits').has('renamed')).toBe(true);
    expect(() => parseEvalSplits('heldout-task', '--splits')).toThrow(/now called 'heldout'/);
  });

  it('reads records made under the old names: heldout was the instance split, heldout-task the new tasks', () => {
    const old = (split: string) => ({ split, problems: 1 }) as unknown as Parameters<typeof migrateSplit>[0];
    expect(migrateSplit(old('heldout')).split).toBe('renamed');
    expect(migrateSplit(old('heldout-task')).split).toBe('heldout');
    expect(migrateSplit(old('heldout-family')).split).toBe('heldout-family');
    // A record made since keeps its names, whatever they are.
    const now = migrateSplit(old('heldout'));
    expect(migrateSplit({ ...now, split: 'heldout' }).split).toBe('heldout');
  });
});
