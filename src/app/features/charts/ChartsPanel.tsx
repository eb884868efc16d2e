// Charts panel: rewards, pass rates, Mistake Book, KL / entropy / loss / tokens/s, with several runs overlaid as in
// W&B: one colour and marker shape per run (a dash per metric), a compact legend on every chart, metrics a mode lacks
// left out, a runs table with show/hide, EMA smoothing and a log-scale toggle.
import type uPlot from 'uplot';
import type { MetricKey, Mode } from '../../../rl/metrics';
import { useLab } from '../../store';
import type { LabState } from '../../store/types';
import { alignRuns, smoothEma, type ChartKey } from './series';
import { RELEASE_METRICS } from '../../../export/verl/logs';
import { UPlotChart, type ChartSpec, type LegendEntry } from './UPlotChart';
import { MARKER_GLYPH, markerPaths, metricExists, runMarker } from './markers';
import { HELD_OUT_CHART } from './heldout-chart';
import { RunsTable } from './RunsTable';
import { runColor } from './run-color';

/** One dash per metric within a chart. */
const DASHES: (number[] | undefined)[] = [undefined, [6, 4], [2, 3], [10, 3, 2, 3]];
export const DASH_TEXT = ['───', '– – –', '· · ·', '–·–·'];

function metricChart(id: string, title: string, yLabel: string, keys: { key: ChartKey; label: string }[]): ChartSpec {
  return {
    id,
    title,
    yLabel,
    deps: (s) => [s.series, s.hidden, s.smoothing, s.logScale, s.presenter],
    key: keys.length > 1 ? keys.map((k, i) => `${DASH_TEXT[i % DASH_TEXT.length]} ${k.label}`) : undefined,
    log: (s) => s.logScale,
    build: (s: LabState) => {
      const runs = s.series.filter((r) => !s.hidden.includes(r.id));
      const [xs, ...cols] = alignRuns(
        runs,
        keys.map((k) => k.key),
      );
      const data: (number | null)[][] = [xs];
      const series: uPlot.Series[] = [];
      const legend: LegendEntry[] = [];
      const absentByMode = new Map<string, { entry: LegendEntry; runs: string[] }>();
      runs.forEach((r, ri) => {
        const n = s.series.indexOf(r);
        const marker = runMarker(n);
        let shown = 0;
        keys.forEach((k, ki) => {
          // A metric the run's mode does not have (golden: no Tester, no Mistake Book) is not drawn at all.
          if (!metricExists(r.mode, k.key)) return;
          const col = smoothEma(cols[ri * keys.length + ki], s.smoothing);
          data.push(col);
          series.push({
            label: runs.length > 1 ? `${k.label} #${n + 1}` : k.label,
            stroke: runColor(s, r.id),
            dash: DASHES[ki % DASHES.length],
            width: ki === 0 ? 2 : 1.5,
            spanGaps: false,
            points: {
              show: true,
              size: 8,
              width: 1,
              fill: runColor(s, r.id),
              stroke: runColor(s, r.id),
              paths: markerPaths(marker, 8),
            },
          });
          if (shown++ === 0) {
            const last = col.filter((v): v is number => v !== null).at(-1);
            legend.push({
              color: runColor(s, r.id),
              glyph: MARKER_GLYPH[marker],
              label: `#${n + 1} ${r.mode}`,
              value: last === undefined ? '–' : shortValue(last),
              title: `${r.label}: last ${k.label}`,
            });
          }
        });
        if (!shown) {
          // Runs of a mode without this metric share one entry ("#4 #5 golden"): six reference runs would otherwise
          // spend a legend line each on the same notice and push the chart off a 720-pixel first screen.
          const same = absentByMode.get(r.mode);
          if (same) {
            same.runs.push(`#${n + 1}`);
            same.entry.label = `${same.runs.join(' ')} ${r.mode}`;
            same.entry.title += `; ${r.label}`;
          } else {
            const entry: LegendEntry = {
              color: runColor(s, r.id),
              glyph: MARKER_GLYPH[marker],
              label: `#${n + 1} ${r.mode}`,
              value: `no ${keys[0].label} in ${r.mode} mode`,
              title: r.label,
              absent: true,
            };
            absentByMode.set(r.mode, { entry, runs: [`#${n + 1}`] });
            legend.push(entry);
          }
        }
      });
      return { data, series, legend };
    },
  };
}

/** A legend number: three significant digits, exponent form when tiny or huge. */
function shortValue(v: number): string {
  const a = Math.abs(v);
  return a !== 0 && (a < 1e-3 || a >= 1e5) ? v.toExponential(1) : String(Number(v.toPrecision(3)));
}

/** A metric both roles report, as `coder/<name>` and `tester/<name>`. */
type RoleMetric = {
  [K in MetricKey]: K extends `coder/${infer N}` ? (`tester/${N}` extends MetricKey ? N : never) : never;
}[MetricKey];

