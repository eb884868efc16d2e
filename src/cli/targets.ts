// `npm run targets -- COMMAND ...`: the questions asked of committed run records, one subcommand each (`judge`,
// `summary`, `power`, `headline`, `versus`, `novelty`, `tester-counts`, `by-family`); each subcommand's --help,
// generated from the flag table below, is the one description of its flags. Old flag spellings (--versus,
// --novelty, ...) get a one-line error naming the subcommand; `npm run targets -- DIR ...` still judges the targets.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { intArg, runMain, type Args } from './args';
import { helpText, parseCli, type CliFlag, type CliSpec } from './cli-spec';
import { loadTargetRuns, noveltyOf, resampled, runOnSplit } from '../analysis/compare-records-node';
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
import { summaryBegin, SUMMARY_END, summaryTable } from '../analysis/summary-table';
import { powerBegin, POWER_END, powerTable } from '../analysis/power';
import { CI_METRICS, type CiMetric } from '../run/eval-ci';
import { NOVELTIES, type Novelty } from '../tasks/novelty';

type Flag = CliFlag;
interface Command {
  name: string;
  args: string;
  what: string;
  flags: Flag[];
  run: (args: Args, dirs: string[]) => Promise<number> | number;
}

const STEP: Flag = { name: 'step', value: 'N', help: 'the step judged (default 100)' };
const RESAMPLE: Flag = {
  name: 'resample',
  value: RESAMPLE_UNITS.join('|'),
  help: "every interval's bootstrap unit (problems by default; tasks draws a task's instances together)",
};
const SPLIT: Flag = {
  name: 'split',
  value: JUDGED_SPLITS.join('|'),
  help: "another evaluated split in the held-out one's place (renamed: instances held out by instance)",
};

function fail(msg: string, cmd?: Command): number {
  console.error(cmd ? `${msg} (npm run targets -- ${cmd.name} --help)` : msg);
  return 2;
}

function runsOf(args: Args, dirs: string[], cmd: Command): TargetRun[] | undefined {
  const unit = (args.resample as string | undefined) ?? 'problems';
  if (!RESAMPLE_UNITS.includes(unit as ResampleUnit))
    return void fail(`--resample ${unit}: expected one of ${RESAMPLE_UNITS.join(', ')}`, cmd);
  const split = args.split as JudgedSplit | undefined;
  if (split !== undefined && !JUDGED_SPLITS.includes(split))
    return void fail(`--split ${String(split)}: expected one of ${JUDGED_SPLITS.join(', ')}`, cmd);
  const only = args.only as Novelty | undefined;
  if (only !== undefined && !NOVELTIES.includes(only))
    return void fail(`--only ${String(only)}: expected one of ${NOVELTIES.join(', ')}`, cmd);
  return resampled(loadTargetRuns(dirs), unit as ResampleUnit, only, split);
}

/** The records subdirectories a marker names when every DIR is one (so results-page can read the same runs). */
function markerDir(dirs: readonly string[]): string | undefined {
  const subs = dirs.map((d) => basename(resolve(d)));
  const records = dirs.every((d) => !existsSync(join(d, 'config.json')));
  return records && !subs.includes('results-data') ? subs.join(',') : undefined;
}

