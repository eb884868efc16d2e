// The regression comparator: passes within tolerance, reports each out-of-tolerance key, ignores timing.
import { describe, expect, it } from 'vitest';
import { freshSeed } from '../../testing/random';
import { sampleMetrics } from './sample-run';
import { compareMetrics, maxMetricDiff } from './compare-metrics';

describe('compareMetrics', () => {
  const seed = freshSeed();
  console.log('compare seed', seed);
  it('accepts identical runs and timing differences; flags value, mode and missing-step differences', () => {
    const a = sampleMetrics(seed, 4);
    expect(compareMetrics(a, structuredClone(a), { abs: 0, rel: 0 })).toEqual([]);
    const b = structuredClone(a);
    b[1]['time/step_s'] += 100;
    b[1]['perf/tokens_per_s'] *= 3;
    b[1].time += 5;
    expect(compareMetrics(a, b, { abs: 0, rel: 0 })).toEqual([]);
    b[2]['coder/loss'] += 1e-4;
    expect(compareMetrics(a, b, { abs: 1e-3, rel: 0 })).toEqual([]);
    expect(maxMetricDiff(a, b).key).toBe('coder/loss');
    expect(maxMetricDiff(a, b).diff).toBeCloseTo(1e-4, 12);
    expect(compareMetrics(a, b, { abs: 1e-6, rel: 0 })).toEqual([
      { step: 2, key: 'coder/loss', expected: a[2]['coder/loss'], actual: b[2]['coder/loss'] },
    ]);
    b[0].mode = 'golden';
    expect(compareMetrics(a, b, { abs: 1, rel: 1 }).map((m) => m.key)).toEqual(['mode']);
    expect(compareMetrics(a, b.slice(0, 3), { abs: 1, rel: 1 }).map((m) => `${m.step}${m.key}`)).toEqual([
      '0mode',
      '3(step)',
    ]);
  });
});