/** The coder's and the tester's series of one metric, labelled by role. */
function byRole(name: RoleMetric): { key: MetricKey; label: string }[] {
  return (['coder', 'tester'] as const).map((role) => ({ key: `${role}/${name}` as const, label: role }));
}

export const CHARTS: ChartSpec[] = [
  metricChart('coder-reward', 'Coder reward', 'reward', [
    { key: 'coder/reward_mean', label: 'coder reward' },
    { key: 'coder/reward_std', label: 'std' },
  ]),
  metricChart('tester-reward', 'Tester reward = α·validity + (1−α)·adversarial', 'reward', [
    { key: 'tester/reward_mean', label: 'tester reward' },
    { key: 'tester/validity_mean', label: 'validity' },
    { key: 'tester/adversarial_mean', label: 'adversarial' },
  ]),
  metricChart('pass-rates', 'Pass rates', 'share', [
    { key: 'coder/pass_rate', label: 'coder pass (generated tests)' },
    { key: 'tester/valid_test_rate', label: 'valid tests' },
    { key: 'mistake_book/replay_pass_rate', label: 'replay pass' },
    // A cluster run of the release (import-run) logs these by its own definitions: drawn apart, named as such.
    ...Object.entries(RELEASE_METRICS).map(([key, m]) => ({ key: key as ChartKey, label: m.label })),
  ]),
  HELD_OUT_CHART,
  metricChart('mistake-book', 'Mistake Book size', 'tests', [{ key: 'mistake_book/size', label: 'entries' }]),
  metricChart('kl', 'KL to reference (k3)', 'KL (nats/token)', [
    ...byRole('kl'),
    { key: 'rollout/mismatch_kl', label: 'rollout↔learner' },
  ]),
  metricChart('entropy', 'Entropy', 'nats/token', byRole('entropy')),
  metricChart('loss', 'GRPO loss', 'loss', byRole('loss')),
  metricChart('tokens', 'Tokens / s (rollout)', 'tokens/s', [{ key: 'perf/tokens_per_s', label: 'tokens/s' }]),
  metricChart('clip', 'Clipped token fractions', 'share of tokens', [
    { key: 'coder/clip_ratio/low_mean', label: 'coder low' },
    { key: 'coder/clip_ratio/high_mean', label: 'coder high' },
    { key: 'tester/clip_ratio/low_mean', label: 'tester low' },
    { key: 'tester/clip_ratio/high_mean', label: 'tester high' },
  ]),
  metricChart(
    'zero-std',
    'Groups with no reward spread (no GRPO signal)',
    'share of groups',
    byRole('frac_reward_zero_std'),
  ),
  metricChart('lengths', 'Completion length (tokens)', 'tokens', [
    { key: 'completions/coder_mean_length', label: 'coder' },
    { key: 'completions/tester_mean_length', label: 'tester' },
  ]),
  metricChart('step-time', 'Step time (s)', 'seconds', [
    { key: 'time/step_s', label: 'step' },
    { key: 'time/rollout_s', label: 'rollout' },
    { key: 'time/sandbox_s', label: 'sandbox' },
    { key: 'time/update_s', label: 'update' },
  ]),
];

/** What the coder and tester lines mean in the current run's mode (the same metric names carry each method's signal). */
export const CHART_MODE_NOTES: Record<Mode, string> = {
  'code-a1':
    'Coder reward: pass rate on the Tester’s validated tests. Tester reward: α·validity + (1−α)·adversarial. Both models learn by GRPO.',
  golden:
    'Coder reward: pass rate on the problem’s own tests. No Tester: its lines and the Mistake Book are not drawn.',
  'self-play':
    'One model: its coder reward is the pass rate on its own tests, its tester reward α·validity + (1−α)·adversarial; both update the same weights.',
  tcs: 'Coder reward as Code-A1. Tester reward: stage 1 consistency with the reference solution, stage 2 counterexamples to buffered failing programs (the switch shows as a jump). Both learn by GRPO.',
  ace: 'No ground truth. Coder reward: share of programs that survived every well-formed adversarial input (they are SFT data). Tester reward: share of input groups that broke their program (KTO desirable); tester validity = share of well-formed inputs, tester KL = the KTO reference point z.',
};

function ModeCaption() {
  const mode = useLab((s) => s.config.mode);
  return (
    <p className="note" data-testid="charts-mode-note">
      {CHART_MODE_NOTES[mode]}
    </p>
  );
}

/** Charts never re-render from React: only the runs table follows the store. */
export function ChartsPanel() {
  return (
    <section className="panel" data-testid="charts">
      <ModeCaption />
      <RunsTable />
      <div className="chart-grid">
        {CHARTS.map((c) => (
          <UPlotChart key={c.id} spec={c} />
        ))}
      </div>
    </section>
  );
}
