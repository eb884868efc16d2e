// A uPlot chart fed by a store subscription: new steps update the canvas directly, without React re-renders.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { labStore } from '../../store';
import type { LabState } from '../../store/types';
import { NICE_INCRS, niceTicks, tickLabels } from './series';

/** Steps are integers: no 0.5 ticks. */
const STEP_INCRS = NICE_INCRS.filter((x) => x >= 1);

/** One run in a chart's always-visible legend: its colour and marker, a short name and its last value. */
export interface LegendEntry {
  color: string;
  glyph: string;
  label: string;
  value: string;
  title: string;
  /** The run has none of this chart's metrics (its mode lacks them). */
  absent?: boolean;
}

export interface ChartSpec {
  id: string;
  title: string;
  /** Builds [x, ...columns] and the matching series from the store; called on every relevant store change. */
  build(s: LabState): {
    data: (number | null)[][];
    series: uPlot.Series[];
    legend?: LegendEntry[];
    /** Shaded bands between pairs of series (confidence intervals). */
    bands?: uPlot.Band[];
  };
  /** Which line style is which metric (with several runs the colours are the runs', see the runs table). */
  key?: string[];
  /** Store fields whose change triggers a rebuild (compared by reference). */
  deps(s: LabState): unknown[];
  /** What the y axis measures (drawn beside it). */
  yLabel: string;
  /** Log-scaled y axis (values ≤ 0 are left out). */
  log?(s: LabState): boolean;
  height?: number;
}