const COMMANDS: Command[] = [
  {
    name: 'judge',
    args: 'DIR ...',
    what: "the reference result's four targets per seed and pooled (met only when the paired 95% interval clears the threshold)",
    flags: [
      STEP,
      RESAMPLE,
      SPLIT,
      {
        name: 'only',
        value: NOVELTIES.join('|'),
        help: 'judge only renamed instances whose task is of that kind to the run',
      },
    ],
    run: (args, dirs) => {
      const runs = runsOf(args, dirs, COMMANDS[0]);
      if (!runs) return 2;
      const only = args.only as Novelty | undefined;
      if (only && runs.every((r) => r.evals.every((e) => !e.rows.length)))
        return fail(`no renamed instance in ${dirs.join(', ')} poses a task that is "${only}" to its run`);
      if (!runs.some((r) => r.mode === 'code-a1'))
        return fail(`no code-a1 run among ${dirs.join(', ')}: the targets are stated for code-a1`);
      const step = intArg(args, 'step', 100);
      const unit = ((args.resample as string | undefined) ?? 'problems') as ResampleUnit;
      const marker = targetsBegin({
        step,
        dir: markerDir(dirs),
        unit,
        only,
        split: args.split as JudgedSplit | undefined,
      });
      console.log([marker, ...targetsTable(judgeTargets(runs, step)), TARGETS_END].join('\n'));
      return 0;
    },
  },
  {
    name: 'summary',
    args: 'DIR',
    what: "the results page's first table: each mode against its start and each pair of modes, pooled and per seed",
    flags: [STEP, SPLIT],
    run: (args, dirs) => {
      const runs = runsOf(args, dirs, COMMANDS[1]);
      if (!runs) return 2;
      const step = intArg(args, 'step', 100);
      console.log(
        [summaryBegin(step, markerDir(dirs) ?? dirs[0]), ...summaryTable(runs, step), SUMMARY_END].join('\n'),
      );
      return 0;
    },
  },
  {
    name: 'power',
    args: 'DIR',
    what: 'the per-task and seed-to-seed spreads of each gap between modes, and the tasks and seeds 80% power at 5 points needs',
    flags: [
      STEP,
      SPLIT,
      { name: 'plan', value: 'T', help: "held-out tasks of the planned runs (default 108, the tiny preset's)" },
    ],
    run: (args, dirs) => {
      const runs = runsOf(args, dirs, COMMANDS[2]);
      if (!runs) return 2;
      const [step, plan] = [intArg(args, 'step', 100), intArg(args, 'plan', 108)];
      const lines = powerTable(runs, step, plan);
      if (lines.length < 3) return fail(`no two modes with two seeds evaluated at step ${step} in ${dirs.join(', ')}`);
      console.log([powerBegin(step, markerDir(dirs) ?? dirs[0], plan), ...lines, POWER_END].join('\n'));
      return 0;
    },
  },
  {
    name: 'headline',
    args: 'DATA',
    what: "rows of records subdirectories, each mode's seeds pooled, pass@1 and Mul against the start",
    flags: [
      STEP,
      SPLIT,
      { name: 'rows', value: 'DIR:MODE,...', help: "the rows, DIR under DATA ('.' for DATA itself)" },
    ],
    run: (args, dirs) => {
      if (dirs.length !== 1 || typeof args.rows !== 'string')
        return fail('headline reads one records directory and --rows', COMMANDS[3]);
      const step = intArg(args, 'step', 100);
      const split = args.split as JudgedSplit | undefined;
      const lines = headlineTable(headlineEntries(dirs[0], args.rows, split), step);
      console.log([headlineBegin(step, args.rows, split), ...lines, HEADLINE_END].join('\n'));
      return 0;
    },
  },
  {
    name: 'versus',
    args: 'DIR ...',
    what: "a variant's runs against base runs of the same mode (or --base-mode) and seed, paired",
    flags: [
      STEP,
      RESAMPLE,
      SPLIT,
      { name: 'base', value: 'DIR', help: 'the base runs (repeat for several directories); required' },
      { name: 'base-step', value: 'N', help: 'the base at another step (default: --step)' },
      { name: 'base-mode', value: 'MODE', help: "every other mode against this mode's run of the same seed" },
      { name: 'metric', value: 'M', help: `the metric compared (${CI_METRICS.join(', ')}; default coderPass1)` },
    ],
    run: (args, dirs) => {
      const cmd = COMMANDS[4];
      const metric = (args.metric as string | undefined) ?? 'coderPass1';
      if (!CI_METRICS.includes(metric as CiMetric))
        return fail(`--metric ${metric}: expected one of ${CI_METRICS.join(', ')}`, cmd);
      if (typeof args.base !== 'string') return fail('versus needs --base DIR', cmd);
      const runs = runsOf(args, dirs, cmd);
      const loaded = runsOf(args, args.base.split('\n'), cmd);
      if (!runs || !loaded) return 2;
      const step = intArg(args, 'step', 100);
      const baseStep = intArg(args, 'base-step', step);
      const against = args['base-mode'] as string | undefined;
      const pair = against ? againstMode(runs, loaded, against) : { variant: runs, base: loaded };
      const rows = variantDeltas(pair.variant, pair.base, step, baseStep, metric as CiMetric);
      if (!rows.length)
        return fail(`no mode and seed evaluated at step ${step} in ${dirs.join(', ')} and at ${baseStep} in the base`);
      console.log(variantTable(rows, step, baseStep, metric as CiMetric, against).join('\n'));
      return 0;
    },
  },
  {
    name: 'novelty',
    args: 'DIR ...',
    what: 'pass@1 on the renamed instances by what their task is to the run: new, or a renamed warm-start / RL task',
    flags: [STEP, RESAMPLE, { name: 'out', value: 'DIR', help: "also draw each kind's curves as SVG there" }],
    run: async (args, dirs) => {
      const runs = runsOf(args, dirs, COMMANDS[5])?.map((r) => runOnSplit(r, 'renamed'));
      if (!runs) return 2;
      const step = intArg(args, 'step', 100);
      const rows = noveltyRows(runs, step, noveltyOf);
      if (!rows.length) return fail(`no run in ${dirs.join(', ')} evaluated the renamed split at step 0 and ${step}`);
      console.log([noveltyBegin(step, markerDir(dirs)), ...noveltyTable(rows, step), NOVELTY_END].join('\n'));
      if (typeof args.out === 'string') console.log(`wrote ${(await noveltyPlots(runs, args.out)).join(', ')}`);
      return 0;
    },
  },
  {
    name: 'tester-counts',
    args: 'DIR ...',
    what: "the counts behind the Tester's mut@k: tests right on the references and the mutants they killed",
    flags: [STEP, SPLIT],
    run: (args, dirs) => {
      const runs = runsOf(args, dirs, COMMANDS[6]);
      if (!runs) return 2;
      console.log(testerCountsTable(runs, intArg(args, 'step', 100)).join('\n'));
      return 0;
    },
  },
  {
    name: 'by-family',
    args: 'DIR ...',
    what: 'held-out pass@1 per task family, seeds pooled (families under 30 instances labelled exploratory)',
    flags: [STEP, SPLIT],
    run: (args, dirs) => {
      const runs = runsOf(args, dirs, COMMANDS[7]);
      if (!runs) return 2;
      const step = intArg(args, 'step', 100);
      const table = familyRows(runs, step);
      if (!table.rows.length)
        return fail(`no run in ${dirs.join(', ')} evaluated per problem at step 0 and at step ${step}`);
      const name = dirs.map((d) => basename(resolve(d))).join(',');
      console.log([familiesBegin(step, name), ...familyTable(table, step), FAMILIES_END].join('\n'));
      return 0;
    },
  },
];

