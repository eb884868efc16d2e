// Reads the records of a mode comparison (docs/results-data/compare, or a directory of run directories): each run's
// config.json and final eval.json, the shipped models' start-eval.json and the evolved suites (*.jsonl), for
// `npm run compare` and the docs/results.md check; and the reference runs' eval.jsonl for `npm run targets`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { TrainConfig } from '../rl/config';
import { splitLabel, type SplitReport } from '../run/eval';
import { compareTable, evolveTable, parseEvolved, type CompareRun, type EvolvedProblem } from './compare-table';
import { parseEvalPoints, type EvalPoint } from '../run/run-layout';
import { migrateSplit } from '../run/eval-splits';
import {
  judgeTargets,
  runOverTasks,
  runRestricted,
  type ResampleUnit,
  type TargetLine,
  type TargetRun,
  type JudgedSplit,
  type TargetsMarker,
} from './targets';
import { taskOf } from '../tasks/generate';
import { taskNovelty, type Novelty } from '../tasks/novelty';

/** The run's copy of `train --hidden-tests` (src/cli/hidden-tests-file.ts writes it; rl does not import the CLI). */
const HIDDEN_TESTS_FILE = 'hidden-tests.jsonl';
const HIDDEN_TESTS_VARIANT = '+ evolved tests';

/** The order of the rows: the paper's method first, then its baselines, then the neighbouring methods. */
const MODE_ORDER = ['code-a1', 'golden', 'self-play', 'tcs', 'ace'];

interface EvalFile {
  step: number;
  rows: SplitReport[];
}

/**
 * An evaluation file's held-out row: the tasks never trained on, or, in records made before that split was evaluated
 * by default, the renamed instances (the comparison table names the split it shows).
 */
function heldoutRow(file: string): { step: number; row: SplitReport } {
  const e = JSON.parse(readFileSync(file, 'utf8')) as EvalFile;
  const rows = (e.rows ?? []).map(migrateSplit);
  const row = rows.find((r) => r.split === 'heldout') ?? rows.find((r) => r.split === 'renamed');
  if (!row) throw new Error(`${file}: no heldout (or renamed) evaluation in it`);
  return { step: e.step, row };
}

/** One run directory (config.json + eval.json) as a table row. */
export function loadCompareRun(dir: string): CompareRun {
  const cfgFile = join(dir, 'config.json');
  const evalFile = join(dir, 'eval.json');
  if (!existsSync(cfgFile) || !existsSync(evalFile))
    throw new Error(`${dir}: not an evaluated run (needs config.json and eval.json: npm run eval -- --run ${dir})`);
  const cfg = JSON.parse(readFileSync(cfgFile, 'utf8')) as TrainConfig;
  // A run trained against replaced hidden tests (train --hidden-tests) is a variant of its mode, listed after it.
  const mode = existsSync(join(dir, HIDDEN_TESTS_FILE)) ? `${cfg.mode} ${HIDDEN_TESTS_VARIANT}` : cfg.mode;
  return { name: basename(dir), mode, seed: cfg.seed, ...heldoutRow(evalFile) };
}

export interface CompareRecords {
  start?: CompareRun;
  runs: CompareRun[];
  evolved: { label: string; problems: EvolvedProblem[] }[];
}

/**
 * Every path is a run directory, an eval.json / evolved .jsonl file, or a directory holding them (its start-eval.json
 * is the start row; its sub-directories with an eval.json are runs; its *.jsonl files are evolved suites).
 */
