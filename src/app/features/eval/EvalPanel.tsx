// Eval panel: what the run's own records say (hidden-test pass rate first vs latest, tester validity, CodeT-style
// selection), and how to get the held-out pass@1 and mutation score.
import { useLab } from '../../store';
import { codetSelection } from './codet';

const pct = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '–' : `${(100 * x).toFixed(1)}%`);

export function EvalPanel() {
  const steps = useLab((s) => s.rolloutSteps);
  const series = useLab((s) => s.series);
  const runId = useLab((s) => s.runId);
  const live = series.find((r) => r.id === runId);
  const first = steps[0];
  const last = steps.at(-1);
  const hidden = (rs: typeof steps[number] | undefined) => {
    if (!rs) return undefined;
    const c = rs.rollouts.flatMap((r) => r.candidates);
    return c.length ? c.reduce((a, x) => a + x.hiddenPassRate, 0) / c.length : undefined;
  };
  const sel = last ? codetSelection(last.rollouts) : undefined;
  const m0 = live?.metrics[0];
  const m1 = live?.metrics.at(-1);
  return (
    <section className="panel" data-testid="eval">
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
            Pick, per problem, the candidate that passes the most valid generated tests, and score it on the hidden tests. Good tests make this pick beat a random one.
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
      <p className="note">
        Held-out pass@1 (hidden tests of problems never trained on) and the Tester’s mutation score on the shipped mutants: <code>npm run eval -- --run runs/NAME</code> on
        an exported run’s files, or before/after by evaluating the starting checkpoint and the trained one.
      </p>
    </section>
  );
}
