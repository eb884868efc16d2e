// Aligns several runs' metrics on one step axis for uPlot (missing steps become null, so lines break, not lie).
import type { MetricKey, StepMetrics } from '../../../rl/metrics';

export interface RunData {
  id: string;
  label: string;
  metrics: StepMetrics[];
}

/** Returns [steps, ...one column per (run, key)] with columns ordered run-major. */
export function alignRuns(runs: RunData[], keys: readonly MetricKey[]): (number | null)[][] {
  const steps = new Set<number>();
  for (const r of runs) for (const m of r.metrics) steps.add(m.step);
  const xs = [...steps].sort((a, b) => a - b);
  const index = new Map(xs.map((s, i) => [s, i]));
  const cols: (number | null)[][] = [xs];
  for (const r of runs) {
    for (const k of keys) {
      const col = new Array<number | null>(xs.length).fill(null);
      for (const m of r.metrics) {
        const v = m[k];
        col[index.get(m.step)!] = typeof v === 'number' && Number.isFinite(v) && !m.skipped ? v : null;
      }
      cols.push(col);
    }
  }
  return cols;
}
