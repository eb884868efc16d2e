// Minimal SVG line plots (no DOM needed): used for loss curves and the results figures, in Node and the browser.
export interface Series {
  name: string;
  x: number[];
  y: number[];
  color?: string;
  /** Optional confidence band (same length as x): drawn as a shaded area behind the line. */
  lo?: number[];
  hi?: number[];
  /** Dashed line (e.g. a training-batch rate beside a held-out one). */
  dashed?: boolean;
}

/** The most legend entries drawn inside the plot area (more go below it). */
export const LEGEND_INSIDE = 6;

// Ten colours (matplotlib's tab10, reordered) so that up to ten runs on one chart stay apart.
export const PALETTE = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#ff7f0e',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#bcbd22',
  '#7f7f7f',
];

export function niceTicks(lo: number, hi: number, n = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-12; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function lineChartSvg(
  title: string,
  series: Series[],
  opts: { xLabel?: string; yLabel?: string; width?: number; height?: number; logY?: boolean } = {},
): string {
  const W = opts.width ?? 560;
  const H = opts.height ?? 320;
  // A title wider than the figure is wrapped (13 px bold is ~7.5 px per character), the plot moved down to make room.
  const titleLines = wrapWords(title, Math.floor((W - 16) / 7.5));
  const m = { l: 56, r: 16, t: 32 + 16 * (titleLines.length - 1), b: 44 };
  // Up to LEGEND_INSIDE entries sit in the plot's top-left corner; more would run over the lines and out of the
  // plot, so they go below the x axis and the figure grows to hold them.
  // Two columns only when the longest name fits in one (11 px sans-serif is at most ~5.5 px per character, plus the
  // swatch): else one column, so no name runs out of the figure.
  const below = series.length > LEGEND_INSIDE;
  const colW = (W - m.l - m.r) / 2;
  const cols = below && 18 + 5.5 * Math.max(...series.map((s) => s.name.length)) > colW ? 1 : 2;
  const legendRows = below ? Math.ceil(series.length / cols) : 0;
  const fullH = H + (below ? legendRows * 15 + 8 : 0);
  const legendAt = (si: number): [number, number] =>
    below ? [m.l + (si % cols) * colW, H + Math.floor(si / cols) * 15] : [m.l + 8, m.t + si * 15];
  const tf = (v: number) => (opts.logY ? Math.log10(Math.max(v, 1e-12)) : v);
  const pts = series
    .flatMap((s) =>
      s.x.flatMap(
        (x, i) =>
          [
            [x, tf(s.y[i])],
            ...(s.lo && s.hi
              ? [
                  [x, tf(s.lo[i])],
                  [x, tf(s.hi[i])],
                ]
              : []),
          ] as const,
      ),
    )
    .filter(([, y]) => Number.isFinite(y));
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  let [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  if (!pts.length) [x0, x1, y0, y1] = [0, 1, 0, 1];
  if (x1 === x0) x1 = x0 + 1;
  if (y1 === y0) [y0, y1] = [y0 - 0.5, y1 + 0.5];
  const pad = (y1 - y0) * 0.05;
  y0 -= pad;
  y1 += pad;
  const sx = (x: number) => m.l + ((x - x0) / (x1 - x0)) * (W - m.l - m.r);
  const sy = (y: number) => H - m.b - ((y - y0) / (y1 - y0)) * (H - m.t - m.b);
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${fullH}" viewBox="0 0 ${W} ${fullH}" font-family="sans-serif" font-size="11">`,
  );
  parts.push(`<rect width="${W}" height="${fullH}" fill="white"/>`);
  titleLines.forEach((line, i) =>
    parts.push(
      `<text x="${W / 2}" y="${18 + 16 * i}" text-anchor="middle" font-size="13" font-weight="bold">${esc(line)}</text>`,
    ),
  );
  for (const t of niceTicks(y0, y1)) {
    const y = sy(t);
    const label = opts.logY ? `1e${t}` : Math.abs(t) >= 1000 ? t.toExponential(1) : String(Number(t.toPrecision(4)));
    parts.push(
      `<line x1="${m.l}" x2="${W - m.r}" y1="${y}" y2="${y}" stroke="#e5e5e5"/><text x="${m.l - 6}" y="${y + 4}" text-anchor="end">${label}</text>`,
    );
  }
  for (const t of niceTicks(x0, x1, 6)) {
    const x = sx(t);
    parts.push(
      `<line x1="${x}" x2="${x}" y1="${H - m.b}" y2="${H - m.b + 4}" stroke="#333"/><text x="${x}" y="${H - m.b + 16}" text-anchor="middle">${t}</text>`,
    );
  }
  parts.push(
    `<line x1="${m.l}" x2="${W - m.r}" y1="${H - m.b}" y2="${H - m.b}" stroke="#333"/><line x1="${m.l}" x2="${m.l}" y1="${m.t}" y2="${H - m.b}" stroke="#333"/>`,
  );
  if (opts.xLabel)
    parts.push(`<text x="${(m.l + W - m.r) / 2}" y="${H - 8}" text-anchor="middle">${esc(opts.xLabel)}</text>`);
  if (opts.yLabel)
    parts.push(
      `<text transform="translate(14 ${(m.t + H - m.b) / 2}) rotate(-90)" text-anchor="middle">${esc(opts.yLabel)}</text>`,
    );
  // Bands first, so every line stays visible on top of every band.
  series.forEach((s, si) => {
    if (!s.lo || !s.hi) return;
    const { lo, hi } = s;
    const idx = s.x.map((_, i) => i).filter((i) => Number.isFinite(tf(lo[i])) && Number.isFinite(tf(hi[i])));
    if (!idx.length) return;
    const up = idx.map((i) => `${sx(s.x[i]).toFixed(1)},${sy(tf(hi[i])).toFixed(1)}`);
    const down = [...idx].reverse().map((i) => `${sx(s.x[i]).toFixed(1)},${sy(tf(lo[i])).toFixed(1)}`);
    const color = s.color ?? PALETTE[si % PALETTE.length];
    parts.push(
      `<polygon class="ci-band" points="${[...up, ...down].join(' ')}" fill="${color}" fill-opacity="0.15" stroke="none"/>`,
    );
  });
  series.forEach((s, si) => {
    const color = s.color ?? PALETTE[si % PALETTE.length];
    const d = s.x
      .map((x, i) => [x, tf(s.y[i])] as const)
      .filter(([, y]) => Number.isFinite(y))
      .map(([x, y], i) => `${i ? 'L' : 'M'}${sx(x).toFixed(1)},${sy(y).toFixed(1)}`)
      .join('');
    parts.push(
      `<path d="${d}" fill="none" stroke="${color}" stroke-width="1.6"${s.dashed ? ' stroke-dasharray="5 3"' : ''}/>`,
    );
    const [lx, ly] = legendAt(si);
    parts.push(
      // The swatch is a short stroke in the line's own dash pattern, so dashed series read as dashed in the legend.
      `<line x1="${lx}" x2="${lx + 14}" y1="${ly + 7.5}" y2="${ly + 7.5}" stroke="${color}" stroke-width="3"${s.dashed ? ' stroke-dasharray="4 2"' : ''}/><text x="${lx + 18}" y="${ly + 11}">${esc(s.name)}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('\n');
}

/** A one-line terminal sparkline of a series (for progress output). */
export function sparkline(ys: number[], width = 40): string {
  if (!ys.length) return '';
  const blocks = '▁▂▃▄▅▆▇█';
  const step = Math.max(1, Math.ceil(ys.length / width));
  const pts: number[] = [];
  for (let i = 0; i < ys.length; i += step)
    pts.push(ys.slice(i, i + step).reduce((a, b) => a + b, 0) / Math.min(step, ys.length - i));
  const lo = Math.min(...pts);
  const hi = Math.max(...pts);
  return pts.map((v) => blocks[hi > lo ? Math.round(((v - lo) / (hi - lo)) * 7) : 0]).join('');
}

/** Words packed greedily into lines of at most `max` characters (a longer word gets a line of its own). */
export function wrapWords(text: string, max: number): string[] {
  const lines: string[] = [];
  for (const w of text.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + w.length <= max) lines[lines.length - 1] = `${last} ${w}`;
    else lines.push(w);
  }
  return lines.length ? lines : [''];
}
