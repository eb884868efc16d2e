// Aligns several runs' metrics on one step axis for uPlot (missing steps become null, so lines break, not lie).
import type { MetricKey, StepMetrics } from '../../../rl/metrics';
import type { ReleaseMetricKey } from '../../../export/verl/logs';

/** A charted key: a lab metric, or one imported from a release run under its own definition. */
export type ChartKey = MetricKey | ReleaseMetricKey;

export interface RunData {
  id: string;
  label: string;
  metrics: StepMetrics[];
}

/** Returns [steps, ...one column per (run, key)] with columns ordered run-major. */
export function alignRuns(runs: RunData[], keys: readonly ChartKey[]): (number | null)[][] {
  const steps = new Set<number>();
  for (const r of runs) for (const m of r.metrics) steps.add(m.step);
  const xs = [...steps].sort((a, b) => a - b);
  const index = new Map(xs.map((s, i) => [s, i]));
  const cols: (number | null)[][] = [xs];
  for (const r of runs) {
    for (const k of keys) {
      const col = new Array<number | null>(xs.length).fill(null);
      for (const m of r.metrics) {
        const v = (m as Partial<Record<ChartKey, unknown>>)[k];
        col[index.get(m.step)!] = typeof v === 'number' && Number.isFinite(v) && !m.skipped ? v : null;
      }
      cols.push(col);
    }
  }
  return cols;
}

/**
 * TensorBoard's debiased EMA: s_t = w·s_{t−1} + (1−w)·x_t, divided by (1 − w^n) so early points are not pulled to 0.
 * Gaps (null) stay gaps and do not reset the average.
 */
export function smoothEma(col: (number | null)[], weight: number): (number | null)[] {
  if (weight <= 0) return col;
  let acc = 0;
  let n = 0;
  return col.map((v) => {
    if (v === null) return null;
    acc = weight * acc + (1 - weight) * v;
    n++;
    return acc / (1 - Math.pow(weight, n));
  });
}

/** Tick labels with just enough decimals to tell every tick apart (a KL axis of 0.001 steps must not read 0, 0, 0). */
export function tickLabels(splits: number[]): string[] {
  const finite = splits.filter((x) => Number.isFinite(x));
  const big = Math.max(0, ...finite.map(Math.abs));
  if (big >= 1e5 || (big > 0 && big < 1e-3)) return splits.map((x) => (x === 0 ? '0' : x.toExponential(1)));
  for (let d = 0; d <= 6; d++) {
    const out = splits.map((x) => x.toFixed(d));
    if (new Set(out).size === out.length)
      return out.map((t) => (t.startsWith('-') && Number(t) === 0 ? t.slice(1) : t));
  }
  return splits.map((x) => x.toPrecision(3));
}
