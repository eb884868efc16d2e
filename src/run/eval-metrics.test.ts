// Evaluation maths on hand-computed cases: pass@k estimator, UnLeakedTestBench pass@k / mut@k / Mul, white-box
// mutation score, CodeT selection.
import { describe, expect, it } from 'vitest';
import { codetSelect, mul, mutAtK, passAtKEstimate, testPassAtK, whiteBoxMutationScore } from './eval-metrics';

describe('eval metrics', () => {
  it('pass@k estimator = 1 − C(n−c, k) / C(n, k)', () => {
    expect(passAtKEstimate(10, 3, 1)).toBeCloseTo(0.3, 12);
    // n = 5, c = 2, k = 2: 1 − C(3,2)/C(5,2) = 1 − 3/10
    expect(passAtKEstimate(5, 2, 2)).toBeCloseTo(0.7, 12);
    // n = 4, c = 1, k = 3: 1 − C(3,3)/C(4,3) = 1 − 1/4
    expect(passAtKEstimate(4, 1, 3)).toBeCloseTo(0.75, 12);
    expect(passAtKEstimate(4, 2, 3)).toBe(1); // fewer than k wrong samples: some correct one is always drawn
    expect(passAtKEstimate(6, 0, 2)).toBe(0);
    expect(() => passAtKEstimate(3, 4, 1)).toThrow(/0 <= c <= n/);
    expect(() => passAtKEstimate(3, 1, 4)).toThrow(/1 <= k <= n/);
  });

  it('pass@k, mut@k and Mul as UnLeakedTestBench defines them', () => {
    // 12 tests written for the reference, 9 correct on it: pass@k 75%.
    expect(testPassAtK(9, 12)).toBe(75);
    expect(testPassAtK(0, 0)).toBe(0);
    // 5 mutants, 2 killed by those tests: mut@k 40%.
    expect(mutAtK([true, false, false, true, false])).toBe(40);
    expect(mutAtK([])).toBe(0);
    // Mul = 75 × 40 / 100 = 30.
    expect(mul(75, 40)).toBe(30);
  });

  it('white-box mutation score is a fraction of killed mutants', () => {
    expect(whiteBoxMutationScore([true, true, false, false])).toBe(0.5);
    expect(whiteBoxMutationScore([])).toBe(0);
  });

  it('CodeT selects the largest (tests passed) × (agreeing candidates)', () => {
    // '110' × 2 agreeing = 4 beats '111' × 1 = 3 and '100' × 1 = 1.
    expect(codetSelect(['111', '110', '100', '110'])).toBe(1);
    // '111' × 2 = 6 wins once two candidates agree on it.
    expect(codetSelect(['110', '111', '110', '111'])).toBe(1);
    // No tests: all scores 0, the first is kept.
    expect(codetSelect(['', '', ''])).toBe(0);
  });
});
