// `npm run targets -- docs/results-data | RUN_DIR ... [--step 100]`: the reference result's targets (code-a1 +10 points with its CI above
// the start, the ordering code-a1 ≥ golden > self-play, the Tester's mut@k and Mul, self-play's collusion) judged per
// seed from the runs' eval.jsonl, with paired bootstrap intervals; docs/results.md quotes the table it prints.
// `--versus BASE_DIR` instead compares a variant's runs with the base runs of the same mode and seed (pass@1, paired),
// with `--versus-step N` taking the base at another step (e.g. the same problems seen at twice the batch) and
// `--metric mutAtK` (or mul, testerValidity, ...) comparing that metric instead of pass@1, and `--versus-mode golden`
// comparing every other mode with golden's run of the same seed (code-a1 − golden).
// `--resample tasks` draws every interval over tasks instead of problems (instances of one task, which differ only in
// the function name, drawn together): wider, and the honest unit when instances repeat tasks. `--novelty` prints
// held-out pass@1 split by task: new tasks, and tasks the warm-start or RL trained on under another function name;
// `--only new` (or warm-start, rl-only) judges the targets on those held-out instances alone; `--split heldout-task`
// judges everything on that evaluated split instead (one instance of each task no training instance poses).
// `--tester-counts` prints the counts behind mut@k per run (tests right on the reference, mutants they killed).
// `--by-family` prints held-out pass@1 per task family, each mode's seeds pooled, with code-a1 − self-play per family.
// `--headline DIR:MODE,...` prints the page's first table: those runs' seeds pooled, pass@1 and Mul against the start
// (with `--split`, on that evaluated split).
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { intArg, parseArgsAndPositional, runMain } from './args';
import { loadTargetRuns, noveltyOf, resampled } from '../analysis/compare-records-node';
import {
  NOVELTY_END,
  NOVELTY_LABEL,
  noveltyBegin,
  noveltyCurves,
  noveltyRows,
  noveltyTable,
} from '../analysis/novelty-table';
import { HEADLINE_END, headlineBegin, headlineTable } from '../analysis/headline';
import { headlineEntries } from '../analysis/results-page-node';
import { lineChartSvg, PALETTE, type Series } from '../analysis/plot-svg';
import {
  judgeTargets,
  JUDGED_SPLITS,
  RESAMPLE_UNITS,
  TARGETS_END,
  targetsBegin,
  targetsTable,
  type JudgedSplit,
  type ResampleUnit,
  type TargetRun,
} from '../analysis/targets';
import { testerCountsTable } from '../analysis/tester-counts';
import { FAMILIES_END, familiesBegin, familyRows, familyTable } from '../analysis/family-table';
import { againstMode, variantDeltas, variantTable } from '../analysis/variant-delta';
import { CI_METRICS, type CiMetric } from '../run/eval-ci';
import { NOVELTIES, type Novelty } from '../tasks/novelty';

const USAGE = `usage: npm run targets -- DIR ... [--step 100] [--versus BASE_DIR ... [--versus-step N] [--versus-mode MODE] [--metric M]] [--resample problems|tasks] [--novelty [--out DIR] | --only new|warm-start|rl-only] [--split heldout-task|heldout-family] | DATA --headline DIR:MODE,... [--step 100] [--split heldout-task|heldout-family] | DIR ... --tester-counts [--step 100] | DIR --by-family [--step 100]   (docs/results-data, records subdirectories, or run directories; a mode and seed in several comes from the first; --versus: DIR's runs against BASE_DIR's of the same mode (or of --versus-mode) and seed, on pass@1 or --metric (${CI_METRICS.join(', ')}); --resample: the intervals' bootstrap unit, problems by default; --novelty: held-out pass@1 on new and on renamed training tasks, --out: its curves per kind as SVG; --only: the targets on held-out instances of that kind; --split: another evaluated split in the held-out one's place; --headline: docs/results.md's first table, each DIR:MODE (DIR under DATA, '.' for DATA itself) with its seeds pooled against its start; --tester-counts: the Tester's tests on the references, how many were right and how many mutants they killed, at step 0 and --step; --by-family: held-out pass@1 per task family, each mode's seeds pooled, at step 0 and --step)`;

