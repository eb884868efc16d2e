// Charts panel: rewards, pass rates, Mistake Book, KL / entropy / loss / tokens/s, with several runs overlaid.
import type uPlot from 'uplot';
import type { MetricKey } from '../../../rl/metrics';
import { useLab } from '../../store';
import { labStore } from '../../store';
import type { LabState } from '../../store/types';
import { alignRuns } from './series';
import { UPlotChart, type ChartSpec } from './UPlotChart';

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2'];
const DASHES: (number[] | undefined)[] = [undefined, [6, 4], [2, 3], [10, 3, 2, 3]];

function metricChart(id: string, title: string, keys: { key: MetricKey; label: string }[]): ChartSpec {
  return {
    id,
    title,
    deps: (s) => [s.series, s.hidden],
    build: (s: LabState) => {
      const runs = s.series.filter((r) => !s.hidden.includes(r.id));
      const data = alignRuns(runs, keys.map((k) => k.key));
      const series: uPlot.Series[] = runs.flatMap((_r, ri) =>
        keys.map((k, ki) => ({
          label: runs.length > 1 ? `${k.label} [${ri + 1}]` : k.label,
          stroke: COLORS[ki % COLORS.length],
          dash: DASHES[ri % DASHES.length],
          width: 1.5,
          spanGaps: false,
          points: { show: true, size: 4 },
        })),
      );
      return { data, series };
    },
  };
}

export const CHARTS: ChartSpec[] = [
  metricChart('coder-reward', 'Coder reward', [
    { key: 'coder/reward_mean', label: 'coder reward' },
    { key: 'coder/reward_std', label: 'std' },
  ]),
  metricChart('tester-reward', 'Tester reward = α·validity + (1−α)·adversarial', [
    { key: 'tester/reward_mean', label: 'tester reward' },
    { key: 'tester/validity_mean', label: 'validity' },
    { key: 'tester/adversarial_mean', label: 'adversarial' },
  ]),
  metricChart('pass-rates', 'Pass rates', [
    { key: 'coder/pass_rate', label: 'coder pass (generated tests)' },
    { key: 'tester/valid_test_rate', label: 'valid tests' },
    { key: 'mistake_book/replay_pass_rate', label: 'replay pass' },
  ]),
  metricChart('mistake-book', 'Mistake Book size', [{ key: 'mistake_book/size', label: 'entries' }]),
  metricChart('kl', 'KL to reference (k3)', [
    { key: 'coder/kl', label: 'coder' },
    { key: 'tester/kl', label: 'tester' },
    { key: 'rollout/mismatch_kl', label: 'rollout↔learner' },
  ]),
  metricChart('entropy', 'Entropy', [
    { key: 'coder/entropy', label: 'coder' },
    { key: 'tester/entropy', label: 'tester' },
  ]),
  metricChart('loss', 'GRPO loss', [
    { key: 'coder/loss', label: 'coder' },
    { key: 'tester/loss', label: 'tester' },
  ]),
  metricChart('tokens', 'Tokens / s (rollout)', [{ key: 'perf/tokens_per_s', label: 'tokens/s' }]),
  metricChart('clip', 'Clipped token fractions', [
    { key: 'coder/clip_ratio/low_mean', label: 'coder low' },
    { key: 'coder/clip_ratio/high_mean', label: 'coder high' },
    { key: 'tester/clip_ratio/low_mean', label: 'tester low' },
    { key: 'tester/clip_ratio/high_mean', label: 'tester high' },
  ]),
  metricChart('zero-std', 'Groups with no reward spread (no GRPO signal)', [
    { key: 'coder/frac_reward_zero_std', label: 'coder' },
    { key: 'tester/frac_reward_zero_std', label: 'tester' },
  ]),
  metricChart('lengths', 'Completion length (tokens)', [
    { key: 'completions/coder_mean_length', label: 'coder' },
    { key: 'completions/tester_mean_length', label: 'tester' },
  ]),
  metricChart('step-time', 'Step time (s)', [
    { key: 'time/step_s', label: 'step' },
    { key: 'time/rollout_s', label: 'rollout' },
    { key: 'time/sandbox_s', label: 'sandbox' },
    { key: 'time/update_s', label: 'update' },
  ]),
];

/** Charts never re-render from React: only this legend follows the store. */
export function ChartsPanel() {
  return (
    <section className="panel" data-testid="charts">
      <RunsLegend />
      <div className="chart-grid">
        {CHARTS.map((c) => (
          <UPlotChart key={c.id} spec={c} />
        ))}
      </div>
    </section>
  );
}

function RunsLegend() {
  const series = useLab((s) => s.series);
  const hidden = useLab((s) => s.hidden);
  return (
      <div className="runs-legend">
        {series.map((r, i) => (
          <label key={r.id} className="run-chip">
            <input type="checkbox" checked={!hidden.includes(r.id)} onChange={() => labStore.getState().toggleSeries(r.id)} />
            <span className="dash">
              [{series.filter((x) => !hidden.includes(x.id)).indexOf(r) + 1 || '–'}] {['───', '– – –', '· · ·', '–·–·'][series.filter((x) => !hidden.includes(x.id)).indexOf(r) % 4] ?? ''}
            </span>{' '}
            {r.label} ({r.metrics.length} steps)
            {i > 0 && (
              <button className="link" title="Remove from the comparison" onClick={() => labStore.getState().removeSeries(r.id)}>
                ✕
              </button>
            )}
          </label>
        ))}
        {!series.length && <span className="muted">No steps yet: start a run, or add a finished run to compare.</span>}
      </div>
  );
}
