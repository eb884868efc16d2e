// `npm run plots -- runs/A runs/B ... [--out docs/plots]`: regenerates the result figures (SVG) from each run's
// metrics.jsonl and eval.jsonl, overlaying the runs (e.g. code-a1 vs golden vs self-play), and prints the results
// table rows (every held-out evaluation of every run).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseCli } from './cli-spec';
import { PLOTS_SPEC } from './help/analysis-specs';
import { parseMetricsJsonl, type MetricKey, type StepMetrics } from '../rl/metrics';
import { lineChartSvg, PALETTE, type Series } from '../analysis/plot-svg';
import type { CiMetric } from '../run/eval-ci';
import { RESULTS_HEADER, resultsRow } from '../analysis/results-table';
import { parseEvalPoints, RUN_FILES, type EvalPoint } from '../run/run-layout';
import { poolSeeds } from '../analysis/targets';
import type { SplitReport } from '../run/eval';
import { isMode, trainsTester } from '../rl/modes';
import { runMain, UsageError } from './args';
import { runLabels } from './run-labels';

/** Scale and y-axis label of each plotted evaluation metric (shares in %; mut@k and Mul already are). */
const EVAL_AXES = {
  coderPass1: [100, 'pass@1 (%)'],
  coderPass1Greedy: [100, 'pass@1 (%)'],
  mutationScore: [100, 'mutants killed (%)'],
  testerValidity: [100, 'valid tests (%)'],
  mutAtK: [1, 'mut@k (%)'],
  mul: [1, 'Mul'],
} as const satisfies Partial<Record<CiMetric, readonly [number, string]>>;

/** The evaluation plots: file, title (the CI bands' note is appended), split, metric. */
const EVAL_PLOTS: [file: string, title: string, split: string, key: keyof typeof EVAL_AXES][] = [
  ['pass1-heldout.svg', 'Coder pass@1, held-out tasks (never trained on)', 'heldout', 'coderPass1'],
  ['pass1-greedy-heldout.svg', 'Coder greedy pass@1, held-out tasks', 'heldout', 'coderPass1Greedy'],
  ['pass1-heldout-family.svg', 'Coder pass@1, held-out families', 'heldout-family', 'coderPass1'],
  [
    'pass1-renamed.svg',
    'Coder pass@1, renamed instances (mostly training tasks under other names)',
    'renamed',
    'coderPass1',
  ],
  ['mutation-score.svg', 'Tester white-box mutation score (held-out)', 'heldout', 'mutationScore'],
  ['tester-validity-eval.svg', 'Tester validity on held-out tasks', 'heldout', 'testerValidity'],
  ['mut-at-k.svg', 'Tester mut@k on the reference (held-out)', 'heldout', 'mutAtK'],
  ['mul.svg', 'Tester Mul = pass@k × mut@k / 100 (held-out)', 'heldout', 'mul'],
];

/** A run named `<mode>-s<seed>` (the reference runs' records). */
const SEEDED = /^(.+)-s(\d+)$/;
const modeOf = (name: string): string | undefined => SEEDED.exec(name)?.[1];
/** Whether a run's Tester belongs on a collusion chart: not for a mode that trains none (golden would only repeat the
 * start); a name that names no mode is kept. */
const showsTester = (mode: string | undefined) => mode === undefined || !isMode(mode) || trainsTester(mode);
/** One run's (or mode's) pair of lines on a collusion chart: validity solid, mutation score dashed, one colour. */
const collusionLines = (label: string, validity: Series, killed: Series, color: string): Series[] => [
  { ...validity, name: `${label} validity`, color },
  { ...killed, name: `${label} mutation score`, color, dashed: true },
];
const COLLUSION_TITLE = 'Tester validity (solid) and white-box mutation score (dashed), held-out';

