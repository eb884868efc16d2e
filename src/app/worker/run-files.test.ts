// The lab reads the CLI's eval.jsonl (`npm run train --eval-every`) and writes the same shape.
import { describe, expect, it } from 'vitest';
import { freshSeed, mulberry32 } from '../../testing/random';
import type { SplitReport } from '../../run/eval';
import { parseEvalJsonl } from './run-files';

describe('run files', () => {
  it('parses eval.jsonl lines of { step, rows } into one report per split', () => {
    const seed = freshSeed();
    console.log('run-files seed', seed);
    const rng = mulberry32(seed);
    const row = (split: SplitReport['split']): SplitReport => ({
      split,
      problems: 1 + Math.floor(rng() * 20),
      coderPass1: rng(),
      coderPass1Greedy: rng(),
      selectedPass1: rng(),
      testerValidity: rng(),
      mutationScore: rng(),
      passAtK: rng(),
      mutAtK: rng(),
      mul: rng(),
    });
    const lines = [
      { step: 0, rows: [row('heldout'), row('heldout-family')] },
      { step: 5, rows: [row('heldout')], seconds: 12.5 },
      // A record written since held-out means tasks never trained on names its splits so.
      { step: 10, rows: [{ ...row('heldout'), splitsByTask: true }] },
    ];
    const got = parseEvalJsonl(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(got).toHaveLength(4);
    // Older records' 'heldout' was the instance split, now 'renamed' (eval-splits.ts migrateSplit).
    expect(got.map((r) => [r.step, r.split])).toEqual([
      [0, 'renamed'],
      [0, 'heldout-family'],
      [5, 'renamed'],
      [10, 'heldout'],
    ]);
    expect(got[1].passAt1).toBe(lines[0].rows[1].coderPass1);
    expect(got[1].codetPassAt1).toBe(lines[0].rows[1].selectedPass1);
    expect(got[2].mutationScore).toBe(lines[1].rows[0].mutationScore);
    expect(got[2].seconds).toBe(12.5);
    expect(got[0].seconds).toBeUndefined();
  });
});
