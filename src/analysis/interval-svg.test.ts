// The dot-and-whisker chart, read back: on random rows, each estimate and interval end drawn at the x its number has
// on the chart's own labelled axis (recovered from two tick labels), zero on the axis, labels escaped.
import { describe, expect, it } from 'vitest';
import { intervalChartSvg, type IntervalRow } from './interval-svg';

/** A small deterministic generator, so a failure names its case. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const nums = (svg: string, re: RegExp) => [...svg.matchAll(re)].map((m) => m.slice(1).map(Number));

/** The axis as drawn: tick label values against their x positions, as a value-from-x function. */
function axisOf(svg: string): (x: number) => number {
  const ticks = [...svg.matchAll(/<text x="([-\d.]+)" y="[-\d.]+" text-anchor="middle">(-?[\d.]+)<\/text>/g)].map(
    (m) => [Number(m[1]), Number(m[2])] as const,
  );
  expect(ticks.length).toBeGreaterThanOrEqual(2);
  const [[xa, va], [xb, vb]] = [ticks[0], ticks[ticks.length - 1]];
  return (x) => va + ((x - xa) / (xb - xa)) * (vb - va);
}

describe('intervalChartSvg', () => {
  it('draws every estimate and interval where the axis says its numbers are', () => {
    for (let c = 0; c < 50; c++) {
      const r = rng(c + 1);
      const rows: IntervalRow[] = Array.from({ length: 1 + Math.floor(r() * 12) }, (_, i) => {
        const value = (r() - 0.5) * 40;
        return { label: `run-${i}`, value, lo: value - r() * 10, hi: value + r() * 10, group: `m${i % 3}` };
      });
      const svg = intervalChartSvg('t', rows);
      const valueAt = axisOf(svg);
      const dots = nums(svg, /<circle class="estimate" cx="([-\d.]+)" cy="([-\d.]+)"/g);
      const whiskers = nums(svg, /<line class="ci" x1="([-\d.]+)" x2="([-\d.]+)" y1="([-\d.]+)"/g);
      expect(dots, `case ${c}`).toHaveLength(rows.length);
      const tol = 0.02 * (Math.max(...rows.map((x) => x.hi), 0) - Math.min(...rows.map((x) => x.lo), 0));
      rows.forEach((row, i) => {
        expect(Math.abs(valueAt(dots[i][0]) - row.value), `case ${c} row ${i} estimate`).toBeLessThan(tol);
        expect(Math.abs(valueAt(whiskers[i][0]) - row.lo), `case ${c} row ${i} lo`).toBeLessThan(tol);
        expect(Math.abs(valueAt(whiskers[i][1]) - row.hi), `case ${c} row ${i} hi`).toBeLessThan(tol);
        // Rows top to bottom in the order given, each whisker on its dot's row.
        expect(whiskers[i][2]).toBe(dots[i][1]);
        if (i) expect(dots[i][1]).toBeGreaterThan(dots[i - 1][1]);
      });
      const zero = nums(svg, /<line class="zero" x1="([-\d.]+)"/g)[0][0];
      expect(Math.abs(valueAt(zero)), `case ${c} zero line`).toBeLessThan(tol);
    }
  });

  it('keeps zero on the axis when every interval is on one side, and escapes labels', () => {
    const svg = intervalChartSvg('a < b', [{ label: 'x<y&z', value: 12, lo: 10, hi: 14 }]);
    const zero = nums(svg, /<line class="zero" x1="([-\d.]+)"/g)[0][0];
    expect(Math.abs(axisOf(svg)(zero))).toBeLessThan(0.5);
    // On the drawn axis, not extrapolated off it: 0 is one of the tick labels, and the line sits inside the figure.
    expect(svg).toMatch(/text-anchor="middle">0<\/text>/);
    const width = Number(/width="(\d+)"/.exec(svg)![1]);
    expect(zero).toBeGreaterThan(0);
    expect(zero).toBeLessThan(width);
    expect(svg).toContain('x&lt;y&amp;z');
    expect(svg).not.toContain('x<y');
  });
});