/** A run's eval.jsonl (none: no evaluations); a repeated step is an error naming the file and line. */
async function readEvals(path: string): Promise<EvalPoint[]> {
  try {
    return parseEvalPoints(await readFile(path, 'utf8'), path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

async function main(): Promise<number> {
  const parsed = parseCli(PLOTS_SPEC, process.argv.slice(2));
  if (!parsed) return 0;
  const out = (parsed.args.out as string | undefined) ?? join('docs', 'plots');
  const runs = parsed.positional;
  if (!runs.length) throw new UsageError('give one or more run directories (see --help)');
  const labels = runLabels(runs);
  const data = await Promise.all(
    runs.map(async (dir, i) => ({
      name: labels[i],
      metrics: parseMetricsJsonl(
        await readFile(join(dir, RUN_FILES.metrics), 'utf8'),
        join(dir, RUN_FILES.metrics),
      ) as StepMetrics[],
      evals: await readEvals(join(dir, RUN_FILES.evals)),
    })),
  );
  await mkdir(out, { recursive: true });
  const metricPlot = async (file: string, title: string, key: MetricKey, yLabel: string) => {
    const series: Series[] = data.map((d, i) => ({
      name: d.name,
      color: colorOf(i),
      x: d.metrics.map((m) => m.step),
      y: d.metrics.map((m) => m[key]),
    }));
    await writeFile(join(out, file), lineChartSvg(title, series, { xLabel: 'step', yLabel }));
  };
  const colorOf = (i: number) => PALETTE[i % PALETTE.length];
  /** One series per run from its eval.jsonl, with the 95% bootstrap band where the records have one. */
  const evalSeries = (split: string, key: CiMetric, scale: number): Series[] =>
    data
      .map((d, i) => {
        const pts = d.evals
          .map((e) => ({ step: e.step, r: e.rows.find((r) => r.split === split) }))
          .filter((p): p is { step: number; r: SplitReport } => !!p.r);
        const banded = pts.length > 0 && pts.every((p) => p.r.ci);
        return {
          name: d.name,
          color: colorOf(i),
          x: pts.map((p) => p.step),
          y: pts.map((p) => scale * p.r[key]),
          ...(banded
            ? { lo: pts.map((p) => scale * p.r.ci![key][0]), hi: pts.map((p) => scale * p.r.ci![key][1]) }
            : {}),
        };
      })
      // Runs evaluated on other splits only have no points here: no empty charts.
      .filter((s) => s.x.length > 0);
  const evalPlot = async (file: string, title: string, split: string, key: CiMetric, scale: number, yLabel: string) => {
    const series = evalSeries(split, key, scale);
    if (series.length) await writeFile(join(out, file), lineChartSvg(title, series, { xLabel: 'step', yLabel }));
  };
  await metricPlot('coder-reward.svg', 'Coder reward (mean per step)', 'coder/reward_mean', 'reward');
  await metricPlot('tester-validity.svg', 'Tester validity (mean per step)', 'tester/validity_mean', 'validity');
  await metricPlot('tester-adversarial.svg', 'Tester adversarial reward', 'tester/adversarial_mean', 'adversarial');
  await metricPlot('mistake-book.svg', 'Mistake Book size', 'mistake_book/size', 'tests');
  const band = '(bands: 95% CI over problems)';
  for (const [file, title, split, key] of EVAL_PLOTS) {
    const [scale, yLabel] = EVAL_AXES[key];
    await evalPlot(file, `${title} ${band}`, split, key, scale, yLabel);
  }
  // Memorisation shows as a gap between the training batches' pass rate and the held-out one. An eval at step E
  // follows metrics lines E − every … E − 1 (line s is the step that took the trainer from s to s + 1).
  const trainVsHeldout: Series[] = evalSeries('heldout', 'coderPass1', 100).flatMap((h) => {
    const d = data.find((x) => x.name === h.name)!;
    const every = h.x.length > 1 ? h.x[1] - h.x[0] : 10;
    // The records' own trainPassRate where present (the same window), else the window from metrics.jsonl.
    const batch = h.x.map((step) => {
      const own = d.evals.find((e) => e.step === step)?.trainPassRate;
      if (own !== undefined) return 100 * own;
      const recent = d.metrics.filter((m) => m.step >= step - every && m.step < step);
      return recent.length ? (100 * recent.reduce((a, m) => a + m['coder/pass_rate'], 0)) / recent.length : NaN;
    });
    return [
      { ...h, name: `${h.name} held-out` },
      { name: `${h.name} training batches`, color: h.color, x: h.x, y: batch, dashed: true },
    ];
  });
  if (trainVsHeldout.length) {
    await writeFile(
      join(out, 'pass-train-vs-heldout.svg'),
      lineChartSvg(
        'Coder pass rate: training batches (mean of the last 10 steps, dashed) vs held-out pass@1',
        trainVsHeldout,
        { xLabel: 'step', yLabel: 'pass (%)' },
      ),
    );
  }
  // Collusion (self-play's Tester writing easy, valid tests that kill nothing) shows as validity rising while the
  // mutation score falls: both on one chart per run, the mutation score dashed.
  const validity = evalSeries('heldout', 'testerValidity', 100).filter((s) => showsTester(modeOf(s.name)));
  const killed = evalSeries('heldout', 'mutationScore', 100);
  if (!data.some((d) => d.evals.some((e) => e.rows.some((r) => r.split === 'heldout'))))
    console.error(
      'note: no run has an evaluation on the held-out split (tasks never trained on), so the held-out, collusion and pooled charts are not drawn; runs evaluated by instance only have pass1-renamed.svg',
    );
  if (validity.length) {
    // Coloured by position among the runs kept, so leaving golden out does not make two runs share a colour.
    const both = validity.flatMap((v, i) =>
      collusionLines(
        v.name,
        v,
        killed.find((k) => k.name === v.name)!,
        colorOf(i),
      ),
    );
    await writeFile(
      join(out, 'collusion.svg'),
      lineChartSvg(`${COLLUSION_TITLE} ${band}`, both, {
        xLabel: 'step',
        yLabel: '%',
      }),
    );
  }
  // Runs named <mode>-s<seed> with two or more seeds: each mode's pass@1 with every seed's samples pooled per problem
  // (targets.ts's pooled rows), one line per mode, so the modes compare without one line per seed.
  const bySeed = new Map<string, { seed: number; evals: EvalPoint[] }[]>();
  for (const d of data) {
    const m = SEEDED.exec(d.name);
    if (m) bySeed.set(m[1], [...(bySeed.get(m[1]) ?? []), { seed: Number(m[2]), evals: d.evals }]);
  }
  /** Each mode with two or more seeds, its evaluations pooled over them. */
  const pooledRuns = [...bySeed].flatMap(([mode, rs]) => {
    const pts = rs.length < 2 ? [] : (poolSeeds(rs.map((r) => ({ name: mode, mode, ...r })))?.evals ?? []);
    return pts.length ? [{ mode, label: `${mode} (seeds ${rs.map((r) => r.seed).join(', ')})`, pts }] : [];
  });
  const pooledSeries = (label: string, pts: readonly EvalPoint[], key: CiMetric, color: string): Series => ({
    name: label,
    color,
    x: pts.map((e) => e.step),
    y: pts.map((e) => 100 * e.rows[0][key]),
    lo: pts.map((e) => 100 * e.rows[0].ci![key][0]),
    hi: pts.map((e) => 100 * e.rows[0].ci![key][1]),
  });
  const pooled = pooledRuns.map((r, i) => pooledSeries(r.label, r.pts, 'coderPass1', colorOf(i)));
  // The collusion chart for the pooled seeds: one colour per mode that trains a Tester, validity solid and the
  // mutation score dashed.
  const pooledCollusion = pooledRuns
    .filter((r) => showsTester(r.mode))
    .flatMap((r, i) =>
      collusionLines(
        r.label,
        pooledSeries(r.label, r.pts, 'testerValidity', colorOf(i)),
        pooledSeries(r.label, r.pts, 'mutationScore', colorOf(i)),
        colorOf(i),
      ),
    );
  if (pooledCollusion.length)
    await writeFile(
      join(out, 'collusion-pooled.svg'),
      lineChartSvg(`${COLLUSION_TITLE}, seeds pooled ${band}`, pooledCollusion, { xLabel: 'step', yLabel: '%' }),
    );
  if (pooled.length)
    await writeFile(
      join(out, 'pass1-heldout-pooled.svg'),
      lineChartSvg(`Coder pass@1, held-out, seeds pooled ${band}`, pooled, {
        xLabel: 'step',
        yLabel: 'pass@1 (%)',
      }),
    );
  // The rows docs/results.md's table may quote (results-table.test.ts checks the page against the records).
  console.log(
    [
      ...RESULTS_HEADER,
      ...data.flatMap((d) =>
        d.evals.filter((e) => e.rows.some((r) => r.split === 'heldout')).map((e) => resultsRow(d.name, e)),
      ),
    ].join('\n'),
  );
  console.log(`wrote plots for ${data.map((d) => d.name).join(', ')} to ${out}/`);
  return 0;
}

runMain(main, { stack: false });