export function UPlotChart({ spec }: { spec: ChartSpec }) {
  const host = useRef<HTMLDivElement>(null);
  const legendRef = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const el = host.current!;
    let plot: uPlot | null = null;
    let shape = '';
    const render = (s: LabState) => {
      const { data, series, legend, bands } = spec.build(s);
      el.dataset.bands = String(bands?.length ?? 0);
      if (legendRef.current) drawLegend(legendRef.current, legend ?? []);
      const log = spec.log?.(s) ?? false;
      // A projector needs larger axis text (≥ 16 px) and taller plots on a tall screen.
      const presenter = s.presenter;
      const axisFont = presenter ? '16px system-ui, sans-serif' : '12px system-ui, sans-serif';
      el.dataset.axisFont = axisFont;
      const key =
        series.map((x) => `${String(x.label)}:${String(x.stroke)}`).join('|') +
        (log ? '|log' : '') +
        (presenter ? '|presenter' : '') +
        `|bands ${bands?.length ?? 0}`;
      el.dataset.steps = String(data[0]?.length ?? 0);
      el.dataset.series = String(series.length);
      el.dataset.ylabel = spec.yLabel;
      el.dataset.ylog = String(log);
      if (log) for (let i = 1; i < data.length; i++) data[i] = data[i].map((v) => (v !== null && v > 0 ? v : null));
      if (!plot || key !== shape) {
        plot?.destroy();
        shape = key;
        plot = new uPlot(
          {
            width: Math.max(240, el.clientWidth || 400),
            height: chartHeight(spec, presenter),
            series: [{ label: 'step' }, ...series],
            bands,
            scales: {
              // From the data itself: for one step uPlot pads 0 to 0..100 before any range callback could see it.
              x: {
                time: false,
                range: (u) => {
                  const xs = (u.data[0] as number[]).filter((v) => Number.isFinite(v));
                  if (!xs.length) return [0, 1];
                  const lo = Math.min(...xs);
                  const hi = Math.max(...xs);
                  return lo === hi ? [Math.max(0, lo - 1), hi + 1] : [lo, hi];
                },
              },
              // A flat series would otherwise get uPlot's 0..100 default: keep it close around its value.
              y: log
                ? { distr: 3 }
                : {
                    range: (_u, min, max) => {
                      if (min == null || max == null) return [0, 1];
                      if (min === max)
                        return min === 0 ? [0, 1] : [min - Math.abs(min) * 0.1, max + Math.abs(max) * 0.1];
                      return uPlot.rangeNum(min, max, 0.1, true);
                    },
                  },
            },
            // Nice steps only (1/2/5 × 10^k), each tick the exact decimal its label says (see series.ts).
            axes: [
              {
                label: 'step',
                size: presenter ? 40 : 30,
                labelSize: presenter ? 20 : 14,
                font: axisFont,
                labelFont: axisFont,
                incrs: STEP_INCRS,
                splits: (_u, _i, min, max, incr) => niceTicks(min, max, incr),
                values: (_u, splits) => tickLabels(splits),
              },
              {
                label: spec.yLabel,
                labelSize: presenter ? 22 : 16,
                size: presenter ? 72 : 56,
                font: axisFont,
                labelFont: axisFont,
                ...(log ? {} : { incrs: NICE_INCRS, splits: (_u, _i, min, max, incr) => niceTicks(min, max, incr) }),
                values: (_u, splits) => {
                  const out = tickLabels(splits);
                  // What is drawn: each labelled gridline's value and its label (a log axis leaves some unlabelled).
                  const shown = splits.map((v, i) => [v, out[i]] as const).filter(([, l]) => l !== null);
                  el.dataset.yticks = shown.map(([, l]) => l).join('|');
                  el.dataset.yvalues = shown.map(([v]) => v).join('|');
                  return out;
                },
              },
            ],
            hooks: {
              setScale: [
                (u, k) => {
                  if (k === 'x') el.dataset.xrange = `${u.scales.x.min}..${u.scales.x.max}`;
                  if (k === 'y') el.dataset.yrange = `${u.scales.y.min}..${u.scales.y.max}`;
                },
              ],
            },
            // The run legend above the plot is always visible; uPlot's own (values on hover only) is left out.
            legend: { show: false },
            cursor: { drag: { x: true, y: false } },
          },
          data as uPlot.AlignedData,
          el,
        );
      } else {
        plot.setData(data as uPlot.AlignedData);
      }
    };
    render(labStore.getState());
    let prev = spec.deps(labStore.getState());
    const unsub = labStore.subscribe((s) => {
      const next = spec.deps(s);
      if (next.every((v, i) => v === prev[i])) return;
      prev = next;
      render(s);
    });
    const ro = new ResizeObserver(
      () =>
        plot &&
        plot.setSize({
          width: Math.max(240, el.clientWidth),
          height: chartHeight(spec, labStore.getState().presenter),
        }),
    );
    ro.observe(el);
    return () => {
      unsub();
      ro.disconnect();
      plot?.destroy();
    };
  }, [spec]);
  return (
    <figure className="chart" aria-label={`${spec.title} (chart)`}>
      <figcaption>
        {spec.title}
        {spec.key && <span className="chart-key"> {spec.key.join('   ')}</span>}
      </figcaption>
      <ul className="chart-legend" ref={legendRef} data-testid={`legend-${spec.id}`} />
      <div
        ref={host}
        data-testid={`chart-${spec.id}`}
        role="img"
        aria-label={`${spec.title}: ${spec.yLabel} by step`}
      />
    </figure>
  );
}

/**
 * 170 px; in presenter view as tall as the screen leaves under the diagram for two charts, down to 130 px on a
 * 720-line projector, where seven runs' legends (six reference runs and the live one) take four lines.
 */
function chartHeight(spec: ChartSpec, presenter: boolean): number {
  if (spec.height) return spec.height;
  if (!presenter || typeof window === 'undefined') return 170;
  return Math.round(Math.min(360, Math.max(130, window.innerHeight - 640)));
}

/** Writes the legend's entries as DOM (charts never re-render from React). */
function drawLegend(ul: HTMLUListElement, entries: LegendEntry[]): void {
  ul.replaceChildren(
    ...entries.map((e) => {
      const li = document.createElement('li');
      li.title = e.title;
      if (e.absent) li.className = 'absent';
      const mark = document.createElement('span');
      mark.className = 'legend-mark';
      mark.style.color = e.color;
      mark.textContent = e.glyph;
      mark.setAttribute('aria-hidden', 'true');
      const name = document.createElement('span');
      name.textContent = e.label;
      const value = document.createElement('b');
      value.textContent = e.value;
      li.append(mark, name, ' ', value);
      return li;
    }),
  );
  ul.hidden = entries.length === 0;
}
