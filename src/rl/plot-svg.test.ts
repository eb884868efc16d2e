// lineChartSvg's confidence bands: one shaded polygon per banded series, its outline following hi then lo, and the
// axis widened to hold the band (a band outside the plot would hide the uncertainty it is there to show).
import { describe, expect, it } from 'vitest';
import { lineChartSvg } from './plot-svg';

const polygons = (svg: string) =>
  [...svg.matchAll(/<polygon class="ci-band" points="([^"]+)"/g)].map((m) =>
    m[1].split(' ').map((p) => p.split(',').map(Number)),
  );

describe('lineChartSvg bands', () => {
  it('draws a band per series that has one, with 2 points per x', () => {
    const svg = lineChartSvg('t', [
      { name: 'a', x: [0, 10, 20], y: [20, 25, 30], lo: [10, 15, 22], hi: [30, 35, 38] },
      { name: 'b', x: [0, 10, 20], y: [20, 18, 15] },
    ]);
    const bands = polygons(svg);
    expect(bands).toHaveLength(1);
    expect(bands[0]).toHaveLength(6);
    // SVG y grows downwards: the hi edge (first half) lies above the lo edge (second half, reversed) at each x.
    const [up, down] = [bands[0].slice(0, 3), bands[0].slice(3).reverse()];
    up.forEach((p, i) => {
      expect(p[0]).toBe(down[i][0]);
      expect(p[1]).toBeLessThan(down[i][1]);
    });
  });

  it('widens the y axis to hold the band', () => {
    const narrow = lineChartSvg('t', [{ name: 'a', x: [0, 1], y: [50, 50] }]);
    const wide = lineChartSvg('t', [{ name: 'a', x: [0, 1], y: [50, 50], lo: [0, 0], hi: [100, 100] }]);
    const labels = (svg: string) => [...svg.matchAll(/text-anchor="end">([-\d.]+)</g)].map((m) => Number(m[1]));
    expect(Math.max(...labels(narrow))).toBeLessThan(60);
    expect(Math.max(...labels(wide))).toBeGreaterThanOrEqual(100);
    expect(Math.min(...labels(wide))).toBeLessThanOrEqual(0);
  });

  it('draws dashed series dashed', () => {
    expect(lineChartSvg('t', [{ name: 'a', x: [0, 1], y: [1, 2], dashed: true }])).toContain('stroke-dasharray');
    expect(lineChartSvg('t', [{ name: 'a', x: [0, 1], y: [1, 2] }])).not.toContain('stroke-dasharray');
  });
});
