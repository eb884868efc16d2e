// Rollout inspector: for a step and problem, the prompt, each candidate's code, the tests aimed at it (valid or
// invalid), the tests × candidates pass/fail heatmap, and the rewards and advantages.
import { labStore, useLab } from '../../store';
import type { CandidateRecord, RolloutRecord, TesterRolloutRecord } from '../../../rl/records';
import { alignPassed, passMatrix } from './matrix';
import { EvolvePanel } from './EvolvePanel';
import { SelectField } from '../fields';

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '–');

export function RolloutInspector() {
  const steps = useLab((s) => s.rolloutSteps);
  const selectedStep = useLab((s) => s.selectedStep);
  const problem = useLab((s) => s.selectedProblem);
  if (!steps.length)
    return (
      <section className="panel muted" data-testid="rollouts">
        No rollouts yet: they appear after the first step.
      </section>
    );
  const entry = steps.find((r) => r.step === selectedStep) ?? steps[steps.length - 1];
  const r: RolloutRecord | undefined = entry.rollouts[Math.min(problem, entry.rollouts.length - 1)];
  return (
    <section className="panel" data-testid="rollouts">
      <div className="form-row">
        <SelectField
          label="step"
          testId="rollout-step"
          value={entry.step}
          onChange={(v) => labStore.getState().selectRollout(Number(v), 0)}
        >
          {steps.map((x) => (
            <option key={x.step} value={x.step}>
              {x.step}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="problem"
          testId="rollout-problem"
          value={problem}
          onChange={(v) => labStore.getState().selectRollout(entry.step, Number(v))}
        >
          {entry.rollouts.map((x, i) => (
            <option key={i} value={i}>
              {x.problemId}
            </option>
          ))}
        </SelectField>
        {r && (
          <span className="muted">
            mode {r.mode} · entry point <code>{r.entryPoint}</code>
          </span>
        )}
      </div>
      {r && <RolloutView r={r} />}
    </section>
  );
}

function RolloutView({ r }: { r: RolloutRecord }) {
  return (
    <>
      <h3>Problem {r.problemId}</h3>
      <pre className="code" data-testid="rollout-prompt">
        {r.prompt}
      </pre>
      <EvolvePanel key={r.problemId} problemId={r.problemId} />
      {r.replays.length > 0 && (
        <p className="note">
          Replayed from the Mistake Book: <code>{r.replays.join('  ·  ')}</code>
        </p>
      )}
      <h3>Tests × candidates</h3>
      <HeatmapLegend />
      <Heatmap r={r} />
      <h3>Candidates</h3>
      <div className="candidates">
        {r.candidates.map((c, i) => (
          <CandidateCard key={i} c={c} i={i} />
        ))}
      </div>
    </>
  );
}

/** What every mark in the heatmap means, on screen (not only in hover tooltips). */
function HeatmapLegend() {
  return (
    <dl className="heatmap-legend" data-testid="heatmap-legend">
      <dt>
        <span className="badge">valid</span>
      </dt>
      <dd>the test’s call and expected value agree with the ground truth</dd>
      <dt>
        <span className="badge">invalid·attack</span>
      </dt>
      <dd>
        wrong expected value, but its call ran: it still attacks, with the ground-truth output as the expected value
      </dd>
      <dt>
        <span className="badge">invalid</span>
      </dt>
      <dd>its call raised on the ground truth: it counts against the Tester and is not run</dd>
      <dt>
        <span className="cell-key pass">✓</span> / <span className="cell-key fail">✗</span>
      </dt>
      <dd>the candidate passed / failed the test</dd>
      <dt>
        <span className="cell-key na" role="img" aria-label="hatched, empty" />
      </dt>
      <dd>not aimed at this candidate (the Tester wrote it for another candidate)</dd>
    </dl>
  );
}

function Heatmap({ r }: { r: RolloutRecord }) {
  const rows = passMatrix(r);
  if (!rows.length) return <p className="muted">No tests were extracted for this problem at this step.</p>;
  return (
    <table className="heatmap" data-testid="heatmap">
      <thead>
        <tr>
          <th scope="col">test</th>
          {r.candidates.map((_, i) => (
            <th key={i} scope="col">
              c{i}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.test}>
            <td
              className={row.valid ? 'test valid' : 'test invalid'}
              title={
                row.valid
                  ? 'valid on the ground truth'
                  : row.callOk
                    ? 'wrong expected value (attacks with the ground-truth output)'
                    : 'the call raised on the ground truth'
              }
            >
              <span className="badge">{row.valid ? 'valid' : row.callOk ? 'invalid·attack' : 'invalid'}</span>{' '}
              <code>{row.test}</code>
            </td>
            {row.cells.map((c, i) => (
              <td
                key={i}
                className={c === null ? 'cell na' : c ? 'cell pass' : 'cell fail'}
                data-cell={c === null ? 'na' : c ? 'pass' : 'fail'}
                title={c === null ? 'not aimed at this candidate' : c ? 'passed' : 'failed'}
              >
                {c === null ? '' : c ? '✓' : '✗'}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CandidateCard({ c, i }: { c: CandidateRecord; i: number }) {
  return (
    <div className="candidate" data-testid="candidate">
      <div className="cand-head">
        <b>c{i}</b>{' '}
        {c.compiles ? <span className="badge ok">compiles</span> : <span className="badge bad">does not compile</span>}{' '}
        · reward {f3(c.reward)} · advantage{' '}
        <span className={c.advantage > 0 ? 'pos' : c.advantage < 0 ? 'neg' : ''}>{f3(c.advantage)}</span> · hidden pass{' '}
        {f3(c.hiddenPassRate)}
      </div>
      <pre className="code" data-testid="candidate-code">
        {c.code || '(empty completion)'}
      </pre>
      {c.testerRollouts.map((t, j) => (
        <TesterRollout key={j} t={t} j={j} />
      ))}
    </div>
  );
}

function TesterRollout({ t, j }: { t: TesterRolloutRecord; j: number }) {
  const passed = alignPassed(t);
  return (
    <div className="tester-rollout">
      <div className="muted">
        tester rollout {j}: validity {f3(t.validity)} · adversarial {f3(t.adversarial)} · reward {f3(t.reward)} ·
        advantage {f3(t.advantage)}
      </div>
      {t.tests.length ? (
        <ul className="tests">
          {t.tests.map((x, k) => (
            <li key={k} data-testid="test-line" data-valid={x.valid}>
              <span className={x.valid ? 'badge ok' : 'badge bad'}>{x.valid ? 'valid' : 'invalid'}</span>{' '}
              <span className={passed[k] ? 'pos' : 'neg'}>
                {passed[k] === undefined ? 'not run' : passed[k] ? 'pass' : 'FAIL'}
              </span>{' '}
              <code>{x.text}</code>
            </li>
          ))}
        </ul>
      ) : (
        <details>
          <summary className="muted">no test extracted; raw output</summary>
          <pre className="code">{t.raw}</pre>
        </details>
      )}
    </div>
  );
}
