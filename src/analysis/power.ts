// How many held-out tasks and seeds a paired difference between two modes needs to be seen, from committed records:
// the per-task spread of the paired difference within a seed (sampling and task-to-task) and the seed-to-seed spread
// of the gap itself (training randomness), then the normal approximation of a two-sided paired test at 5%.
import { atStep, type TargetRun } from './targets';
import { passAtKEstimate } from '../run/eval-metrics';

/** Standard normal CDF (Abramowitz–Stegun 7.1.26 erf, |error| < 1.5e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

const Z_ALPHA = 1.959964; // two-sided 5%
const Z_POWER = 0.841621; // 80%

/** Power of a two-sided 5% test of a difference `delta` whose estimate has standard error `se`. */
export const powerOf = (delta: number, se: number) =>
  se > 0 ? normalCdf(delta / se - Z_ALPHA) + normalCdf(-delta / se - Z_ALPHA) : 1;

/** The spreads one pair of modes shows in the records, in points of pass@1. */
export interface GapSpread {
  a: string;
  b: string;
  /** Tasks both modes were evaluated on, in every seed. */
  tasks: number;
  seeds: number[];
  /** The gap a − b per seed (points). */
  gaps: number[];
  /** Per-task standard deviation of the paired difference within a seed, pooled over the seeds. */
  sdTask: number;
  /** Seed-to-seed standard deviation of the gap beyond what the task spread explains (0 when it explains all). */
  sdSeed: number;
}

const pass1 = (p: { n: number; passed: number }) => 100 * passAtKEstimate(p.n, p.passed, 1);

/** The spreads of a − b at `step` over the seeds both modes ran; undefined when fewer than two seeds have both. */
export function gapSpread(runs: readonly TargetRun[], a: string, b: string, step: number): GapSpread | undefined {
  const seeds = [...new Set(runs.map((r) => r.seed))]
    .sort((x, y) => x - y)
    .filter((s) =>
      [a, b].every(
        (m) =>
          atStep(
            runs.find((r) => r.mode === m && r.seed === s),
            step,
          )?.perProblem,
      ),
    );
  if (seeds.length < 2) return undefined;
  const diffs = seeds.map((s) => {
    const [ra, rb] = [a, b].map(
      (m) =>
        atStep(
          runs.find((r) => r.mode === m && r.seed === s),
          step,
        )!.perProblem!,
    );
    const byId = new Map(rb.map((p) => [p.id, p]));
    return ra.filter((p) => byId.has(p.id)).map((p) => pass1(p) - pass1(byId.get(p.id)!));
  });
  const mean = (v: readonly number[]) => v.reduce((x, y) => x + y, 0) / v.length;
  const variance = (v: readonly number[]) => v.reduce((x, y) => x + (y - mean(v)) ** 2, 0) / (v.length - 1);
  const T = Math.min(...diffs.map((d) => d.length));
  const gaps = diffs.map(mean);
  const within = mean(diffs.map(variance));
  // Between-seed variance of the gap minus the part the task spread alone gives (method of moments).
  const seedVar = Math.max(0, variance(gaps) - within / T);
  return { a, b, tasks: T, seeds, gaps, sdTask: Math.sqrt(within), sdSeed: Math.sqrt(seedVar) };
}

/** The standard error of a gap pooled over `seeds` seeds of `tasks` tasks each. */
export const pooledSe = (g: Pick<GapSpread, 'sdTask' | 'sdSeed'>, tasks: number, seeds: number) =>
  Math.sqrt((g.sdTask ** 2 / tasks + g.sdSeed ** 2) / seeds);

/**
 * Tasks needed for 80% power at `delta` with `seeds` seeds; Infinity when the seed-to-seed spread alone leaves the
 * standard error above what that power needs (then only more seeds help).
 */
export function tasksNeeded(g: Pick<GapSpread, 'sdTask' | 'sdSeed'>, delta: number, seeds: number): number {
  const se = delta / (Z_ALPHA + Z_POWER);
  const room = seeds * se * se - g.sdSeed ** 2;
  return room > 0 ? Math.ceil(g.sdTask ** 2 / room) : Infinity;
}

/** Seeds needed for 80% power at `delta` with `tasks` tasks. */
export function seedsNeeded(g: Pick<GapSpread, 'sdTask' | 'sdSeed'>, delta: number, tasks: number): number {
  const se = delta / (Z_ALPHA + Z_POWER);
  return Math.ceil((g.sdTask ** 2 / tasks + g.sdSeed ** 2) / (se * se));
}

/** The paper's 1.5B pass@1 gaps (Code-A1 56.95, golden 56.23, self-play 55.88 on its benchmarks' average). */
export const PAPER_GAPS: readonly [string, number][] = [
  ['code-a1 − golden', 56.95 - 56.23],
  ['code-a1 − self-play', 56.95 - 55.88],
  ['golden − self-play', 56.23 - 55.88],
];

const f1 = (x: number) => x.toFixed(1);
const count = (x: number) => (Number.isFinite(x) ? String(x) : 'none suffices');

/**
 * The power table: per pair of modes, the spreads, the standard error and power at 5 points with the records' own
 * tasks and seeds, and the tasks (at `planTasks` held-out tasks: the seeds) 80% power at 5 points needs.
 */
export function powerTable(runs: readonly TargetRun[], step: number, planTasks: number, planSeeds = 2): string[] {
  const pairs: [string, string][] = [
    ['code-a1', 'golden'],
    ['code-a1', 'self-play'],
    ['golden', 'self-play'],
  ];
  const head =
    '| pair | tasks × seeds | gap per seed (points) | SD over tasks | SD over seeds | SE pooled | power at 5 points | tasks for 80% with ' +
    `${planSeeds} seeds | seeds for 80% with ${planTasks} tasks |`;
  const rows = pairs.flatMap(([a, b]) => {
    const g = gapSpread(runs, a, b, step);
    if (!g) return [];
    const se = pooledSe(g, g.tasks, g.seeds.length);
    return [
      `| ${a} − ${b} | ${g.tasks} × ${g.seeds.length} | ${g.gaps.map(f1).join(', ')} | ${f1(g.sdTask)} | ${f1(g.sdSeed)} | ${f1(se)} | ${Math.round(100 * powerOf(5, se))}% | ${count(tasksNeeded(g, 5, planSeeds))} | ${seedsNeeded(g, 5, planTasks)} |`,
    ];
  });
  // A seed-to-seed spread needs two seeds of both modes; an empty table would look like a generator fault.
  if (!rows.length)
    return [`No pair of modes has two seeds evaluated at step ${step} yet: the power table needs them.`];
  return [head, `|${' --- |'.repeat(9)}`, ...rows];
}

export const POWER_END = '<!-- power:end -->';
/** `<!-- power:begin step=40 dir=heldout-task plan=108 -->` … end: the power table of those records. */
export const POWER_BLOCK = /<!-- power:begin step=(\d+) dir=([\w.,-]+) plan=(\d+) -->[\s\S]*?<!-- power:end -->/g;
export const powerBegin = (step: number, dir: string, plan: number) =>
  `<!-- power:begin step=${step} dir=${dir} plan=${plan} -->`;