/** One SVG per kind of held-out task: each mode's pass@1 curve on those instances (seeds pooled), with its band. */
async function noveltyPlots(runs: readonly TargetRun[], out: string, unit: ResampleUnit): Promise<string[]> {
  await mkdir(out, { recursive: true });
  const written: string[] = [];
  for (const kind of NOVELTIES) {
    const curves = noveltyCurves(runs, noveltyOf, kind);
    if (!curves.length) continue;
    const series: Series[] = curves.map((c, i) => ({
      name: c.seeds.length > 1 ? `${c.mode} (seeds ${c.seeds.join(', ')})` : `${c.mode}-s${c.seeds[0]}`,
      color: PALETTE[i % PALETTE.length],
      x: c.steps,
      y: c.pass,
      lo: c.lo,
      hi: c.hi,
    }));
    const file = join(out, `pass1-${kind}.svg`);
    const title = `Coder pass@1 on held-out instances: ${NOVELTY_LABEL[kind]} (bands: 95% CI over ${unit})`;
    await writeFile(file, lineChartSvg(title, series, { xLabel: 'step', yLabel: 'pass@1 (%)' }));
    written.push(file);
  }
  return written;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2).filter((a) => a !== '--');
  if (argv.includes('--help')) {
    console.log(USAGE);
    return 0;
  }
  // Run directories are the positional arguments; each --versus names one base directory.
  const { args, positional: dirs } = parseArgsAndPositional(argv, {
    step: 'string',
    versus: 'string',
    'versus-step': 'string',
    resample: 'string',
    novelty: 'boolean',
    only: 'string',
    out: 'string',
    metric: 'string',
    split: 'string',
    'versus-mode': 'string',
    headline: 'string',
    'tester-counts': 'boolean',
    'by-family': 'boolean',
  });
  const metric = (args.metric as string | undefined) ?? 'coderPass1';
  if (!CI_METRICS.includes(metric as CiMetric)) {
    console.error(`--metric ${metric}: expected one of ${CI_METRICS.join(', ')}\n${USAGE}`);
    return 2;
  }
  const only = args.only as Novelty | undefined;
  if (only !== undefined && !NOVELTIES.includes(only)) {
    console.error(`--only ${String(only)}: expected one of ${NOVELTIES.join(', ')}\n${USAGE}`);
    return 2;
  }
  const unit = (args.resample as string | undefined) ?? 'problems';
  if (!RESAMPLE_UNITS.includes(unit as ResampleUnit)) {
    console.error(`--resample ${unit}: expected one of ${RESAMPLE_UNITS.join(', ')}\n${USAGE}`);
    return 2;
  }
  if (only && args.novelty) {
    console.error(`--novelty splits the held-out instances by kind itself; drop --only ${only}\n${USAGE}`);
    return 2;
  }
  const split = args.split as JudgedSplit | undefined;
  if (split !== undefined && !JUDGED_SPLITS.includes(split)) {
    console.error(`--split ${String(split)}: expected one of ${JUDGED_SPLITS.join(', ')}\n${USAGE}`);
    return 2;
  }
  const versus = typeof args.versus === 'string' ? args.versus.split('\n') : [];
  if (!dirs.length || (args['versus-step'] !== undefined && !versus.length)) {
    console.error(USAGE);
    return 2;
  }
  if (typeof args.headline === 'string') {
    // The page's first table: DIR is the records root, each row a subdirectory (or '.') and a mode, seeds pooled.
    const step = intArg(args, 'step', 100);
    if (dirs.length !== 1) {
      console.error(`--headline reads one records directory (docs/results-data), not ${dirs.length}\n${USAGE}`);
      return 2;
    }
    const lines = headlineTable(headlineEntries(dirs[0], args.headline, split), step);
    console.log([headlineBegin(step, args.headline, split), ...lines, HEADLINE_END].join('\n'));
    return 0;
  }
  const runs = resampled(loadTargetRuns(dirs), unit as ResampleUnit, only, split);
  if (only && runs.every((r) => r.evals.every((e) => !e.rows.length))) {
    console.error(`no held-out instance in ${dirs.join(', ')} poses a task that is "${only}" to its run`);
    return 2;
  }
  if (args['tester-counts']) {
    const step = intArg(args, 'step', 100);
    console.log(testerCountsTable(runs, step).join('\n'));
    return 0;
  }
  if (args['by-family']) {
    const step = intArg(args, 'step', 100);
    const table = familyRows(runs, step);
    if (!table.rows.length) {
      console.error(`no run in ${dirs.join(', ')} evaluated per problem at step 0 and at step ${step}`);
      return 2;
    }
    const name = dirs.map((d) => basename(resolve(d))).join(',');
    console.log([familiesBegin(step, name), ...familyTable(table, step), FAMILIES_END].join('\n'));
    return 0;
  }
  if (versus.length) {
    const step = intArg(args, 'step', 100);
    const baseStep = intArg(args, 'versus-step', step);
    const loaded = resampled(loadTargetRuns(versus), unit as ResampleUnit, only, split);
    // --versus-mode golden: every other mode against golden's run of the same seed instead of its own mode's.
    const against = args['versus-mode'] as string | undefined;
    const pair = against ? againstMode(runs, loaded, against) : { variant: runs, base: loaded };
    const rows = variantDeltas(pair.variant, pair.base, step, baseStep, metric as CiMetric);
    if (!rows.length) {
      console.error(
        `no mode and seed evaluated at step ${step} in ${dirs.join(', ')} and at step ${baseStep} in ${versus.join(', ')}`,
      );
      return 2;
    }
    console.log(variantTable(rows, step, baseStep, metric as CiMetric, against).join('\n'));
    return 0;
  }
  const step = intArg(args, 'step', 100);
  // Between the markers docs/results.md carries it in (results-table.test.ts checks the page against the records);
  // subdirectories of the records (docs/results-data/disjoint-c docs/results-data/disjoint) are named in the marker,
  // in order, so the check reads the same runs.
  const subs = dirs.map((d) => basename(resolve(d)));
  const records = dirs.every((d) => !existsSync(join(d, 'config.json'))); // directories of runs, not runs
  const dir = records && !subs.includes('results-data') ? subs.join(',') : undefined;
  if (args.novelty) {
    const rows = noveltyRows(runs, step, noveltyOf);
    if (!rows.length) {
      console.error(`no run in ${dirs.join(', ')} evaluated per problem at step 0 and at step ${step}`);
      return 2;
    }
    console.log([noveltyBegin(step, dir), ...noveltyTable(rows, step), NOVELTY_END].join('\n'));
    if (typeof args.out === 'string')
      console.log(`wrote ${(await noveltyPlots(runs, args.out, unit as ResampleUnit)).join(', ')}`);
    return 0;
  }
  if (!runs.some((r) => r.mode === 'code-a1')) {
    console.error(`no code-a1 run among ${dirs.join(', ')}: the targets are stated for code-a1 against its baselines`);
    return 2;
  }
  const table = targetsTable(judgeTargets(runs, step));
  console.log([targetsBegin({ step, dir, unit: unit as ResampleUnit, only, split }), ...table, TARGETS_END].join('\n'));
  return 0;
}

runMain(main, { stack: false });
