// summarize and bootstrapCI on hand-computed records: metrics pool counts as eval-metrics defines them, and the
// bootstrap interval contains the estimate, narrows with more problems and collapses when every problem agrees.
import { describe, expect, it } from 'vitest';
import { bootstrapCI, problemRecord, summarize, type ProblemEval } from './eval-ci';
import { Rng } from '../rl/rng';

const rec = (o: Partial<ProblemEval>): ProblemEval => ({ ...problemRecord('p', 8, 0, false), ...o });

describe('summarize', () => {
  it('averages per-problem pass@1 and pools the Tester counts', () => {
    const s = summarize([
      rec({
        passed: 2,
        greedy: true,
        selected: true,
        refLines: 8,
        refCorrect: 6,
        mutants: 3,
        mutKilledByRef: 1,
        mutKilledWhiteBox: 2,
        lines: 11,
        correct: 7,
      }),
      rec({
        passed: 8,
        greedy: false,
        selected: false,
        refLines: 4,
        refCorrect: 0,
        mutants: 1,
        mutKilledByRef: 1,
        mutKilledWhiteBox: 0,
        lines: 5,
        correct: 1,
      }),
    ]);
    expect(s.coderPass1).toBeCloseTo((2 / 8 + 1) / 2, 12);
    expect(s.coderPass1Greedy).toBe(0.5);
    expect(s.selectedPass1).toBe(0.5);
    expect(s.passAtK).toBe(50); // 6 of 12 reference tests correct
    expect(s.mutAtK).toBe(50); // 2 of 4 mutants killed by the reference's tests
    expect(s.mul).toBe(25);
    expect(s.mutationScore).toBe(0.5); // 2 of 4 white-box
    expect(s.testerValidity).toBe(0.5); // 8 of 16 lines
  });

  it('gives zeros, not NaN, for an empty split and no selection', () => {
    const s = summarize([]);
    expect(Object.values(s).every((v) => v === 0)).toBe(true);
    expect(summarize([rec({ passed: 1 })]).selectedPass1).toBe(0);
  });
});

describe('bootstrapCI', () => {
  const draw = (P: number, seed: number) => {
    const rng = new Rng(seed);
    return Array.from({ length: P }, (_, i) =>
      rec({
        id: `p${i}`,
        passed: rng.int(9),
        greedy: rng.next() < 0.3,
        mutants: 3,
        mutKilledWhiteBox: rng.int(4),
        lines: 4,
        correct: rng.int(5),
      }),
    );
  };

  it('contains the point estimate and narrows as problems are added', () => {
    const small = draw(20, 1);
    const big = draw(320, 1);
    for (const xs of [small, big]) {
      const s = summarize(xs);
      const ci = bootstrapCI(xs);
      for (const m of ['coderPass1', 'coderPass1Greedy', 'mutationScore', 'testerValidity'] as const) {
        expect(ci[m][0]).toBeLessThanOrEqual(s[m]);
        expect(ci[m][1]).toBeGreaterThanOrEqual(s[m]);
      }
    }
    const width = (xs: ProblemEval[]) => bootstrapCI(xs).coderPass1[1] - bootstrapCI(xs).coderPass1[0];
    expect(width(small)).toBeGreaterThan(0);
    // Width ~ 1/sqrt(P): 16× the problems, about a quarter of the width.
    expect(width(big)).toBeLessThan(width(small) / 2.5);
  });

  it('collapses to a point when every problem has the same result, and is stable for a seed', () => {
    const same = Array.from({ length: 10 }, () => rec({ passed: 4 }));
    const [lo, hi] = bootstrapCI(same).coderPass1;
    expect(lo).toBeCloseTo(0.5, 12);
    expect(hi).toBeCloseTo(0.5, 12);
    const xs = draw(30, 2);
    expect(bootstrapCI(xs, { seed: 5 })).toEqual(bootstrapCI(xs, { seed: 5 }));
  });

  it('the percentile interval matches the binomial normal approximation for pass/fail problems', () => {
    // 100 problems, 30 pass greedy: SE = sqrt(0.3 × 0.7 / 100) ≈ 0.0458, 95% ≈ ±0.09.
    const xs = Array.from({ length: 100 }, (_, i) => rec({ greedy: i < 30 }));
    const [lo, hi] = bootstrapCI(xs, { reps: 4000 }).coderPass1Greedy;
    expect(lo).toBeGreaterThan(0.3 - 0.09 - 0.025);
    expect(lo).toBeLessThan(0.3 - 0.09 + 0.025);
    expect(hi).toBeGreaterThan(0.3 + 0.09 - 0.025);
    expect(hi).toBeLessThan(0.3 + 0.09 + 0.025);
  });
});
