// Compares two runs' step records within a stated tolerance (regression baselines, CLI vs browser).
import type { StepMetrics } from '../../rl/metrics';

export interface Tolerance {
  /** |a − b| ≤ abs + rel·max(|a|, |b|) passes. */
  abs: number;
  rel: number;
}

/** Timing and throughput depend on the machine and its load; they are never compared. */
export const DEFAULT_IGNORE = ['time', 'time/*', 'perf/*'];

export interface Mismatch {
  step: number;
  key: string;
  expected: unknown;
  actual: unknown;
}

function ignored(key: string, ignore: readonly string[]): boolean {
  return ignore.some((p) => (p.endsWith('/*') ? key.startsWith(p.slice(0, -1)) : key === p));
}

/** Every key of every expected step must match; extra actual steps are ignored. */
export function compareMetrics(
  expected: StepMetrics[],
  actual: StepMetrics[],
  tol: Tolerance,
  ignore: readonly string[] = DEFAULT_IGNORE,
): Mismatch[] {
  const out: Mismatch[] = [];
  for (const e of expected) {
    const a = actual.find((x) => x.step === e.step);
    if (!a) {
      out.push({ step: e.step, key: '(step)', expected: 'present', actual: 'missing' });
      continue;
    }
    const keys = new Set([...Object.keys(e), ...Object.keys(a)]);
    for (const k of keys) {
      if (ignored(k, ignore)) continue;
      const ev = (e as unknown as Record<string, unknown>)[k];
      const av = (a as unknown as Record<string, unknown>)[k];
      if (typeof ev === 'number' && typeof av === 'number') {
        if (!(Math.abs(ev - av) <= tol.abs + tol.rel * Math.max(Math.abs(ev), Math.abs(av))))
          out.push({ step: e.step, key: k, expected: ev, actual: av });
      } else if (ev !== av) {
        out.push({ step: e.step, key: k, expected: ev, actual: av });
      }
    }
  }
  return out;
}

export function formatMismatches(ms: Mismatch[]): string {
  return ms.map((m) => `step ${m.step} ${m.key}: expected ${String(m.expected)}, got ${String(m.actual)}`).join('\n');
}

/** The largest |a − b| over the compared numeric keys of matching steps (reported by the specs). */
export function maxMetricDiff(
  expected: StepMetrics[],
  actual: StepMetrics[],
  ignore: readonly string[] = DEFAULT_IGNORE,
): { diff: number; key: string; step: number } {
  let best = { diff: 0, key: '', step: -1 };
  for (const e of expected) {
    const a = actual.find((x) => x.step === e.step);
    if (!a) continue;
    for (const [k, ev] of Object.entries(e)) {
      const av = (a as unknown as Record<string, unknown>)[k];
      if (ignored(k, ignore) || typeof ev !== 'number' || typeof av !== 'number') continue;
      const d = Math.abs(ev - av);
      if (d > best.diff) best = { diff: d, key: k, step: e.step };
    }
  }
  return best;
}
