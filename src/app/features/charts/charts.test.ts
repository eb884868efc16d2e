// Chart helpers: tick labels that tell ticks apart, TensorBoard's debiased EMA, the step ETA, and run labels / names.
import { describe, expect, it } from 'vitest';
import { freshSeed, mulberry32 } from '../../../testing/random';
import { niceStep, niceTicks, smoothEma, tickLabels } from './series';
import { estimate } from '../run/eta';
import { bundleFileName, runLabel, shortNumber } from '../../config/run-label';

describe('chart helpers', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  console.log('charts seed', seed);

  it('ticks are nice numbers (1/2/5 × 10^k apart) and every label reads back as its tick, over random ranges', () => {
    const isNice = (step: number) => {
      const k = Math.floor(Math.log10(step) + 1e-9);
      const m = step / 10 ** k;
      return [1, 2, 5].some((x) => Math.abs(m - x) < 1e-9);
    };
    for (let t = 0; t < 2000; t++) {
      const scale = 10 ** (rng() * 18 - 9);
      const min = (rng() * 2 - 1) * scale * (rng() < 0.3 ? 0 : 3);
      const max = min + scale * (0.05 + rng() * 4);
      const wanted = 2 + Math.floor(rng() * 9);
      const ticks = niceTicks(min, max, niceStep((max - min) / wanted));
      const step = ticks[1] - ticks[0];
      const labels = tickLabels(ticks);
      const why = `seed ${seed}: [${min}, ${max}] step ${step} → ${labels.join(', ')}`;
      expect(ticks.length, why).toBeGreaterThanOrEqual(2);
      expect(ticks.length, why).toBeLessThanOrEqual(Math.max(wanted + 1, 5));
      expect(isNice(step), why).toBe(true);
      ticks.forEach((x, i) => {
        expect(Number(labels[i]), why).toBe(x);
        expect(Math.abs(x / step - Math.round(x / step)), why).toBeLessThan(1e-6);
        expect(x, why).toBeGreaterThanOrEqual(min - step * 1e-6);
        expect(x, why).toBeLessThanOrEqual(max + step * 1e-6);
        if (i) expect(Math.abs(x - ticks[i - 1] - step) / step, why).toBeLessThan(1e-6);
      });
      expect(new Set(labels).size, why).toBe(labels.length);
      expect(
        labels.some((x) => /^-0(\.0*)?$/.test(x)),
        why,
      ).toBe(false);
    }
  });

  it("labels of any ticks (a log axis, uneven ones) are exact and distinct; the issue's examples", () => {
    for (let t = 0; t < 500; t++) {
      const scale = 10 ** Math.floor(rng() * 12 - 6);
      const ticks = Array.from({ length: 2 + Math.floor(rng() * 6) }, (_, i) =>
        Number(((i + 1) * scale * (1 + Math.floor(rng() * 9))).toPrecision(3)),
      );
      const uniq = [...new Set(ticks)];
      const labels = tickLabels(uniq);
      uniq.forEach((x, i) => expect(Number(labels[i]), `seed ${seed}: ${uniq.join(',')}`).toBe(x));
      expect(new Set(labels).size).toBe(labels.length);
    }
    expect(tickLabels([0.4, 0.5])).toEqual(['0.4', '0.5']);
    expect(tickLabels([0.25, 0.5, 0.75])).toEqual(['0.25', '0.50', '0.75']);
    expect(tickLabels([2.5, 5])).toEqual(['2.5', '5.0']);
    expect(tickLabels([0, 0.001, 0.002, 0.003])).toEqual(['0.000', '0.001', '0.002', '0.003']);
    expect(tickLabels([0.1 + 0.2])).toEqual(['0.3']);
    expect(niceTicks(0, 0.566, niceStep(0.1))).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5]);
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
