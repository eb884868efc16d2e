// A uPlot chart fed by a store subscription: new steps update the canvas directly, without React re-renders.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { labStore } from '../../store';
import type { LabState } from '../../store/types';

export interface ChartSpec {
  id: string;
  title: string;
  /** Builds [x, ...columns] and the matching series from the store; called on every relevant store change. */
  build(s: LabState): { data: (number | null)[][]; series: uPlot.Series[] };
  /** Store fields whose change triggers a rebuild (compared by reference). */
  deps(s: LabState): unknown[];
  height?: number;
}

export function UPlotChart({ spec }: { spec: ChartSpec }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = host.current!;
    let plot: uPlot | null = null;
    let shape = '';
    const render = (s: LabState) => {
      const { data, series } = spec.build(s);
      const key = series.map((x) => x.label).join('|');
      el.dataset.steps = String(data[0]?.length ?? 0);
      el.dataset.series = String(series.length);
      if (!plot || key !== shape) {
        plot?.destroy();
        shape = key;
        plot = new uPlot(
          {
            width: Math.max(240, el.clientWidth || 400),
            height: spec.height ?? 170,
            series: [{ label: 'step' }, ...series],
            scales: {
              // One step alone would get uPlot's 0..100 default span.
              x: { time: false, range: (_u, min, max) => (min === max ? [Math.max(0, min - 1), max + 1] : [min, max]) },
              // A flat series would otherwise get uPlot's 0..100 default: keep it close around its value.
              y: {
                range: (_u, min, max) => {
                  if (min == null || max == null) return [0, 1];
                  if (min === max) return min === 0 ? [0, 1] : [min - Math.abs(min) * 0.1, max + Math.abs(max) * 0.1];
                  return uPlot.rangeNum(min, max, 0.1, true);
                },
              },
            },
            // Steps are integers: no 0.5 ticks.
            axes: [{ label: 'step', size: 30, labelSize: 14, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] }, { size: 48 }],
            legend: { live: true },
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
    const ro = new ResizeObserver(() => plot && plot.setSize({ width: Math.max(240, el.clientWidth), height: spec.height ?? 170 }));
    ro.observe(el);
    return () => {
      unsub();
      ro.disconnect();
      plot?.destroy();
    };
  }, [spec]);
  return (
    <figure className="chart">
      <figcaption>{spec.title}</figcaption>
      <div ref={host} data-testid={`chart-${spec.id}`} />
    </figure>
  );
}
