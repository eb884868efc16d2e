// The runs table above the charts (as W&B's): each run's colour, what it is, what differs from its preset, its last
// numbers; show/hide and remove per run; EMA smoothing and log scale for all charts.
import { changedFields } from '../../config/run-label';
import { lastHeldOut } from '../../actions';
import { labStore, useLab } from '../../store';
import type { RunSeries } from '../../store/types';
import { runColor } from './run-color';

const pct = (x: number | undefined) => (x === undefined ? '–' : `${(100 * x).toFixed(1)}%`);
const when = (ms: number | undefined) =>
  ms ? new Date(ms).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' }) : '–';

export function RunsTable() {
  const series = useLab((s) => s.series);
  const hidden = useLab((s) => s.hidden);
  const runId = useLab((s) => s.runId);
  const evals = useLab((s) => s.evals);
  const smoothing = useLab((s) => s.smoothing);
  const logScale = useLab((s) => s.logScale);
  const st = labStore.getState();
  return (
    <div className="runs-box">
      <div className="form-row chart-controls">
        <label htmlFor="smoothing">
          smoothing (EMA){' '}
          <input
            id="smoothing"
            data-testid="smoothing"
            type="range"
            min={0}
            max={0.99}
            step={0.01}
            value={smoothing}
            onChange={(e) => st.setSmoothing(Number(e.target.value))}
          />{' '}
          <output htmlFor="smoothing">{smoothing.toFixed(2)}</output>
        </label>
        <label className="check inline">
          <input
            type="checkbox"
            data-testid="log-scale"
            checked={logScale}
            onChange={(e) => st.setLogScale(e.target.checked)}
          />{' '}
          log-scale y axes
        </label>
      </div>
      {series.length ? (
        <div className="table-scroll">
          <table className="runs-table" data-testid="runs-table">
            <thead>
              <tr>
                <th scope="col">show</th>
                <th scope="col">#</th>
                <th scope="col">run</th>
                <th scope="col">mode</th>
                <th scope="col">preset</th>
                <th scope="col">seed</th>
                <th scope="col">changed</th>
                <th scope="col">steps</th>
                <th scope="col">last coder reward</th>
                <th scope="col">held-out pass@1</th>
                <th scope="col">saved</th>
                <th scope="col">
                  <span className="sr-only">remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {series.map((r, i) => (
                <RunRow
                  key={r.id}
                  n={i + 1}
                  r={r}
                  live={r.id === runId}
                  shown={!hidden.includes(r.id)}
                  color={runColor({ series }, r.id)}
                  heldOut={r.id === runId ? lastHeldOut(evals) : r.heldOut}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">No steps yet: start a run, or overlay the reference runs (Runs panel) to compare.</p>
      )}
    </div>
  );
}

function RunRow({
  n,
  r,
  live,
  shown,
  color,
  heldOut,
}: {
  n: number;
  r: RunSeries;
  live: boolean;
  shown: boolean;
  color: string;
  heldOut: { passAt1: number; renamed?: true } | undefined;
}) {
  const last = r.metrics.at(-1);
  const diffs = r.config ? changedFields(r.config) : [];
  return (
    <tr data-testid="run-row" data-run={r.id} className={shown ? '' : 'hidden-run'}>
      <td>
        <input
          type="checkbox"
          aria-label={`show ${r.label}`}
          data-testid="run-visible"
          checked={shown}
          onChange={() => labStore.getState().toggleSeries(r.id)}
        />
      </td>
      <td className="run-num">
        <span className="swatch" style={{ background: color }} aria-hidden="true" /> #{n}
      </td>
      <td>
        <span data-testid="run-label">{r.label}</span>
        {live && <span className="badge">live</span>}
      </td>
      <td>{r.config?.mode ?? r.mode}</td>
      <td>{r.config?.preset ?? '–'}</td>
      <td>{r.config?.seed ?? '–'}</td>
      <td>{diffs.length ? diffs.map((d) => `${d.label} ${d.value}`).join(', ') : r.config ? 'preset values' : '–'}</td>
      <td data-testid="run-steps">{r.metrics.length}</td>
      <td>{last ? last['coder/reward_mean'].toFixed(3) : '–'}</td>
      <td
        title={
          heldOut?.renamed ? 'on the renamed split: evaluated before held-out meant tasks never trained on' : undefined
        }
      >
        {pct(heldOut?.passAt1)}
        {heldOut?.renamed ? ' (renamed)' : ''}
      </td>
      <td>{when(r.createdAt)}</td>
      <td>
        {!live && (
          <button
            className="link"
            aria-label={`remove ${r.label} from the comparison`}
            onClick={() => labStore.getState().removeSeries(r.id)}
          >
            ✕
          </button>
        )}
      </td>
    </tr>
  );
}
