// Rollout inspector: for a step and problem, the prompt, each candidate's code, the tests aimed at it (valid or
// invalid, in the words of rl/vocabulary.ts), the tests × candidates pass/fail heatmap, and the rewards and advantages.
import { labStore, useLab } from '../../store';
import type { CandidateRecord, RolloutRecord, TesterRolloutRecord } from '../../../rl/records';
import { alignPassed, candidateTestSummary, passMatrix } from './matrix';
import { KIND_LABEL, TERMS, isValidKind, testKind } from '../../../rl/vocabulary';
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
          <CandidateCard key={i} r={r} c={c} i={i} />
        ))}
      </div>
    </>
  );
}

/** What every mark in the heatmap means, on screen (not only in hover tooltips), in the lab's one vocabulary. */
function HeatmapLegend() {
  return (
    <dl className="heatmap-legend" data-testid="heatmap-legend">
      <dt>
        <span className="badge">{KIND_LABEL.valid}</span>
      </dt>
      <dd>{TERMS.valid}</dd>
      <dt>
        <span className="badge">{KIND_LABEL['wrong-expected']}</span>
      </dt>
      <dd>{TERMS.wrongExpected}</dd>
      <dt>
        <span className="badge">{KIND_LABEL.raised}</span> / <span className="badge">{KIND_LABEL.repeat}</span>
      </dt>
      <dd>{TERMS.invalid}; these are not run</dd>
      <dt>
        <span className="cell-key pass">✓</span> / <span className="cell-key fail">✗</span>
      </dt>
      <dd>the candidate passed / failed the test ({TERMS.break})</dd>
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
            <td className={`test ${isValidKind(row.kind) ? 'valid' : 'invalid'}`} data-kind={row.kind}>
              <span className="badge">{KIND_LABEL[row.kind]}</span> <code>{row.test}</code>
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

function CandidateCard({ r, c, i }: { r: RolloutRecord; c: CandidateRecord; i: number }) {
  const t = candidateTestSummary(r, i);
  return (
    <div className="candidate" data-testid="candidate">
      <div className="cand-head">
        <b>c{i}</b>{' '}
        {c.compiles ? <span className="badge ok">compiles</span> : <span className="badge bad">does not compile</span>}{' '}
        · reward {f3(c.reward)} · advantage{' '}
        <span className={c.advantage > 0 ? 'pos' : c.advantage < 0 ? 'neg' : ''}>{f3(c.advantage)}</span> · hidden pass{' '}
        {f3(c.hiddenPassRate)}
      </div>
      <div
        className="muted"
        data-testid="candidate-tests"
        data-valid={t.valid}
        data-breaks={c.compiles && r.mode !== 'golden' ? t.failed : 0}
      >
        {r.mode === 'golden'
          ? `${t.valid} golden tests · ${t.failed} failed`
          : `${t.valid} valid tests aimed at it (attacks) · ${t.failed} ${c.compiles ? 'breaks' : 'failed (it does not compile: not counted as breaks)'} · ${t.invalid} invalid`}
      </div>
      <pre className="code" data-testid="candidate-code">
        {c.code || '(empty completion)'}
      </pre>
      {c.testerRollouts.map((t, j) => (
        <TesterRollout key={j} t={t} j={j} mode={r.mode} />
      ))}
    </div>
  );
}

function TesterRollout({ t, j, mode }: { t: TesterRolloutRecord; j: number; mode: string }) {
  const passed = alignPassed(t);
  return (
    <div className="tester-rollout">
      <div className="muted">
        tester rollout {j}
        {t.malformed ? ` (${t.malformed} malformed assert lines, invalid)` : ''}: validity {f3(t.validity)} ·
        adversarial {f3(t.adversarial)} · reward {f3(t.reward)} · advantage {f3(t.advantage)}
      </div>
      {t.tests.length ? (
        <ul className="tests">
          {t.tests.map((x, k) => (
            <li key={k} data-testid="test-line" data-kind={testKind(x, mode)}>
              <span className={testKind(x, mode) === 'valid' ? 'badge ok' : 'badge bad'}>
                {KIND_LABEL[testKind(x, mode)]}
              </span>{' '}
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
