// Chart helpers: tick labels that tell ticks apart, TensorBoard's debiased EMA, the step ETA, and run labels / names.
import { describe, expect, it } from 'vitest';
import { freshSeed, mulberry32 } from '../../../testing/random';
import { smoothEma, tickLabels } from './series';
import { estimate } from '../run/eta';
import { bundleFileName, runLabel, shortNumber } from '../../config/run-label';

describe('chart helpers', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  console.log('charts seed', seed);

  it('tick labels are distinct at any scale, without "-0"', () => {
    for (let t = 0; t < 50; t++) {
      const scale = 10 ** Math.floor(rng() * 9 - 6);
      const step = scale * (1 + Math.floor(rng() * 5));
      const start = Math.floor(rng() * 10 - 5) * step;
      const splits = Array.from({ length: 5 }, (_, i) => start + i * step);
      const out = tickLabels(splits);
      expect(new Set(out).size, `seed ${seed}: ${splits.join(',')} → ${out.join(',')}`).toBe(out.length);
      expect(out.some((x) => x === '-0' || /^-0\.0*$/.test(x))).toBe(false);
    }
    expect(tickLabels([0, 0.001, 0.002, 0.003])).toEqual(['0.000', '0.001', '0.002', '0.003']);
  });

  it('EMA: weight 0 is the identity; a constant stays constant from the first point (debiased); gaps stay gaps', () => {
    const xs = Array.from({ length: 20 }, () => (rng() < 0.2 ? null : rng()));
    expect(smoothEma(xs, 0)).toEqual(xs);
    const c = 0.3 + rng();
    for (const v of smoothEma([c, c, null, c, c], 0.9)) if (v !== null) expect(v).toBeCloseTo(c, 12);
    expect(smoothEma([1, null, 3], 0.5)[1]).toBeNull();
    // Against the recurrence written out.
    const w = rng() * 0.95;
    const got = smoothEma(xs, w);
    let acc = 0;
    let n = 0;
    xs.forEach((x, i) => {
      if (x === null) return expect(got[i]).toBeNull();
      acc = w * acc + (1 - w) * x;
      n++;
      expect(got[i]).toBeCloseTo(acc / (1 - w ** n), 12);
    });
  });

  it('ETA from the median of the last three steps; none before a step has finished', () => {
    expect(estimate([], 1000, 6000)).toContain('5 s into the first step');
    expect(estimate([10, 50, 12, 14], 0, 4000)).toContain('about 10 s left');
    expect(estimate([10], 0, 30_000)).toContain('longer than the last steps');
  });

  it('labels and file names show what differs from the preset, and nothing that does not', () => {
    expect(shortNumber(0.002)).toBe('2e-3');
    expect(shortNumber(0.00035)).toBe('3.5e-4');
    expect(shortNumber(0.9)).toBe('0.9');
    const c = {
      preset: 'micro' as const,
      mode: 'code-a1' as const,
      seed: 4,
      overrides: { alpha: 0.9, lr: 0.002, M: 4 },
    };
    // M 4 is micro's own value: not a change.
    expect(runLabel(c)).toBe('code-a1 · micro · seed 4 · α 0.9 · coder lr 2e-3');
    expect(bundleFileName(c, 12, '.codea1')).toBe('code-a1-micro-seed4-alpha0.9-lr2e-3-step12.codea1');
  });
});
