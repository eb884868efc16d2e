// `npm run tuning -- DIR [DIR ...] [--reference p16-lr2e-4] [--out docs/plots/tuning] [--resample tasks]`: the candidate settings judged
// without held-out numbers (their Coder's pass@1 on the RL training instances, or on the part of them a run never
// trained on for runs trained on train-rl-fit / train-rl-val), paired against the start and the reference setting,
// the setting it picks, and plots against problems seen: the training batches' pass rate and the judged pass@1 with
// its 95% band (and the pass@1 on the instances trained on, when a validation part is judged). Several directories
// are seeds (pooled per problem) and folds (joined). `--resample tasks` draws the intervals over tasks (instances of
// one task, which differ only in the function name, together) instead of instances.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runMain, UsageError } from './args';
import { parseCli } from './cli-spec';
import { TUNING_SPEC } from './help/analysis-specs';
import { lineChartSvg, PALETTE, type Series } from '../analysis/plot-svg';
import { loadTunings } from '../analysis/tuning-node';
import { BATCH_WINDOW, choiceLine, tuningTable, type TuningRun } from '../analysis/tuning';
import type { SplitReport } from '../run/eval';
import { RESAMPLE_UNITS, type ResampleUnit } from '../analysis/targets';

/** A trailing moving average (the first points average what there is). */
function movingAverage(ys: readonly number[], w: number): number[] {
  return ys.map((_, i) => {
    const win = ys.slice(Math.max(0, i - w + 1), i + 1);
    return win.reduce((a, b) => a + b, 0) / win.length;
  });
}

async function main(): Promise<number> {
  // The tuning directories are the positional arguments; --reference and --out take values.
  const parsed = parseCli(TUNING_SPEC, process.argv.slice(2));
  if (!parsed) return 0;
  const { args, positional } = parsed;
  const unit = (args.resample as string | undefined) ?? 'problems';
  if (!RESAMPLE_UNITS.includes(unit as ResampleUnit))
    throw new Error(`--resample ${unit}: expected one of ${RESAMPLE_UNITS.join(', ')}`);
  if (!positional.length) throw new UsageError('give one or more tuning record directories (see --help)');
  const reference = (args.reference as string | undefined) ?? 'p16-lr2e-4';
  // Several directories: seeds pooled per problem, folds joined (tuning-node.ts).
  const tuning = loadTunings(positional, unit as ResampleUnit);
  const { runs, start, judged, fitted } = tuning;
  console.log(tuningTable(tuning, reference).join('\n'));
  console.log(`\n${choiceLine(tuning)}`);
  const out = (args.out as string | undefined) ?? join('docs', 'plots', 'tuning');
  await mkdir(out, { recursive: true });
  const color = (i: number) => PALETTE[i % PALETTE.length];
  const batches: Series[] = runs.map((r, i) => ({
    name: r.name,
    color: color(i),
    x: r.metrics.map((m) => (m.step + 1) * r.problemsPerStep),
    y: movingAverage(
      r.metrics.map((m) => 100 * m['coder/pass_rate']),
      BATCH_WINDOW,
    ),
  }));
  await writeFile(
    join(out, 'train-batches.svg'),
    lineChartSvg(`Training batches' pass rate (mean of the last ${BATCH_WINDOW} steps) per setting`, batches, {
      xLabel: 'problems seen',
      yLabel: 'pass (%)',
    }),
  );
  const ci = (r: { ci?: Record<'coderPass1', [number, number]> }, k: 0 | 1) => 100 * (r.ci?.coderPass1[k] ?? NaN);
  const passPlot = async (label: string, what: string, from: SplitReport, end: (r: TuningRun) => SplitReport) => {
    const pass: Series[] = runs.map((r, i) => ({
      name: r.name,
      color: color(i),
      x: [0, r.metrics.length * r.problemsPerStep],
      y: [100 * from.coderPass1, 100 * end(r).coderPass1],
      lo: [ci(from, 0), ci(end(r), 0)],
      hi: [ci(from, 1), ci(end(r), 1)],
    }));
    const file = join(out, `${label.replace(/[^\w-]+/g, '_')}-pass1.svg`);
    const title = `Coder pass@1 on ${what} (${label}), start and end (bands: 95% CI over ${unit})`;
    await writeFile(file, lineChartSvg(title, pass, { xLabel: 'problems seen', yLabel: 'pass@1 (%)' }));
    return file;
  };
  const written = [join(out, 'train-batches.svg')];
  const judgedWhat = fitted ? 'the validation part, never trained on' : 'the training instances RL used';
  written.push(await passPlot(judged, judgedWhat, start, (r) => r.end));
  if (fitted) written.push(await passPlot(fitted.label, 'the instances trained on', fitted.start, (r) => r.fit!));
  console.log(`wrote ${written.join(', ')}`);
  return 0;
}

runMain(main, { stack: false });
