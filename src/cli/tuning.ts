// `npm run tuning -- docs/results-data/tuning [--reference p16-lr2e-4] [--out docs/plots/tuning]`: the candidate
// settings judged on the training split only (their Coder's pass@1 on the RL training instances, paired against the
// start and the reference setting), the setting it picks, and two plots against problems seen: the training batches'
// pass rate and the train-rl pass@1 with its 95% band.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs, runMain } from './args';
import { lineChartSvg, PALETTE, type Series } from '../rl/plot-svg';
import { loadTuning } from '../rl/tuning-node';
import { BATCH_WINDOW, choiceLine, tuningTable } from '../rl/tuning';

/** A trailing moving average (the first points average what there is). */
function movingAverage(ys: readonly number[], w: number): number[] {
  return ys.map((_, i) => {
    const win = ys.slice(Math.max(0, i - w + 1), i + 1);
    return win.reduce((a, b) => a + b, 0) / win.length;
  });
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2).filter((a) => a !== '--');
  // The tuning directory is the one positional argument; --reference and --out take values.
  const positional = argv.filter((a, i) => !a.startsWith('--') && !(i > 0 && argv[i - 1].startsWith('--')));
  const args = parseArgs(
    argv.filter((a) => !positional.includes(a)),
    { reference: 'string', out: 'string' },
  );
  const [dir] = positional;
  if (!dir || positional.length > 1) {
    console.error('usage: npm run tuning -- DIR [--reference NAME] [--out docs/plots/tuning]');
    return 2;
  }
  const reference = (args.reference as string | undefined) ?? 'p16-lr2e-4';
  const { start, runs } = loadTuning(dir);
  console.log(tuningTable(runs, start, reference).join('\n'));
  console.log(`\n${choiceLine(runs)}`);
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
  const pass: Series[] = runs.map((r, i) => ({
    name: r.name,
    color: color(i),
    x: [0, r.metrics.length * r.problemsPerStep],
    y: [100 * start.coderPass1, 100 * r.end.coderPass1],
    lo: [ci(start, 0), ci(r.end, 0)],
    hi: [ci(start, 1), ci(r.end, 1)],
  }));
  await writeFile(
    join(out, 'train-rl-pass1.svg'),
    lineChartSvg('Coder pass@1 on the RL training instances, start and end (bands: 95% CI over problems)', pass, {
      xLabel: 'problems seen',
      yLabel: 'pass@1 (%)',
    }),
  );
  console.log(`wrote ${out}/train-batches.svg and ${out}/train-rl-pass1.svg`);
  return 0;
}

runMain(main, { stack: false });
