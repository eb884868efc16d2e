// Eval panel: what the run's own records say (hidden-test pass rate first vs latest, tester validity, CodeT-style
// selection), and how to get the held-out pass@1 and white-box mutation score.
import { labStore, useLab } from '../../store';
import { client } from '../../lab';
import type { EvalReport } from '../../store/types';
import { codetSelection } from './codet';
import { NumberField } from '../fields';

const pct = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '–' : `${(100 * x).toFixed(1)}%`);

/** The evaluation's two counts: problems per split and coder samples per problem. */
const EVAL_COUNTS = [
  { key: 'problems', max: 200, width: 60 },
  { key: 'samples', max: 16, width: 50 },
] as const;

export function EvalPanel() {
  const steps = useLab((s) => s.rolloutSteps);
  const series = useLab((s) => s.series);
  const runId = useLab((s) => s.runId);
  const live = series.find((r) => r.id === runId);
  const first = steps[0];
  const last = steps.at(-1);
  const hidden = (rs: (typeof steps)[number] | undefined) => {
    if (!rs) return undefined;
    const c = rs.rollouts.flatMap((r) => r.candidates);
    return c.length ? c.reduce((a, x) => a + x.hiddenPassRate, 0) / c.length : undefined;
  };
  const sel = last ? codetSelection(last.rollouts) : undefined;
  const m0 = live?.metrics[0];
  const m1 = live?.metrics.at(-1);
  return (
    <section className="panel" data-testid="eval">
      <HeldOut />
      <h3>From the run’s own records</h3>
      <table className="kvtable">
        <thead>
          <tr>
            <th />
            <th>first kept step{first ? ` (${first.step})` : ''}</th>
            <th>latest step{last ? ` (${last.step})` : ''}</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>Coder pass rate on the batch’s hidden tests</td>
            <td>{pct(hidden(first))}</td>
            <td>{pct(hidden(last))}</td>
          </tr>
          <tr>
            <td>Tester: share of valid tests</td>
            <td>{pct(m0?.['tester/valid_test_rate'])}</td>
            <td>{pct(m1?.['tester/valid_test_rate'])}</td>
          </tr>
        </tbody>
      </table>
      {sel && sel.problems > 0 && (
        <>
          <h3>CodeT-style selection (latest step)</h3>
          <p className="note">
            Pick, per problem, the candidate that passes the most valid generated tests, and score it on the hidden
            tests. Good tests make this pick beat a random one.
          </p>
          <table className="kvtable" data-testid="codet">
            <tbody>
              <tr>
                <td>random candidate</td>
                <td>{pct(sel.randomPick)}</td>
              </tr>
              <tr>
                <td>picked by generated tests</td>
                <td>{pct(sel.testPick)}</td>
              </tr>
              <tr>
                <td>best candidate (oracle)</td>
                <td>{pct(sel.oraclePick)}</td>
              </tr>
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

function HeldOut() {
  const evals = useLab((s) => s.evals);
  const progress = useLab((s) => s.evalProgress);
  const status = useLab((s) => s.status);
  const step = useLab((s) => s.step);
  const { split, problems, samples } = useLab((s) => s.evalOptions);
  const setOpts = labStore.getState().setEvalOptions;
  const canRun = (status === 'idle' || status === 'paused') && progress === null;
  const row = (r: EvalReport, i: number) => (
    <tr key={i} data-testid="eval-row">
      <td>{r.step === 0 ? 'before training' : `after ${r.step} steps`}</td>
      <td>
        {r.split} ({r.problems})
      </td>
      <td>{pct(r.passAt1)}</td>
      <td>{pct(r.passAt1Greedy)}</td>
      <td>{pct(r.codetPassAt1)}</td>
      <td>{pct(r.testerValidity)}</td>
      <td>{pct(r.mutationScore)}</td>
      <td>{r.seconds === undefined ? '–' : `${r.seconds.toFixed(0)} s`}</td>
    </tr>
  );
  return (
    <>
      <h3>Held-out evaluation</h3>
      <p className="note">
        The current models on tasks never trained on (no training instance poses them under any function name), judged
        on hidden tests; the Tester on the same problems’ shipped bug mutants. “Renamed instances” are held out by
        instance: most pose a training task under another function name, so they measure recall as much as
        generalisation. Run it before the first step and again after training to compare. Headless:{' '}
        <code>npm run eval -- --run runs/NAME</code>.
      </p>
      <div className="form-row">
        <select
          aria-label="held-out split"
          value={split}
          onChange={(e) => setOpts({ split: e.target.value as typeof split })}
        >
          <option value="heldout">held-out tasks (never trained on)</option>
          <option value="heldout-family">held-out families</option>
          <option value="renamed">renamed instances (training tasks, other names)</option>
        </select>
        {EVAL_COUNTS.map(({ key, max, width }) => (
          <NumberField
            key={key}
            label={key}
            testId={`eval-${key}`}
            min={1}
            max={max}
            value={key === 'problems' ? problems : samples}
            width={width}
            onChange={(v) => setOpts({ [key]: Math.max(1, v || 1) })}
          />
        ))}
        <button data-testid="run-eval" disabled={!canRun} onClick={() => client.evaluate(split, problems, samples)}>
          Evaluate at step {step}
        </button>
        {progress && <span className="muted">{progress}</span>}
      </div>
      {evals.length > 0 && (
        <table className="kvtable" data-testid="eval-table">
          <thead>
            <tr>
              <th>when</th>
              <th>split</th>
              <th>pass@1</th>
              <th>greedy</th>
              <th>CodeT pick</th>
              <th>tester validity</th>
              <th title="share of mutants of the reference that the Tester breaks with valid tests it wrote after reading that mutant">
                white-box mutation score
              </th>
              <th>took</th>
            </tr>
          </thead>
          <tbody>{evals.map(row)}</tbody>
        </table>
      )}
    </>
  );
}
