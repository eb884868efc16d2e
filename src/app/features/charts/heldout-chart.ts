// The held-out pass@1 chart: each run's evaluations over steps, with its 95% bootstrap interval drawn as a band
// where the eval records carry one (eval-ci.ts), so two runs' curves are read with their uncertainty.
import type uPlot from 'uplot';
import type { EvalReport, LabState } from '../../store/types';
import type { ChartSpec, LegendEntry } from './UPlotChart';
import { runColor } from './run-color';
import { MARKER_GLYPH, markerPaths, runMarker } from './markers';

/**
 * Held-out evaluations of a run: the live run's are in the store, the others travel with the series. Runs evaluated
 * before held-out meant tasks never trained on have only the renamed split; theirs are drawn and labelled so.
 */
function heldOutOf(s: LabState, id: string): EvalReport[] {
  if (id !== s.runId) return s.series.find((r) => r.id === id)?.heldOutEvals ?? [];
  const held = s.evals.filter((e) => e.split === 'heldout');
  return held.length ? held : s.evals.filter((e) => e.split === 'renamed');
}

/** A colour with alpha, for the band under a run's line. */
function translucent(hex: string, alpha: number): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

export const HELD_OUT_CHART: ChartSpec = {
  id: 'held-out',
  title: 'Held-out coder pass@1 (95% CI band where recorded)',
  yLabel: 'pass@1',
  deps: (s) => [s.series, s.hidden, s.evals, s.runId, s.presenter],
  build: (s) => {
    const runs = s.series.filter((r) => !s.hidden.includes(r.id));
    const per = runs.map((r) => heldOutOf(s, r.id));
    const xs = [...new Set(per.flat().map((e) => e.step))].sort((a, b) => a - b);
    const at = new Map(xs.map((x, i) => [x, i]));
    const data: (number | null)[][] = [xs];
    const series: uPlot.Series[] = [];
    const bands: uPlot.Band[] = [];
    const legend: LegendEntry[] = [];
    runs.forEach((r, ri) => {
      const evals = per[ri];
      if (!evals.length) return;
      const n = s.series.indexOf(r);
      const color = runColor(s, r.id);
      const col = (f: (e: EvalReport) => number | undefined) => {
        const c = new Array<number | null>(xs.length).fill(null);
        for (const e of evals) c[at.get(e.step)!] = f(e) ?? null;
        return c;
      };
      data.push(col((e) => e.passAt1));
      const lineIdx = data.length - 1;
      series.push({
        label: `pass@1 #${n + 1}`,
        stroke: color,
        width: 2,
        points: { show: true, size: 8, fill: color, stroke: color, paths: markerPaths(runMarker(n), 8) },
      });
      if (evals.some((e) => e.passAt1CI)) {
        data.push(
          col((e) => e.passAt1CI?.[1]),
          col((e) => e.passAt1CI?.[0]),
        );
        series.push(
          { label: `CI high #${n + 1}`, stroke: 'transparent', points: { show: false } },
          { label: `CI low #${n + 1}`, stroke: 'transparent', points: { show: false } },
        );
        bands.push({ series: [lineIdx + 1, lineIdx + 2], fill: translucent(color, 0.18) });
      }
      const last = evals.at(-1)!;
      legend.push({
        color,
        glyph: MARKER_GLYPH[runMarker(n)],
        label: `#${n + 1} ${r.mode}${last.split === 'renamed' ? ' (renamed split)' : ''}`,
        value: `${(100 * last.passAt1).toFixed(1)}%${last.passAt1CI ? ` [${(100 * last.passAt1CI[0]).toFixed(0)}–${(100 * last.passAt1CI[1]).toFixed(0)}]` : ''}`,
        title: `${r.label}: ${last.split === 'renamed' ? 'renamed-split' : 'held-out'} pass@1 at step ${last.step}`,
      });
    });
    return { data, series, legend, bands };
  },
};
