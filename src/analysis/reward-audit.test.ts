// The reward audit on hand-built rollouts: false positives, under-rewarded correct candidates and the correlation
// come out as counted, and a reward that ignores correctness shows up as such.
import { describe, expect, it } from 'vitest';
import type { RolloutRecord } from '../rl/records';
import { auditRow, rewardAudit } from './reward-audit';

/** One problem's rollout record with candidates of the given (reward, hidden pass rate) pairs. */
function step(pairs: [reward: number, hidden: number][]): RolloutRecord[] {
  return [
    {
      step: 0,
      mode: 'code-a1',
      problemId: 'p/0000',
      prompt: '',
      entryPoint: 'f',
      replays: [],
      candidates: pairs.map(([reward, hiddenPassRate]) => ({
        code: '',
        compiles: true,
        reward,
        advantage: 0,
        testerRollouts: [],
        hiddenPassRate,
      })),
    },
  ];
}

describe('rewardAudit', () => {
  it('counts wrong candidates rewarded 1 and right ones rewarded less, over every step', () => {
    const a = rewardAudit([
      step([
        [1, 1],
        [1, 0.5],
        [0.5, 1],
      ]),
      step([
        [0, 0],
        [1, 1],
      ]),
    ]);
    expect(a.candidates).toBe(5);
    expect(a.rewardedFull).toBeCloseTo(3 / 5);
    expect(a.falsePositive).toBeCloseTo(1 / 3);
    expect(a.correct).toBeCloseTo(3 / 5);
    expect(a.underRewarded).toBeCloseTo(1 / 3);
    expect(a.correlation).toBeGreaterThan(0);
    expect(a.correlation).toBeLessThan(1);
  });

  it('gives correlation 1 for a reward equal to the hidden pass rate and −1 for its opposite', () => {
    const same = rewardAudit([step([0, 0.25, 1].map((h) => [h, h]))]);
    expect(same.correlation).toBeCloseTo(1);
    expect(same.falsePositive).toBe(0);
    const opposite = rewardAudit([step([0, 0.25, 1].map((h) => [1 - h, h]))]);
    expect(opposite.correlation).toBeCloseTo(-1);
    expect(opposite.falsePositive).toBe(1); // the one rewarded 1 passes no hidden test
  });

  it('orders pairs only within a problem group, as GRPO compares them', () => {
    // Across the two groups the reward would order (0.9 vs 0.1) against hidden (0 vs 1); within each it is right.
    const a = rewardAudit([
      [
        ...step([
          [0.9, 0],
          [0.2, 0],
        ]),
        ...step([
          [0.1, 1],
          [0, 0.5],
          [0, 0],
        ]),
      ],
    ]);
    expect(a.pairs.n).toBe(3); // the second group's three pairs; the first group's hidden rates are equal
    expect(a.pairs.right).toBeCloseTo(2 / 3);
    expect(a.pairs.tied).toBeCloseTo(1 / 3);
    expect(a.pairs.wrong).toBe(0);
  });

  it('reports the correct share in the first and last fifth of the steps', () => {
    const steps = [0, 0, 0.5, 1, 1, 1, 1, 1, 1, 1].map((h) => step([[h, h]]));
    const a = rewardAudit(steps);
    expect(a.correctEarly).toBe(0); // steps 0 and 1
    expect(a.correctLate).toBe(1); // steps 8 and 9
  });

  it('prints one row in percent', () => {
    const row = auditRow(
      'r',
      rewardAudit([
        step([
          [1, 1],
          [1, 0],
          [0, 0],
          [0, 1],
        ]),
      ]),
    );
    expect(row).toBe('| r | 4 | 50.0 | 50.0 | 50.0 | 50.0 | 0.00 | 25.0 / 50.0 / 25.0 (4) | 50.0 → 50.0 |');
  });
});
