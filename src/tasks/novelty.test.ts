// taskOf and taskNovelty on the real curriculum: instances of one task are the same problem under another function
// name (the prompt, all the model sees, equal once the name is blanked; the hidden tests are drawn per instance), a
// "new" held-out instance's prompt matches no training instance's, and the categories follow from which part the warm-start and RL used.
import { describe, expect, it } from 'vitest';
import { generateProblems, taskOf } from './generate';
import { taskNovelty, taskSummary, warmStartPart } from './novelty';
import { selectTrainPart, trainPartIds } from './split';
import type { Problem } from './types';

// Families with many parameter values and with few (acronym: 8 tasks under 56 names), and a held-out family.
const FAMS = [
  'count_items',
  'clamp_values',
  'remove_char',
  'reverse_words',
  'acronym',
  'keys_above',
  'reverse_integer',
];
const problems = generateProblems({ families: FAMS });
/** The problem as the model sees it, with its function name blanked. */
const blank = (p: Problem) => p.prompt.replace(new RegExp(`\\b${p.entryPoint}\\b`, 'g'), 'FN');

describe('taskOf', () => {
  it('gives instances that differ only in the function name one task, and different problems different tasks', () => {
    const byTask = new Map<string, Problem[]>();
    for (const p of problems) byTask.set(taskOf(p.id), [...(byTask.get(taskOf(p.id)) ?? []), p]);
    const shared = [...byTask.values()].filter((ps) => ps.length > 1);
    expect(shared.length).toBeGreaterThan(20);
    for (const ps of shared) {
      expect(new Set(ps.map((p) => p.entryPoint)).size).toBe(ps.length); // the names differ
      expect(new Set(ps.map(blank)).size).toBe(1); // nothing else does
    }
    const tasks = [...byTask.values()].map((ps) => blank(ps[0]));
    expect(new Set(tasks).size).toBe(tasks.length);
  });

  it('is the id for a problem outside the generated curriculum', () => {
    expect(taskOf('HumanEval/3')).toBe('HumanEval/3');
    expect(taskOf('count_items/9999')).toBe('count_items/9999');
  });
});

describe('taskNovelty', () => {
  it('warm-starts on the SFT part for RL on the RL part or its halves, on everything otherwise', () => {
    expect(['rl', 'rl-fit', 'rl-val'].map((p) => warmStartPart(p as 'rl'))).toEqual(['sft', 'sft', 'sft']);
    expect(warmStartPart('all')).toBe('all');
  });

  it('classifies held-out instances by the training instances that pose their task', () => {
    const ids = trainPartIds(problems);
    const seen = (part: 'sft' | 'rl') => new Set(selectTrainPart(problems, ids, part).map(blank));
    const [sft, rl] = [seen('sft'), seen('rl')];
    const of = taskNovelty(FAMS, 'rl');
    const heldout = problems.filter((p) => p.split === 'renamed');
    const counts = { new: 0, 'warm-start': 0, 'rl-only': 0 };
    for (const p of heldout) {
      const want = sft.has(blank(p)) ? 'warm-start' : rl.has(blank(p)) ? 'rl-only' : 'new';
      expect(of(p.id)).toBe(want);
      counts[want]++;
    }
    // Every category occurs: the held-out split mixes renamed and new tasks.
    expect(Object.values(counts).every((n) => n > 5)).toBe(true);
    // With a warm-start on everything, nothing is only RL's, and "new" is the same set.
    const all = taskNovelty(FAMS, 'all');
    expect(heldout.filter((p) => all(p.id) === 'rl-only')).toEqual([]);
    expect(heldout.filter((p) => all(p.id) === 'new').length).toBe(counts.new);
  });
});

describe('taskSummary', () => {
  it('counts instances, tasks and renamings as the prompts say', () => {
    const t = taskSummary(problems);
    const ids = trainPartIds(problems);
    const [sft, rl] = [selectTrainPart(problems, ids, 'sft'), selectTrainPart(problems, ids, 'rl')];
    const sftPrompts = new Set(sft.map(blank));
    expect(t.rlRenamingSft).toBe(rl.filter((p) => sftPrompts.has(blank(p))).length);
    expect(t.sft).toEqual({ instances: sft.length, tasks: sftPrompts.size });
    const heldout = problems.filter((p) => p.split === 'renamed');
    expect(t.heldout).toEqual({ instances: heldout.length, tasks: new Set(heldout.map(blank)).size });
    const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
    expect(sum(t.heldoutVsHalves)).toBe(heldout.length);
    expect(sum(t.heldoutVsAll)).toBe(heldout.length);
    expect(t.heldoutVsAll['rl-only']).toBe(0);
    const family = problems.filter((p) => p.split === 'heldout-family');
    expect(t.heldoutFamily).toEqual({ instances: 50, tasks: new Set(family.map(blank)).size });
  });
});
