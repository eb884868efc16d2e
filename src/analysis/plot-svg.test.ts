// lineChartSvg's confidence bands: one shaded polygon per banded series, its outline following hi then lo, and the
// axis widened to hold the band (a band outside the plot would hide the uncertainty it is there to show).
import { describe, expect, it } from 'vitest';
import { LEGEND_INSIDE, lineChartSvg, wrapWords } from './plot-svg';

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

describe('lineChartSvg titles', () => {
  const series = [{ name: 'a', x: [0, 1], y: [0, 1] }];
  const titles = (svg: string) => [...svg.matchAll(/<text [^>]*font-weight="bold">([^<]*)<\/text>/g)].map((m) => m[1]);

  it('wraps a title wider than the figure onto lines that fit it, keeping every word in order', () => {
    const long =
      'Tester validity (solid) and white-box mutation score (dashed), held-out (bands: 95% CI over problems)';
    const lines = titles(lineChartSvg(long, series, { width: 560 }));
    expect(lines.length).toBe(2);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(Math.floor((560 - 16) / 7.5));
    expect(lines.join(' ')).toBe(long);
    expect(titles(lineChartSvg('short', series))).toEqual(['short']);
  });

  it('packs words greedily and gives a too-long word its own line', () => {
    expect(wrapWords('aa bb cc', 5)).toEqual(['aa bb', 'cc']);
    expect(wrapWords('abcdefgh ij', 5)).toEqual(['abcdefgh', 'ij']);
    expect(wrapWords('  ', 5)).toEqual(['']);
  });

  it('draws a dashed series dashed in the legend too', () => {
    const svg = lineChartSvg('t', [
      { name: 'solid', x: [0, 1], y: [0, 1] },
      { name: 'dashed', x: [0, 1], y: [1, 0], dashed: true },
    ]);
    const swatches = [
      ...svg.matchAll(/<line x1="[^"]*" x2="[^"]*" y1="[^"]*" y2="[^"]*" stroke="[^"]*" stroke-width="3"([^/]*)\/>/g),
    ];
    expect(swatches.map((m) => m[1].includes('stroke-dasharray'))).toEqual([false, true]);
  });
});

describe('lineChartSvg legends', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `run ${i}`, x: [0, 1], y: [i, i + 1] }));
  const height = (svg: string) => Number(/<svg [^>]*height="([\d.]+)"/.exec(svg)![1]);
  const labelYs = (svg: string) =>
    [...svg.matchAll(/<text x="[\d.]+" y="([\d.]+)">run \d+<\/text>/g)].map((m) => Number(m[1]));

  it("keeps a short legend inside the plot, at the figure's height", () => {
    const svg = lineChartSvg('t', many(LEGEND_INSIDE), { height: 320 });
    expect(height(svg)).toBe(320);
    expect(Math.max(...labelYs(svg))).toBeLessThan(320 - 44);
  });

  it('puts a long legend below the x axis in two columns and grows the figure to hold every entry', () => {
    const n = LEGEND_INSIDE + 5;
    const svg = lineChartSvg('t', many(n), { height: 320 });
    const ys = labelYs(svg);
    expect(ys).toHaveLength(n);
    expect(Math.min(...ys)).toBeGreaterThan(320);
    expect(Math.max(...ys)).toBeLessThan(height(svg));
    expect(new Set(ys).size).toBe(Math.ceil(n / 2));
  });

  it('puts names too long for half the width in one column, each inside the figure', () => {
    const n = LEGEND_INSIDE + 3;
    const long = many(n).map((s) => ({ ...s, name: `${s.name} ${'tests-matter-public/golden (seeds 1, 2)'}` }));
    const svg = lineChartSvg('t', long, { width: 560, height: 320 });
    const xs = [...svg.matchAll(/<text x="([\d.]+)" y="[\d.]+">run \d+ tests/g)].map((m) => Number(m[1]));
    expect(xs).toHaveLength(n);
    expect(new Set(xs).size).toBe(1);
    expect(Math.max(...labelYs(svg.replace(/ tests-matter-public\/golden \(seeds 1, 2\)/g, '')))).toBeLessThan(
      height(svg),
    );
  });
});
