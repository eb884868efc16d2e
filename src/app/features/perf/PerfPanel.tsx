// Perf panel: GPU time per kernel family, tokens/s, GPU memory in use, sandbox throughput, step time breakdown.
import { useLab } from '../../store';
import { client } from '../../lab';

const MB = 1 << 20;

/** The step's time as one bar: segments in proportion, 0 s parts left out, names and seconds in a legend below. */
function StepBreakdown({ parts }: { parts: { name: string; s: number; cls: string }[] }) {
  const total = parts.reduce((a, p) => a + p.s, 0);
  // A part under 0.5% of the step would be a sliver: it shows in the legend only.
  const shown = parts.filter((p) => total > 0 && p.s / total >= 0.005);
  return (
    <div data-testid="step-breakdown">
      <div className="stack" role="img" aria-label={parts.map((p) => `${p.name} ${p.s.toFixed(2)} s`).join(', ')}>
        {shown.map((p) => (
          <div
            key={p.name}
            className={`seg ${p.cls}`}
            style={{ flexGrow: p.s, flexBasis: 0 }}
            data-seg={p.name}
            title={`${p.name} ${p.s.toFixed(2)} s`}
          />
        ))}
      </div>
      <ul className="stack-legend">
        {parts.map((p) => (
          <li key={p.name} data-testid="breakdown-label">
            <span className={`swatch ${p.cls}`} aria-hidden="true" /> {p.name} {p.s.toFixed(2)} s
            {total > 0 ? ` (${((100 * p.s) / total).toFixed(0)}%)` : ''}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function PerfPanel() {
  const perf = useLab((s) => s.perf);
  const runId = useLab((s) => s.runId);
  const live = useLab((s) => s.series.find((r) => r.id === runId));
  const m = live?.metrics.at(-1);
  const totalKernel = perf.kernelTimes.reduce((a, k) => a + k.ms, 0);
  const parts = m
    ? [
        { name: 'rollout', s: m['time/rollout_s'], cls: 'b-rollout' },
        { name: 'sandbox', s: m['time/sandbox_s'], cls: 'b-sandbox' },
        { name: 'update', s: m['time/update_s'], cls: 'b-update' },
        {
          name: 'other',
          s: Math.max(0, m['time/step_s'] - m['time/rollout_s'] - m['time/sandbox_s'] - m['time/update_s']),
          cls: 'b-other',
        },
      ]
    : [];
  return (
    <section className="panel" data-testid="perf">
      <dl className="kv">
        <dt>tokens / s (rollout)</dt>
        <dd data-testid="perf-tokens">{m ? m['perf/tokens_per_s'].toFixed(1) : '–'}</dd>
        <dt>GPU memory in pooled buffers</dt>
        <dd data-testid="perf-gpu-mem">{(perf.gpuBytes / MB).toFixed(1)} MiB</dd>
        <dt>sandbox</dt>
        <dd data-testid="perf-sandbox">
          {perf.sandboxCalls} calls, {perf.sandboxCalls ? (perf.sandboxMs / perf.sandboxCalls).toFixed(1) : '–'} ms each
          on average
          {m && m['time/sandbox_s'] > 0 && perf.stepSandboxCalls > 0
            ? ` · last step ${perf.stepSandboxCalls} calls in ${m['time/sandbox_s'].toFixed(2)} s = ${(perf.stepSandboxCalls / m['time/sandbox_s']).toFixed(1)} calls/s`
            : ''}
        </dd>
      </dl>
      <h3>Step time (last step{m ? ` ${m.step}: ${m['time/step_s'].toFixed(2)} s` : ''})</h3>
      {m && <StepBreakdown parts={parts} />}
      <h3>GPU time per kernel family</h3>
      <label className="check">
        <input
          type="checkbox"
          data-testid="profile"
          checked={perf.profiling}
          onChange={(e) => client.setProfiling(e.target.checked)}
        />{' '}
        profile kernels (timestamp queries, one pass per dispatch: slower; figures appear after the next step)
      </label>
      {perf.kernelTimes.length > 0 && (
        <table className="kvtable" data-testid="kernel-times">
          <thead>
            <tr>
              <th scope="col">family</th>
              <th scope="col">ms</th>
              <th scope="col">dispatches</th>
              <th scope="col">share</th>
            </tr>
          </thead>
          <tbody>
            {perf.kernelTimes
              .slice()
              .sort((a, b) => b.ms - a.ms)
              .map((k) => (
                <tr key={k.family}>
                  <td>{k.family}</td>
                  <td>{k.ms.toFixed(2)}</td>
                  <td>{k.dispatches}</td>
                  <td>{((100 * k.ms) / (totalKernel || 1)).toFixed(1)}%</td>
                </tr>
              ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
