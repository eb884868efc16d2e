// Step-through mode: one step advanced phase by phase, the current phase highlighted with its data and explanation;
// in self-play mode, the share of trivial and self-serving tests.
import { PHASES, type Phase } from '../../../rl/records';
import { modeRules } from '../../../rl/modes';
import { labStore, useLab } from '../../store';
import { client } from '../../lab';
import { PHASE_INFO, phaseExplain } from './phases';
import { collusionStats, share } from './collusion';
import { TERMS } from '../../../rl/vocabulary';

export function StepThroughPanel() {
  const stepThrough = useLab((s) => s.stepThrough);
  const status = useLab((s) => s.status);
  const current = useLab((s) => s.currentPhase);
  const events = useLab((s) => s.phaseEvents);
  const mode = useLab((s) => s.config.mode);
  const last = useLab((s) => s.rolloutSteps.at(-1));
  const phaseWaiting = useLab((s) => s.phaseWaiting);
  const active = status === 'stepping' || status === 'running';
  // Only a phase the Worker waits before can be run; while one runs (a GRPO update can take many seconds) say so.
  const waiting = stepThrough && active && current !== null && phaseWaiting;
  const runningPhase = active && current !== null && !phaseWaiting;
  const stateOf = (p: Phase) =>
    events.some((e) => e.phase === p)
      ? 'done'
      : current === p && (status === 'stepping' || status === 'running')
        ? 'current'
        : 'pending';
  return (
    <section className="panel" data-testid="steps">
      <div className="form-row">
        <label className="check">
          <input type="checkbox" checked={stepThrough} onChange={(e) => client.setStepThrough(e.target.checked)} />{' '}
          step-through mode
        </label>
        <button
          data-testid="next-phase"
          disabled={!waiting}
          aria-busy={runningPhase}
          onClick={() => client.stepPhase()}
        >
          {runningPhase
            ? `Running ${PHASE_INFO[current].title}…`
            : `Run phase${current ? `: ${PHASE_INFO[current].title}` : ''} ▶`}
        </button>
        {!stepThrough && (
          <span className="muted">Turn on step-through, then press Single step to walk through one step.</span>
        )}
      </div>
      <ol className="phases">
        {PHASES.map((p) => {
          const ev = events.find((e) => e.phase === p);
          const skipped = !modeRules(mode).usesTester && p === 'tester-rollout';
          return (
            <li key={p} className={`phase ${stateOf(p)}`} data-testid={`phase-${p}`} data-state={stateOf(p)}>
              <div className="phase-title">
                {PHASE_INFO[p].title} {skipped && <span className="muted">(no Tester in golden mode)</span>}
              </div>
              <p className="phase-explain" data-testid={`phase-explain-${p}`}>
                {phaseExplain(p, mode)}
              </p>
              {ev && (
                <p className="phase-data" data-testid={`phase-data-${p}`}>
                  step {ev.step}: {ev.summary}{' '}
                  {(p === 'execution' || p === 'tester-rollout' || p === 'validation') && (
                    <button className="link" onClick={() => labStore.getState().setTab('rollouts')}>
                      inspect
                    </button>
                  )}
                  {p === 'mistake-book' && (
                    <button className="link" onClick={() => labStore.getState().setTab('mistakes')}>
                      open the book
                    </button>
                  )}
                </p>
              )}
            </li>
          );
        })}
      </ol>
      <dl className="glossary" data-testid="glossary" aria-label="Words used in every view">
        {Object.values(TERMS).map((t) => {
          const [word, ...rest] = t.split(': ');
          return (
            <div key={word}>
              <dt>{word}</dt>
              <dd>{rest.join(': ')}</dd>
            </div>
          );
        })}
      </dl>
      {last && <Collusion step={last.step} mode={mode} rollouts={last.rollouts} />}
    </section>
  );
}

function Collusion({
  step,
  mode,
  rollouts,
}: {
  step: number;
  mode: string;
  rollouts: Parameters<typeof collusionStats>[0];
}) {
  const s = collusionStats(rollouts);
  return (
    <div className={mode === 'self-play' ? 'collusion emph' : 'collusion'} data-testid="collusion">
      <h3>Trivial and self-serving tests (step {step})</h3>
      <p>
        <b data-testid="self-serving-share">{share(s.selfServing, s.tests)}</b> self-serving (wrong expected value at an
        input where the candidate is wrong too: the test agrees with the code instead of checking it) ·{' '}
        <b data-testid="trivial-share">{share(s.trivial, s.tests)}</b> trivial (valid, yet passed by a candidate that
        fails its hidden tests) · {share(s.invalid, s.tests)} invalid or with a wrong expected value, of {s.tests}{' '}
        generated tests.
      </p>
      <p className="note">
        {mode === 'self-play'
          ? 'In self-play one model writes both the code and its tests, and it is rewarded when its own code passes: nothing stops it from writing tests that agree with its bugs. Code-A1 separates the two models and credits the Tester only for ground-truth-valid tests, which removes that incentive; compare with a code-a1 run.'
          : 'Compare with a self-play run: there the same model grades its own code, and this share is where collusion shows.'}
      </p>
    </div>
  );
}
