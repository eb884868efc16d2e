// Group-relative advantages for each scale_rewards mode, NaN handling and the max-variance tester selection.
import { describe, expect, it } from 'vitest';
import { groupAdvantages, maxVarianceGroup } from './grpo';

describe('grpo advantages', () => {
  it('group scaling centres and divides by the group std', () => {
    const { advantages, fracZeroStd } = groupAdvantages(
      [
        [1, 0, 1, 0],
        [0.5, 0.5, 0.5, 0.5],
      ],
      'group',
    );
    const std = Math.sqrt((4 * 0.25) / 3);
    expect(advantages[0][0]).toBeCloseTo(0.5 / (std + 1e-6), 6);
    expect(advantages[0][1]).toBeCloseTo(-0.5 / (std + 1e-6), 6);
    expect(advantages[1]).toEqual([0, 0, 0, 0]);
    expect(fracZeroStd).toBe(0.5);
  });

  it('none only centres; batch uses the batch std', () => {
    const r = [
      [1, 0],
      [0.2, 0.4],
    ];
    expect(groupAdvantages(r, 'none').advantages).toEqual(
      [
        [0.5, -0.5],
        [-0.1 + 0, 0.1],
      ].map((g) => g.map((x) => expect.closeTo(x, 12))),
    );
    const b = groupAdvantages(r, 'batch');
    const all = [1, 0, 0.2, 0.4];
    const m = all.reduce((a, c) => a + c) / 4;
    const s = Math.sqrt(all.reduce((a, c) => a + (c - m) ** 2, 0) / 3);
    expect(b.advantages[0][0]).toBeCloseTo(0.5 / (s + 1e-6), 6);
    expect(b.std).toBeCloseTo(s, 12);
  });

  it('NaN rewards get zero advantage and do not move the mean', () => {
    const { advantages } = groupAdvantages([[1, NaN, 0]], 'none');
    expect(advantages[0]).toEqual([0.5, 0, -0.5]);
  });

  it('a group of one keeps its reward as advantage (verl: mean 0, std 1)', () => {
    expect(groupAdvantages([[0.7], [1, 0]], 'group').advantages[0][0]).toBeCloseTo(0.7 / (1 + 1e-6), 12);
    expect(groupAdvantages([[0.7]], 'none').advantages[0]).toEqual([0.7]);
  });

  it('selects the group with the largest reward variance', () => {
    expect(
      maxVarianceGroup([
        [0.5, 0.5],
        [0, 1],
        [0.2, 0.4],
      ]),
    ).toBe(1);
  });
});
