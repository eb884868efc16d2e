// Held-out pass@1 split by what each instance's task is to the run (new, or a renamed warm-start / RL task): start,
// step and the paired change per mode and seed, and each mode's seeds pooled. A held-out instance differs from the
// training ones in its function name and only sometimes in its constants, so the held-out number mixes recall under
// a new name with solving a new task; this table says which one moved. Pure: the caller classifies problems.
import { summarize, type ProblemEval } from '../run/eval-ci';
import { atStep, pairedDelta, poolSeeds, runRestricted, showDelta, type PairedDelta, type TargetRun } from './targets';
import { NOVELTIES, type Novelty } from '../tasks/novelty';

/** One category's numbers for one row: instances, pass@1 at the start and at the step (%), the paired change. */
export interface NoveltyCell {
  problems: number;
  start: number;
  end: number;
  delta: PairedDelta;
}

export interface NoveltyRow {
  mode: string;
  seed: string;
  cells: Partial<Record<Novelty, NoveltyCell>>;
}

/** Seed-major, the method before its baselines: the order the page's tables list modes in. */
export const MODE_RANK: Record<string, number> = { 'code-a1': 0, golden: 1, 'self-play': 2 };

/** The modes the runs hold, each once, in the page's order (others after). */
export const modesInPageOrder = (runs: readonly { mode: string }[]): string[] =>
  [...new Set(runs.map((r) => r.mode))].sort((a, b) => (MODE_RANK[a] ?? 9) - (MODE_RANK[b] ?? 9));

/** A run's categories at `step` against its step-0 evaluation; undefined when either lacks per-problem records. */
function row(
  run: TargetRun,
  seed: string,
  step: number,
  classify: (run: TargetRun) => (id: string) => Novelty,
): NoveltyRow | undefined {
  const end = atStep(run, step)?.perProblem;
  const start = atStep(run, 0)?.perProblem;
  if (!end?.length || !start?.length) return undefined;
  const of = classify(run);
  const cells: Partial<Record<Novelty, NoveltyCell>> = {};
  for (const k of NOVELTIES) {
    const pick = (xs: readonly ProblemEval[]) => xs.filter((p) => of(p.id) === k);
    const [e, s] = [pick(end), pick(start)];
    const delta = pairedDelta(e, s, 'coderPass1');
    if (!delta) continue;
    cells[k] = { problems: e.length, start: 100 * summarize(s).coderPass1, end: 100 * summarize(e).coderPass1, delta };
  }
  return { mode: run.mode, seed, cells };
}

/**
 * Every run evaluated at `step` and at step 0 (seed-major within each mode, modes in the page's order), then each
 * mode's seeds pooled per problem when it has two or more.
 */
export function noveltyRows(
  runs: readonly TargetRun[],
  step: number,
  classify: (run: TargetRun) => (id: string) => Novelty,
): NoveltyRow[] {
  const out: NoveltyRow[] = [];
  const modes = modesInPageOrder(runs);
  for (const mode of modes) {
    const mine = runs.filter((r) => r.mode === mode && atStep(r, step) && atStep(r, 0)).sort((a, b) => a.seed - b.seed);
    for (const r of mine) {
      const x = row(r, String(r.seed), step, classify);
      if (x) out.push(x);
    }
    const pooled = mine.length > 1 ? poolSeeds(mine) : undefined;
    const x = pooled && row(pooled, `pooled (${mine.map((r) => r.seed).join(', ')})`, step, classify);
    if (x) out.push(x);
  }
  return out;
}

/** One mode's held-out pass@1 on one kind of task at every step its seeds were all evaluated (%, 95% band). */
export interface NoveltyCurve {
  mode: string;
  seeds: number[];
  steps: number[];
  pass: number[];
  lo: number[];
  hi: number[];
}

/**
 * Every mode's pass@1 curve on the held-out instances of one kind: its runs cut to those instances, seeds pooled
 * per problem (one seed as it is), a point per step all of them evaluated.
 */
export function noveltyCurves(
  runs: readonly TargetRun[],
  classify: (run: TargetRun) => (id: string) => Novelty,
  kind: Novelty,
): NoveltyCurve[] {
  const modes = modesInPageOrder(runs);
  return modes.flatMap((mode) => {
    const mine = runs.filter((r) => r.mode === mode).sort((a, b) => a.seed - b.seed);
    const cut = mine.map((r) => runRestricted(r, (id) => classify(r)(id) === kind));
    const run = cut.length > 1 ? poolSeeds(cut) : cut[0];
    const pts = (run?.evals ?? [])
      .map((e) => ({ step: e.step, r: atStep(run, e.step) }))
      .filter((p) => p.r?.perProblem?.length);
    if (!pts.length) return [];
    const at = (f: (r: NonNullable<(typeof pts)[number]['r']>) => number) => pts.map((p) => 100 * f(p.r!));
    return [
      {
        mode,
        seeds: mine.map((r) => r.seed),
        steps: pts.map((p) => p.step),
        pass: at((r) => r.coderPass1),
        lo: at((r) => r.ci?.coderPass1[0] ?? r.coderPass1),
        hi: at((r) => r.ci?.coderPass1[1] ?? r.coderPass1),
      },
    ];
  });
}

/** What a category is called in tables and plot titles. */
export const NOVELTY_LABEL: Record<Novelty, string> = {
  new: 'new tasks',
  'warm-start': 'tasks the warm-start saw, renamed',
  'rl-only': 'tasks only RL trained on, renamed',
};

/** The rows as a Markdown table: columns for the categories some row has, each cell `start → step, Δ (CI); n`. */
export function noveltyTable(rows: readonly NoveltyRow[], step: number): string[] {
  if (!rows.length) return [];
  const cols = NOVELTIES.filter((k) => rows.some((r) => r.cells[k]));
  const cell = (c: NoveltyCell | undefined) =>
    c ? `${c.start.toFixed(1)} → ${c.end.toFixed(1)}, ${showDelta(c.delta)}; ${c.problems}` : '–';
  const first = `${NOVELTY_LABEL[cols[0]]} (pass@1 %: start → step ${step}, Δ with 95% CI paired; instances)`;
  return [
    `| mode | seed | ${[first, ...cols.slice(1).map((k) => NOVELTY_LABEL[k])].join(' | ')} |`,
    `| --- | --- | ${cols.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.mode} | ${r.seed} | ${cols.map((k) => cell(r.cells[k])).join(' | ')} |`),
  ];
}

export const NOVELTY_END = '<!-- novelty:end -->';
/** The begin marker of a novelty table: the step and, for runs under the records' subdirectories, their names. */
export const noveltyBegin = (step: number, dir?: string) =>
  `<!-- novelty:begin step=${step}${dir ? ` dir=${dir}` : ''} -->`;
/** A whole novelty table: groups 1 step, 2 the records subdirectories (or undefined), 3 the lines in between. */
export const NOVELTY_BLOCK = /<!-- novelty:begin step=(\d+)(?: dir=([\w.,-]+))? -->([\s\S]*?)<!-- novelty:end -->/g;
