// evalSubset: a small evaluation set spreads over families, is stable for a seed, and never repeats a problem.
import { describe, expect, it } from 'vitest';
import { evalSubset, parseEvalSplits, parseHeldOutSplits } from './eval';
import { generateProblems } from '../tasks/generate';

const problems = generateProblems({ families: ['count_items', 'remove_char', 'acronym', 'keys_above'] }).filter(
  (p) => p.split === 'renamed',
);

describe('evalSubset', () => {
  it('takes problems from every family, not the first family in the list', () => {
    const sub = evalSubset(problems, 8, 1234);
    expect(sub).toHaveLength(8);
    const perFamily = new Map<string, number>();
    for (const p of sub) perFamily.set(p.family, (perFamily.get(p.family) ?? 0) + 1);
    expect([...perFamily.values()].sort()).toEqual([2, 2, 2, 2]);
  });

  it('is deterministic for a seed, differs across seeds, and has no duplicates', () => {
    const a = evalSubset(problems, 10, 7).map((p) => p.id);
    expect(evalSubset(problems, 10, 7).map((p) => p.id)).toEqual(a);
    expect(new Set(a).size).toBe(10);
    expect(evalSubset(problems, 10, 8).map((p) => p.id)).not.toEqual(a);
  });

  it('returns everything when asked for more than there is', () => {
    expect(
      evalSubset(problems, problems.length + 5, 1)
        .map((p) => p.id)
        .sort(),
    ).toEqual(problems.map((p) => p.id).sort());
  });
});

describe('parseHeldOutSplits', () => {
  it('defaults to both splits, accepts a list, and names the flag and the bad split', () => {
    expect([...parseHeldOutSplits(undefined, '--splits')].sort()).toEqual(['heldout', 'heldout-family']);
    expect([...parseHeldOutSplits('heldout', '--splits')]).toEqual(['heldout']);
    expect(() => parseHeldOutSplits('heldout,train', '--eval-splits')).toThrow("--eval-splits: unknown split 'train'");
  });
});

describe('parseEvalSplits', () => {
  it("takes the training split, its warm-start parts and the RL part's halves beside the held-out ones; a training run does not", () => {
    expect([...parseEvalSplits('heldout,train-sft,train-rl', '--splits')]).toEqual([
      'heldout',
      'train-sft',
      'train-rl',
    ]);
    expect([...parseEvalSplits(undefined, '--splits')].sort()).toEqual(['heldout', 'heldout-family']);
    // The RL part's fit / validation halves, for tuning on instances never trained on.
    expect([...parseEvalSplits('train-rl-val,train-rl-fit', '--splits')]).toEqual(['train-rl-val', 'train-rl-fit']);
    expect(() => parseEvalSplits('train-all', '--splits')).toThrow(
      "--splits: unknown split 'train-all' (heldout, heldout-family, renamed, train, train-sft, train-rl, train-rl-fit, train-rl-val)",
    );
    expect(() => parseHeldOutSplits('train-rl', '--eval-splits')).toThrow("unknown split 'train-rl'");
  });
});