const DIR_ARG =
  'DIR: docs/results-data, one of its subdirectories, or run directories (a mode and seed found in several comes from the first)';

/** A subcommand's spec: its --help and its parser's flags come from the one flag table above. */
function specOf(cmd: Command): CliSpec {
  return {
    command: `npm run targets -- ${cmd.name}`,
    summary: cmd.what,
    usage: [`npm run targets -- ${cmd.name} ${cmd.args} [flags]`],
    positional: DIR_ARG,
    flags: cmd.flags,
    examples: [`npm run targets -- ${cmd.name} docs/results-data/heldout-task --step 40`],
  };
}

const TARGETS_SPEC: CliSpec = {
  command: 'npm run targets',
  summary: 'questions about a result, one sub-command each, with paired 95% intervals',
  usage: ['npm run targets -- COMMAND DIR ... [flags]   (each COMMAND has its own --help)'],
  flags: [],
  subcommands: COMMANDS.map((c) => c.name),
  notes: COMMANDS.map((c) => `${c.name}: ${c.what}`),
  examples: ['npm run targets -- judge docs/results-data/heldout-task --step 40'],
};

/** The subcommand an old flag became. */
const MOVED: Record<string, string> = {
  versus: 'versus DIR --base BASE_DIR',
  'versus-step': 'versus ... --base-step N',
  'versus-mode': 'versus ... --base-mode MODE',
  novelty: 'novelty DIR',
  headline: 'headline DATA --rows DIR:MODE,...',
  'tester-counts': 'tester-counts DIR',
  'by-family': 'by-family DIR',
};

/** One SVG per kind of renamed instance: each mode's pass@1 curve on those instances (seeds pooled), with its band. */
async function noveltyPlots(runs: readonly TargetRun[], out: string): Promise<string[]> {
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
    const title = `Coder pass@1 on renamed instances: ${NOVELTY_LABEL[kind]} (bands: 95% CI)`;
    await writeFile(file, lineChartSvg(title, series, { xLabel: 'step', yLabel: 'pass@1 (%)' }));
    written.push(file);
  }
  return written;
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2).filter((a) => a !== '--');
  if (!argv.length || argv[0] === '--help' || argv[0] === 'help') {
    console.log(helpText(TARGETS_SPEC));
    return 0;
  }
  const moved = argv.find((a) => a.startsWith('--') && MOVED[a.slice(2).split('=')[0]]);
  if (moved)
    return fail(
      `${moved.split('=')[0]} is now a subcommand: npm run targets -- ${MOVED[moved.slice(2).split('=')[0]]}`,
    );
  // `npm run targets -- DIR ...` (the old spelling) judges the targets.
  const named = COMMANDS.find((c) => c.name === argv[0]);
  const cmd = named ?? COMMANDS[0];
  const rest = named ? argv.slice(1) : argv;
  let parsed;
  try {
    parsed = parseCli(specOf(cmd), rest);
  } catch (e) {
    return fail(`${cmd.name}: ${(e as Error).message}`, cmd);
  }
  if (!parsed) return 0;
  if (!parsed.positional.length) return fail(`${cmd.name} needs ${cmd.args}`, cmd);
  return cmd.run(parsed.args, parsed.positional);
}

runMain(main, { stack: false });
