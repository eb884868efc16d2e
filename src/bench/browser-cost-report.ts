// bench:browser-cost's tables: per variant the CPU-seconds per step of each run (median of its steps 2..N), their min
// and median, the ratio to the CLI of the same invocation and to the like-for-like CLI (same bounds-check setting),
// then where the CPU went per process kind and per thread.
import { fmt, median, table } from './bench-util';

export interface RunResult {
  name: string;
  /** Step 1 (compiles, start-up). */
  first: { cpu: number; wall: number };
  /** Steps 2..N: CPU-s and wall s of each. */
  cpu: number[];
  wall: number[];
  /** Steps 2..N, CPU-s per step by process kind and by `kind/thread`. */
  kinds: Record<string, number>;
  threads: Record<string, number>;
}

/** The CLI row with the same bounds-check setting as a variant, where it differs from the plain CLI. */
const LIKE_FOR_LIKE: Record<string, string> = {
  chromium: 'cli-robust',
  firefox: 'cli-robust',
  'chromium-norobust': 'cli',
};

/** Medians across runs of each key's per-step CPU-s; keys below `floor` dropped, largest first, at most `top`. */
function split(runs: RunResult[], pick: (r: RunResult) => Record<string, number>, floor: number, top: number): string {
  const keys = new Set(runs.flatMap((r) => Object.keys(pick(r))));
  return [...keys]
    .map((k) => [k, median(runs.map((r) => pick(r)[k] ?? 0))] as const)
    .filter(([, v]) => v >= floor)
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, v]) => `${k} ${v.toFixed(2)}`)
    .join(', ');
}

export function printCostTables(order: readonly string[], about: Record<string, string>, runs: RunResult[]): void {
  const of = (name: string) => runs.filter((r) => r.name === name);
  const perRun = (name: string) => of(name).map((r) => median(r.cpu));
  const med = (name: string) => median(perRun(name));
  const ratio = (name: string, base: string) => (of(base).length ? `${fmt(med(name) / med(base))}x` : '-');
  const rows = order.map((name) => {
    const like = LIKE_FOR_LIKE[name];
    return [
      name,
      of(name)
        .map((r) => fmt(r.first.cpu, 1))
        .join(' / '),
      perRun(name)
        .map((x) => fmt(x))
        .join(' / '),
      fmt(Math.min(...perRun(name))),
      fmt(med(name)),
      fmt(median(of(name).map((r) => median(r.wall)))),
      ratio(name, 'cli'),
      like && of(like).length ? `${ratio(name, like)} (vs ${like})` : '-',
    ];
  });
  table(
    'CPU-seconds per step of each whole process tree (per run: median of its steps; then min and median of the runs)',
    ['run', 'step 1 CPU-s', 'CPU-s/step per run', 'min', 'median', 'wall s/step', 'vs cli', 'like for like'],
    rows,
  );
  table(
    'CPU-s per step by process (median of the runs)',
    ['run', 'by process'],
    order.map((name) => [name, split(of(name), (r) => r.kinds, 0.01, 8)]),
  );
  table(
    'CPU-s per step by thread (median of the runs; threads of one pool summed, the largest 8)',
    ['run', 'by thread'],
    order.map((name) => [name, split(of(name), (r) => r.threads, 0.01, 8)]),
  );
  console.log();
  for (const name of order) console.log(`${name}: ${about[name]}`);
}
