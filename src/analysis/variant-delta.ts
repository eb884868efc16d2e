// A variant against the runs it departs from (`npm run targets -- versus VARIANT_DIR --base BASE_DIR`): for every mode and
// seed both hold, the paired difference of held-out pass@1 (or another metric: the Tester's mut@k, Mul, ...) at one
// step (or the base at another step, e.g. the same number of problems seen at a different batch size), then each
// mode's seeds pooled per problem.
// Pure, so the CLI and its test print the same rows.
import type { CiMetric } from '../run/eval-ci';
import { atStep, METRIC_SCALE, pairedDelta, poolSeeds, showDelta, type PairedDelta, type TargetRun } from './targets';

/** How a metric is named in the table (shares in %, mut@k and Mul on their own 0–100 scale). */
export const METRIC_LABEL: Record<CiMetric, string> = {
  coderPass1: 'pass@1 (%)',
  coderPass1Greedy: 'greedy pass@1 (%)',
  selectedPass1: 'CodeT pass@1 (%)',
  testerValidity: 'Tester validity (%)',
  mutationScore: 'wb-mutation score (%)',
  passAtK: 'pass@k',
  mutAtK: 'mut@k',
  mul: 'Mul',
};

/** One row: a mode at one seed (or its seeds pooled), both sides' metric and the paired difference variant − base. */
export interface VariantRow {
  mode: string;
  seed: string;
  variant: number;
  base: number;
  delta: PairedDelta;
}

/**
 * Rows for every mode and seed evaluated at `step` in the variant and at `baseStep` (default: the same) in the base;
 * pooled rows for modes with two or more such seeds. `metric` is compared (pass@1 by default).
 */
export function variantDeltas(
  variant: readonly TargetRun[],
  base: readonly TargetRun[],
  step: number,
  baseStep = step,
  metric: CiMetric = 'coderPass1',
): VariantRow[] {
  const rows: VariantRow[] = [];
  const modes = [...new Set(variant.map((r) => r.mode))];
  for (const mode of modes) {
    // Pairs of runs of this mode and seed, both evaluated per problem at `step`.
    const pairs = variant
      .filter((r) => r.mode === mode)
      .sort((a, b) => a.seed - b.seed)
      .map((v) => [v, base.find((r) => r.mode === mode && r.seed === v.seed)] as const)
      .filter(([v, b]) => atStep(v, step)?.perProblem?.length && atStep(b, baseStep)?.perProblem?.length)
      .map(([v, b]) => [v, b!] as const);
    const row = (seed: string, v: TargetRun, b: TargetRun): VariantRow | undefined => {
      const a = atStep(v, step);
      const c = atStep(b, baseStep);
      const d = a && c ? pairedDelta(a.perProblem ?? [], c.perProblem ?? [], metric) : null;
      const scale = METRIC_SCALE[metric];
      return a && c && d ? { mode, seed, variant: scale * a[metric], base: scale * c[metric], delta: d } : undefined;
    };
    for (const [v, b] of pairs) {
      const r = row(String(v.seed), v, b);
      if (r) rows.push(r);
    }
    if (pairs.length < 2) continue;
    const pv = poolSeeds(pairs.map((p) => p[0]));
    const pb = poolSeeds(pairs.map((p) => p[1]));
    const r = pv && pb ? row(`pooled (${pairs.map((p) => p[0].seed).join(', ')})`, pv, pb) : undefined;
    if (r) rows.push(r);
  }
  return rows;
}

/**
 * Each mode of `runs` against `mode`'s runs of the same seed (`--versus-mode golden`: code-a1 − golden): the variant
 * side is every other mode's runs, the base side `mode`'s runs standing in under each of those modes.
 */
export function againstMode(
  runs: readonly TargetRun[],
  base: readonly TargetRun[],
  mode: string,
): { variant: TargetRun[]; base: TargetRun[] } {
  const variant = runs.filter((r) => r.mode !== mode);
  const modes = [...new Set(variant.map((r) => r.mode))];
  return {
    variant,
    base: base.filter((r) => r.mode === mode).flatMap((b) => modes.map((m) => ({ ...b, mode: m }))),
  };
}

/** The rows as a Markdown table (what the CLI prints); `against` names the base mode when it is another mode. */
export function variantTable(
  rows: readonly VariantRow[],
  step: number,
  baseStep = step,
  metric: CiMetric = 'coderPass1',
  against?: string,
): string[] {
  const at = baseStep === step ? `at step ${step}` : `at step ${step} (base at step ${baseStep})`;
  const m = METRIC_LABEL[metric];
  const [v, b] = against ? ['mode', against] : ['variant', 'base'];
  return [
    `| mode | seed | ${v} ${m} | ${b} ${m} | ${v} − ${b} ${at} (95% CI, paired) |`,
    '| --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) => `| ${r.mode} | ${r.seed} | ${r.variant.toFixed(1)} | ${r.base.toFixed(1)} | ${showDelta(r.delta)} |`,
    ),
  ];
}