export function loadCompareRecords(paths: readonly string[]): CompareRecords {
  const out: CompareRecords = { runs: [], evolved: [] };
  const addEvolved = (f: string) =>
    out.evolved.push({ label: basename(f, '.jsonl'), problems: parseEvolved(readFileSync(f, 'utf8')) });
  for (const p of paths) {
    if (!existsSync(p)) throw new Error(`${p}: no such file or directory`);
    if (!statSync(p).isDirectory()) {
      if (p.endsWith('.jsonl')) addEvolved(p);
      else out.start = { name: 'start', mode: 'shipped models', ...heldoutRow(p) };
      continue;
    }
    if (existsSync(join(p, 'config.json'))) {
      out.runs.push(loadCompareRun(p));
      continue;
    }
    const startFile = join(p, 'start-eval.json');
    if (existsSync(startFile)) out.start = { name: 'start', mode: 'shipped models', ...heldoutRow(startFile) };
    for (const name of readdirSync(p).sort()) {
      const sub = join(p, name);
      if (name.endsWith('.jsonl')) addEvolved(sub);
      else if (statSync(sub).isDirectory() && existsSync(join(sub, 'eval.json'))) out.runs.push(loadCompareRun(sub));
    }
  }
  const rank = (r: CompareRun) => {
    const i = MODE_ORDER.indexOf(r.mode.split(' ')[0]);
    // Variants (a mode with evolved tests) right after their mode.
    return (i < 0 ? MODE_ORDER.length : i) + (r.mode.includes(' ') ? 0.5 : 0);
  };
  out.runs.sort((a, b) => (a.seed ?? 0) - (b.seed ?? 0) || rank(a) - rank(b) || a.name.localeCompare(b.name));
  return out;
}

/** The tables the records give, as docs/results.md shows them (blank line between the tables). */
export function compareBlock(r: CompareRecords): string[] {
  return [...compareTable(r.runs, r.start), ...(r.evolved.length ? ['', ...evolveTable(r.evolved)] : [])];
}

/** The reference runs' directory names in docs/results-data: `<mode>-s<seed>` for the method and its two baselines. */
const REFERENCE_RUN = /^(code-a1|golden|self-play)-s\d+$/;

/**
 * Reference runs (config.json + eval.jsonl) for the targets: each path is a run directory, or a directory whose
 * `<mode>-s<seed>` sub-directories are runs (docs/results-data). A path that is neither is an error, not skipped.
 * A mode and seed found under several paths is taken from the first: later paths supply the baselines the earlier
 * lack (e.g. a rerun of code-a1 judged against the golden and self-play runs of another records directory).
 */
export function loadTargetRuns(paths: readonly string[]): TargetRun[] {
  const dirs = paths.flatMap((p) => {
    if (!existsSync(p)) throw new Error(`${p}: no such directory`);
    if (existsSync(join(p, 'config.json'))) return [p];
    const subs = readdirSync(p)
      .filter((n) => REFERENCE_RUN.test(n) && existsSync(join(p, n, 'eval.jsonl')))
      .map((n) => join(p, n));
    if (!subs.length) throw new Error(`${p}: neither a run (config.json) nor a directory of <mode>-s<seed> runs`);
    return subs;
  });
  const seen = new Set<string>();
  return dirs.flatMap((dir) => {
    const cfgFile = join(dir, 'config.json');
    const evalFile = join(dir, 'eval.jsonl');
    if (!existsSync(evalFile)) throw new Error(`${dir}: no eval.jsonl (train with --eval-every N)`);
    const cfg = JSON.parse(readFileSync(cfgFile, 'utf8')) as TrainConfig;
    const key = `${cfg.mode}-s${cfg.seed}`;
    if (seen.has(key)) return [];
    seen.add(key);
    const evals = parseEvalPoints(readFileSync(evalFile, 'utf8'), evalFile);
    const tasks = cfg.tasks && { families: cfg.tasks.families, trainPart: cfg.tasks.train_part ?? 'all' };
    return [{ name: basename(dir), mode: cfg.mode, seed: cfg.seed, evals, tasks }];
  });
}

/**
 * The runs a targets table judges: `dirs` as its marker names them (`disjoint-c,disjoint`: subdirectories of the
 * records `data`, comma-separated, the first one's runs winning), or the records' own reference runs when undefined.
 */
export function targetRunsIn(
  data: string,
  dirs?: string,
  unit: ResampleUnit = 'problems',
  only?: Novelty,
  split?: JudgedSplit,
): TargetRun[] {
  return resampled(loadTargetRuns(dirs ? dirs.split(',').map((d) => join(data, d)) : [data]), unit, only, split);
}

/** The targets a page table's marker asks for, judged on the records under `data`. */
export function judgeMarker(data: string, m: TargetsMarker): TargetLine[] {
  return judgeTargets(targetRunsIn(data, m.dir, m.unit, m.only, m.split), m.step);
}

