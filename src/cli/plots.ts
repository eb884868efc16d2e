// `npm run plots -- runs/A runs/B ... [--out docs/plots]`: regenerates the result figures (SVG) from each run's
// metrics.jsonl and eval.jsonl, overlaying the runs (e.g. code-a1 vs golden vs self-play).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { parseMetricsJsonl, type MetricKey, type StepMetrics } from '../rl/metrics';
import { lineChartSvg, type Series } from '../rl/plot-svg';
import type { SplitReport } from '../rl/eval';

interface EvalPoint {
  step: number;
  rows: SplitReport[];
}

async function readJsonl<T>(path: string): Promise<T[]> {
  try {
    const text = await readFile(path, 'utf8');
    return text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as T);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  const outIdx = argv.indexOf('--out');
  const out = outIdx >= 0 ? argv[outIdx + 1] : join('docs', 'plots');
  const runs = argv.filter((a, i) => !a.startsWith('--') && !(outIdx >= 0 && i === outIdx + 1));
  if (!runs.length) {
    console.error('usage: npm run plots -- runs/A [runs/B ...] [--out docs/plots]');
    return 2;
  }
  const data = await Promise.all(
    runs.map(async (dir) => ({
      name: basename(dir),
      metrics: parseMetricsJsonl(await readFile(join(dir, 'metrics.jsonl'), 'utf8')) as StepMetrics[],
      evals: await readJsonl<EvalPoint>(join(dir, 'eval.jsonl')),
    })),
  );
  await mkdir(out, { recursive: true });
  const metricPlot = async (file: string, title: string, key: MetricKey, yLabel: string) => {
    const series: Series[] = data.map((d) => ({ name: d.name, x: d.metrics.map((m) => m.step), y: d.metrics.map((m) => m[key]) }));
    await writeFile(join(out, file), lineChartSvg(title, series, { xLabel: 'step', yLabel }));
  };
  const evalPlot = async (file: string, title: string, split: string, pick: (r: SplitReport) => number, yLabel: string) => {
    const series: Series[] = data
      .filter((d) => d.evals.length)
      .map((d) => {
        const pts = d.evals.map((e) => ({ step: e.step, r: e.rows.find((r) => r.split === split) })).filter((p) => p.r);
        return { name: d.name, x: pts.map((p) => p.step), y: pts.map((p) => pick(p.r!)) };
      })
      // Runs evaluated on other splits only have no points here: no empty charts.
      .filter((s) => s.x.length > 0);
    if (series.length) await writeFile(join(out, file), lineChartSvg(title, series, { xLabel: 'step', yLabel }));
  };
  await metricPlot('coder-reward.svg', 'Coder reward (mean per step)', 'coder/reward_mean', 'reward');
  await metricPlot('tester-validity.svg', 'Tester validity (mean per step)', 'tester/validity_mean', 'validity');
  await metricPlot('tester-adversarial.svg', 'Tester adversarial reward', 'tester/adversarial_mean', 'adversarial');
  await metricPlot('mistake-book.svg', 'Mistake Book size', 'mistake_book/size', 'tests');
  await evalPlot('pass1-heldout.svg', 'Coder pass@1, held-out problems (T=0.7)', 'heldout', (r) => 100 * r.coderPass1, 'pass@1 (%)');
  await evalPlot('pass1-heldout-family.svg', 'Coder pass@1, held-out families', 'heldout-family', (r) => 100 * r.coderPass1, 'pass@1 (%)');
  await evalPlot('mutation-score.svg', 'Tester mutation score (held-out)', 'heldout', (r) => 100 * r.mutationScore, 'mutants killed (%)');
  await evalPlot('tester-validity-eval.svg', 'Tester validity on held-out problems', 'heldout', (r) => 100 * r.testerValidity, 'valid tests (%)');
  console.log(`wrote plots for ${data.map((d) => d.name).join(', ')} to ${out}/`);
  return 0;
}

main().then(
  (c) => process.exit(c),
  (e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  },
);
