// A dot-and-whisker SVG chart (one row per estimate with its 95% interval, a line at zero): the figure for one
// evaluation per run, such as the neighbouring methods' paired changes, where a line over steps would have one point.
import { esc, niceTicks, PALETTE } from './plot-svg';

export interface IntervalRow {
  label: string;
  value: number;
  lo: number;
  hi: number;
  /** Rows of one group (e.g. a mode) share a colour; groups take PALETTE's colours in order of first appearance. */
  group?: string;
}

export function intervalChartSvg(
  title: string,
  rows: readonly IntervalRow[],
  opts: { xLabel?: string; width?: number } = {},
): string {
  const W = opts.width ?? 560;
  const rowH = 20;
  const m = { l: 16 + 6.2 * Math.max(8, ...rows.map((r) => r.label.length)), r: 24, t: 34, b: 44 };
  const H = m.t + m.b + rowH * Math.max(1, rows.length);
  // Zero is always on the axis: the reader judges each interval against it.
  const xs = [0, ...rows.flatMap((r) => [r.lo, r.hi, r.value])].filter(Number.isFinite);
  let [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  if (x1 === x0) [x0, x1] = [x0 - 1, x1 + 1];
  const pad = (x1 - x0) * 0.05;
  [x0, x1] = [x0 - pad, x1 + pad];
  const sx = (x: number) => m.l + ((x - x0) / (x1 - x0)) * (W - m.l - m.r);
  const yOf = (i: number) => m.t + rowH * (i + 0.5);
  const groups = [...new Set(rows.map((r) => r.group ?? r.label))];
  const colour = (r: IntervalRow) => PALETTE[groups.indexOf(r.group ?? r.label) % PALETTE.length];
  const f = (x: number) => x.toFixed(1);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="18" text-anchor="middle" font-size="13" font-weight="bold">${esc(title)}</text>`,
  ];
  for (const t of niceTicks(x0, x1, 6)) {
    const x = f(sx(t));
    parts.push(
      `<line x1="${x}" x2="${x}" y1="${m.t}" y2="${H - m.b}" stroke="#e5e5e5"/><text x="${x}" y="${H - m.b + 16}" text-anchor="middle">${t}</text>`,
    );
  }
  parts.push(
    `<line class="zero" x1="${f(sx(0))}" x2="${f(sx(0))}" y1="${m.t}" y2="${H - m.b}" stroke="#333" stroke-dasharray="3 3"/>`,
    `<line x1="${m.l}" x2="${W - m.r}" y1="${H - m.b}" y2="${H - m.b}" stroke="#333"/>`,
  );
  if (opts.xLabel)
    parts.push(`<text x="${(m.l + W - m.r) / 2}" y="${H - 10}" text-anchor="middle">${esc(opts.xLabel)}</text>`);
  rows.forEach((r, i) => {
    const y = f(yOf(i));
    const c = colour(r);
    parts.push(
      `<text x="${m.l - 8}" y="${f(yOf(i) + 4)}" text-anchor="end">${esc(r.label)}</text>`,
      `<line class="ci" x1="${f(sx(r.lo))}" x2="${f(sx(r.hi))}" y1="${y}" y2="${y}" stroke="${c}" stroke-width="2"/>`,
      `<circle class="estimate" cx="${f(sx(r.value))}" cy="${y}" r="4" fill="${c}"/>`,
    );
  });
  parts.push('</svg>');
  return parts.join('\n');
}