/**
 * A run whose `split` evaluations stand in for its held-out ones (the rest dropped), so that every judgement, which
 * reads the held-out split, reads that one: e.g. renamed, the instances held out by instance.
 */
export function runOnSplit(run: TargetRun, split: JudgedSplit): TargetRun {
  const rows = (e: EvalPoint) =>
    e.rows.filter((r) => r.split === split).map((r) => ({ ...r, split: 'heldout' as const }));
  return { ...run, evals: run.evals.map((e) => ({ ...e, rows: rows(e) })) };
}

/**
 * Runs as loaded, or judged on another split (runOnSplit), or cut to the held-out instances whose task is `only` to
 * each run (noveltyOf), and with every evaluation's intervals drawn over the lab curriculum's tasks (runOverTasks)
 * for `unit` 'tasks'.
 */
export function resampled(runs: TargetRun[], unit: ResampleUnit, only?: Novelty, split?: JudgedSplit): TargetRun[] {
  // Novelty sorts the renamed instances (every held-out task is new by construction), so `only` reads that split.
  const on = split ?? (only ? 'renamed' : undefined);
  const onSplit = on ? runs.map((r) => runOnSplit(r, on)) : runs;
  const kept = only ? onSplit.map((r) => runRestricted(r, (id) => noveltyOf(r)(id) === only)) : onSplit;
  return unit === 'tasks' ? kept.map((r) => runOverTasks(r, taskOf)) : kept;
}

/** The split reports an `npm run eval --out` file holds (none when it holds no `rows`). */
export function evalFileRows(file: string): SplitReport[] {
  return ((JSON.parse(readFileSync(file, 'utf8')) as { rows?: SplitReport[] }).rows ?? []).map(migrateSplit);
}

/**
 * The disjoint-data evaluations in DIR (docs/results-data/disjoint): `run` is `<model>/<split>` with split heldout,
 * train-sft or train-rl, read from that model's `<model>-*.json` eval outputs (`npm run eval --out`). Undefined when
 * no such evaluation is recorded. The row comes back alone, at step 0 (the models as warm-started).
 */
export function loadDisjointEval(dir: string, run: string): EvalPoint[] | undefined {
  const [model, split] = run.split('/');
  if (!model || !split || !existsSync(dir)) return undefined;
  for (const f of readdirSync(dir).filter((n) => n.startsWith(`${model}-`) && n.endsWith('.json'))) {
    const row = evalFileRows(join(dir, f)).find((r) => splitLabel(r) === split);
    if (row) return [{ step: 0, rows: [row] }];
  }
  return undefined;
}

/** The eval outputs a disjoint-data directory holds: `<model>-train-parts.json` and `<model>-start-eval.json`. */
const DISJOINT_EVAL = /^(.+?)-(?:train-parts|start-eval)\.json$|^(start)-eval\.json$/;

/**
 * Every `<model>/<split>` row the disjoint-data evaluations in DIR record (models by name, each model's splits in
 * file order), in the order `npm run compare -- --disjoint DIR` prints them; loadDisjointEval reads each back.
 */
export function disjointRuns(dir: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(dir).sort()) {
    const m = DISJOINT_EVAL.exec(f);
    if (!m || !statSync(join(dir, f)).isFile()) continue;
    for (const r of evalFileRows(join(dir, f))) {
      const run = `${m[1] ?? m[2]}/${splitLabel(r)}`;
      if (!out.includes(run)) out.push(run);
    }
  }
  return out;
}

const classifiers = new Map<string, (id: string) => Novelty>();
/**
 * What each held-out instance's task is to a run (new, or a renamed warm-start / RL task), from what its config says
 * it trained on; one classifier per set of families and training part. An error for a run without its config.
 */
export function noveltyOf(run: TargetRun): (id: string) => Novelty {
  if (!run.tasks) throw new Error(`${run.name}: its training instances are unknown (no config.json read)`);
  const { families, trainPart } = run.tasks;
  const key = `${[...families].sort().join(',')}|${trainPart}`;
  let f = classifiers.get(key);
  if (!f) classifiers.set(key, (f = taskNovelty(families, trainPart)));
  return f;
}
