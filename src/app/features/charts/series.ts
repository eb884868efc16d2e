// Aligns several runs' metrics on one step axis for uPlot (missing steps become null, so lines break, not lie), and picks
// nice ticks (1/2/5 × 10^k) labelled with their exact values.
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

/** Tick steps a reader can count in: 1, 2 and 5 × 10^k (no 2.5, whose halves need a third decimal). */
export const NICE_INCRS: number[] = [];
for (let k = -12; k <= 12; k++) for (const m of [1, 2, 5]) NICE_INCRS.push(Number(`${m}e${k}`));

/** Decimals a step of 1/2/5 × 10^k needs: 0.05 → 2, 20 → 0. */
function stepDecimals(step: number): number {
  return Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
}

/** The nice step (1/2/5 × 10^k) closest above `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  return NICE_INCRS.find((x) => x >= raw * (1 - 1e-9)) ?? NICE_INCRS[NICE_INCRS.length - 1];
}

/**
 * Every multiple of `step` in [min, max], each the exact decimal it stands for (k·step, rounded to the step's own
 * decimals, so 3 × 0.1 is 0.3 and not 0.30000000000000004). `step` is made a nice step if it is not one; when fewer
 * than two of its multiples fall in the range, the next smaller nice step is used, so an axis is never unlabelled.
 */
export function niceTicks(min: number, max: number, step: number): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max) || max < min) return [];
  let i = NICE_INCRS.indexOf(niceStep(step));
  for (;;) {
    const s = NICE_INCRS[i];
    const d = stepDecimals(s);
    const lo = Math.ceil(min / s - 1e-9);
    const hi = Math.floor(max / s + 1e-9);
    // A degenerate scale (or a step far too small for it) gets its ends, not a million ticks.
    if (hi - lo > 200) return [min, max];
    if (hi - lo >= 1 || i === 0) {
      const out: number[] = [];
      for (let k = lo; k <= hi; k++) {
        const v = d > 0 && d <= 100 ? Number((k * s).toFixed(d)) : k * s;
        out.push(v === 0 ? 0 : v); // no −0
      }
      return out;
    }
    i--;
  }
}

/** Fewest decimals (≤ 20) that write x exactly, or −1 when none does. */
function exactDecimals(x: number): number {
  for (let d = 0; d <= 20; d++) if (Number(x.toFixed(d)) === x) return d;
  return -1;
}

/**
 * Tick labels that say each tick's value exactly (Number(label) === tick), all with the same decimals so a column
 * reads 0.0 0.5 1.0; very large or small values in exponent form with the fewest digits that stay exact. A value
 * that is not a short decimal (a tick uPlot computed with float noise) is first rounded to 15 significant digits,
 * far below a pixel.
 */
export function tickLabels(splits: number[]): string[];
export function tickLabels(splits: (number | null)[]): (string | null)[];
export function tickLabels(splits: (number | null)[]): (string | null)[] {
  // uPlot hands a log axis's filtered-out ticks as null: they stay unlabelled.
  const xs = splits.map((x) =>
    x === null ? null : Number.isFinite(x) && x !== 0 ? Number(x.toPrecision(15)) : x === 0 ? 0 : x,
  );
  const finite = xs.filter((x): x is number => x !== null && Number.isFinite(x));
  const big = Math.max(0, ...finite.map(Math.abs));
  const small = Math.min(Infinity, ...finite.filter((x) => x !== 0).map(Math.abs));
  const fixed = big < 1e6 && (small === Infinity || small >= 1e-4);
  if (fixed) {
    const ds = finite.map(exactDecimals);
    if (ds.every((d) => d >= 0)) {
      const d = Math.max(0, ...ds);
      return xs.map((x) => (x === null ? null : Number.isFinite(x) ? x.toFixed(d) : String(x)));
    }
  }
  for (let p = 0; p <= 16; p++) {
    if (finite.every((x) => Number(x.toExponential(p)) === x))
      return xs.map((x) => (x === null ? null : x === 0 ? '0' : Number.isFinite(x) ? x.toExponential(p) : String(x)));
  }
  return xs.map((x) => (x === null ? null : String(x)));
}
