// The SFT / RL parts of the training instances (and the RL part's fit / validation halves): disjoint, together the
// whole training split, about half per family, and the same whichever families are loaded (pretrain and train agree).
import { describe, expect, it } from 'vitest';
import { generateProblems } from './generate';
import { selectTrainPart, trainPartIds } from './split';
import { presetConfig } from '../rl/config';
import { trainingProblems } from '../run/lab-setup';

const families = ['count_items', 'remove_char', 'acronym', 'keys_above'];
const problems = generateProblems({ families });

describe('SFT / RL split of the training instances', () => {
  it('is disjoint, covers the training split, and splits every family in half', () => {
    const ids = trainPartIds(problems);
    const sft = selectTrainPart(problems, ids, 'sft');
    const rl = selectTrainPart(problems, ids, 'rl');
    const train = problems.filter((p) => p.split === 'train');
    expect(sft.filter((p) => ids.rl.has(p.id))).toEqual([]);
    expect(new Set([...sft, ...rl].map((p) => p.id))).toEqual(new Set(train.map((p) => p.id)));
    expect(sft.length + rl.length).toBe(train.length);
    for (const f of families) {
      const n = train.filter((p) => p.family === f).length;
      expect(sft.filter((p) => p.family === f)).toHaveLength(Math.floor(n / 2));
    }
    expect(selectTrainPart(problems, ids, 'all')).toEqual(train);
    // Held-out instances are in neither part.
    expect([...ids.sft, ...ids.rl].some((id) => problems.find((p) => p.id === id)?.split !== 'train')).toBe(false);
  });

  it('cuts the RL part again into a fit and a validation half, leaving the sft / rl cut as it was', () => {
    const ids = trainPartIds(problems);
    const fit = selectTrainPart(problems, ids, 'rl-fit').map((p) => p.id);
    const val = selectTrainPart(problems, ids, 'rl-val').map((p) => p.id);
    expect(fit.filter((id) => ids['rl-val'].has(id))).toEqual([]);
    expect(new Set([...fit, ...val])).toEqual(ids.rl);
    for (const f of families) {
      const n = [...ids.rl].filter((id) => id.startsWith(`${f}/`)).length;
      expect(val.filter((id) => id.startsWith(`${f}/`))).toHaveLength(Math.floor(n / 2));
    }
    // The validation half is drawn by its own shuffle, not the first ids in order.
    const rlSorted = [...ids.rl].filter((id) => id.startsWith('acronym/')).sort();
    const valSorted = val.filter((id) => id.startsWith('acronym/')).sort();
    expect(valSorted).not.toEqual(rlSorted.slice(rlSorted.length - valSorted.length));
    expect(valSorted).not.toEqual(rlSorted.slice(0, valSorted.length));
  });

  it('is deterministic, does not depend on the other families loaded, and changes with the seed', () => {
    const one = generateProblems({ families: ['acronym'] });
    const a = [...trainPartIds(one).sft].sort();
    expect([...trainPartIds(problems).sft].filter((id) => id.startsWith('acronym/')).sort()).toEqual(a);
    expect([...trainPartIds([...one].reverse()).sft].sort()).toEqual(a);
    expect([...trainPartIds(one, 20).sft].sort()).not.toEqual(a);
  });

  it('tasks.train_part=rl gives RL the part the warm-start (pretrain --part sft) leaves out', () => {
    const all = trainingProblems(presetConfig('tiny', { tasks: { train_part: 'all' } }));
    // The tiny preset's default models are the SFT-half warm-start, so its RL trains on the other half by default.
    expect(trainingProblems(presetConfig('tiny')).map((p) => p.id)).toEqual(
      trainingProblems(presetConfig('tiny', { tasks: { train_part: 'rl' } })).map((p) => p.id),
    );
    const rl = trainingProblems(presetConfig('tiny', { tasks: { train_part: 'rl' } }));
    const sft = trainingProblems(presetConfig('tiny', { tasks: { train_part: 'sft' } }));
    expect(rl.length + sft.length).toBe(all.length);
    const sftIds = new Set(sft.map((p) => p.id));
    expect(rl.some((p) => sftIds.has(p.id))).toBe(false);
    expect(() => presetConfig('tiny', { tasks: { train_part: 'half' as 'rl' } })).toThrow(
      /tasks.train_part must be one of all, sft, rl/,
    );
  });
});
