// The run controls bar at the top of the page: Start / Pause / Single step / Reset, what the run is busy with
// (loading, a phase, updating, pausing after this step), a progress bar over the step's phases, and an ETA.
import { useEffect, useRef, useState } from 'react';
import { PHASES, type Phase } from '../../../rl/records';
import { labStore, useLab } from '../../store';
import { client } from '../../lab';
import { startModels } from '../model/ModelPanel';
import { PHASE_INFO } from '../steps/phases';
import { Notice, notify } from './Notice';
import { estimate, secondsLeft } from './eta';
import { loadReferenceRuns } from '../../actions';
import type { LabState } from '../../store/types';

export function RunControls({ gpuOk }: { gpuOk: boolean }) {
  const status = useLab((s) => s.status);
  const runId = useLab((s) => s.runId);
  const step = useLab((s) => s.step);
  const invalid = useLab((s) => s.invalidFields);
  const activity = useLab((s) => s.activity);
  const stepThrough = useLab((s) => s.stepThrough);
  const presenter = useLab((s) => s.presenter);
  const checkpointStep = useLab((s) => s.checkpointStep);
  const held = useLab((s) => s.held);
  const [confirmReset, setConfirmReset] = useState(false);
  const busy = status === 'running' || status === 'stepping' || status === 'starting';
  const blocked = invalid.length > 0;
  const canRun = gpuOk && !busy && !blocked;
  const why = !gpuOk
    ? 'WebGPU is not available'
    : blocked
      ? `Fix the invalid hyperparameter${invalid.length > 1 ? 's' : ''} first: ${invalid.join(', ')}`
      : undefined;
  useEffect(() => setConfirmReset(false), [runId, status]);

  return (
    <section className="panel controls" data-testid="controls" aria-label="Run controls">
      <div className="buttons">
        <button
          data-testid="start"
          className="primary"
          disabled={!canRun}
          title={why}
          onClick={() => client.start(runId && checkpointStep !== null ? undefined : startModels())}
        >
          {runId && (step > 0 || held) ? 'Resume' : 'Start'}
        </button>
        <button
          data-testid="pause"
          disabled={status !== 'running' || activity === 'pausing'}
          onClick={() => client.pause()}
        >
          Pause
        </button>
        <button
          data-testid="single-step"
          disabled={!canRun}
          title={why}
          onClick={() => client.step(runId && checkpointStep !== null ? undefined : startModels())}
        >
          Single step
        </button>
        {confirmReset ? (
          <span className="confirm" role="group" aria-label="Confirm reset">
            <button
              data-testid="reset-confirm"
              className="danger"
              onClick={() => (client.reset(), setConfirmReset(false))}
            >
              Reset: close this run
            </button>
            <button data-testid="reset-cancel" onClick={() => setConfirmReset(false)}>
              Keep it
            </button>
          </span>
        ) : (
          <button
            data-testid="reset"
            disabled={busy || !runId}
            title="Close this run (it stays saved in this browser) and start over"
            onClick={() => (step > 0 ? setConfirmReset(true) : client.reset())}
          >
            Reset
          </button>
        )}
        <label className="check inline">
          <input
            type="checkbox"
            data-testid="step-through"
            checked={stepThrough}
            onChange={(e) => client.setStepThrough(e.target.checked)}
          />{' '}
          step-through
        </label>
        {presenter && <ReferenceButton />}
        <label className="check inline">
          <input
            type="checkbox"
            data-testid="presenter-toggle"
            checked={presenter}
            onChange={(e) => labStore.getState().setPresenter(e.target.checked)}
          />{' '}
          presenter view
        </label>
      </div>
      {why && !busy && (
        <p className="note" data-testid="start-blocked">
          {why}.
        </p>
      )}
      <p
        className="status"
        data-testid="run-status"
        data-status={status}
        data-activity={activity ?? ''}
        role="status"
        aria-live="polite"
      >
        {/* One step convention (rl/vocabulary.ts): steps are numbered from 0, as on the charts; this counts them. */}
        <b>{status}</b> · <span data-testid="run-step">{step}</span> {step === 1 ? 'step' : 'steps'} done
        {step > 0 && <> (last: step {step - 1})</>}
        {checkpointStep !== null && (
          <>
            {' '}
            · saved after {checkpointStep} {checkpointStep === 1 ? 'step' : 'steps'}
          </>
        )}{' '}
        · <Activity />
      </p>
      {busy && <StepProgress />}
      <RunMessage />
      <Notice area="run" />
    </section>
  );
}

/** For a class: each mode's reference runs on the charts before the first live step has finished. */
function ReferenceButton() {
  const loaded = useLab((s) => s.series.filter((r) => r.id.startsWith('ref:')).length);
  const { ok, fail } = notify('run');
  return (
    <button
      data-testid="controls-reference"
      disabled={loaded > 0}
      onClick={() =>
        loadReferenceRuns(labStore).then(
          ({ runs, steps }) =>
            ok(`Overlaid ${runs} reference runs (${steps} steps of the tiny models each) on the charts.`),
          fail('Could not load the reference runs'),
        )
      }
    >
      {loaded ? `${loaded} reference runs shown` : 'Show reference runs'}
    </button>
  );
}

function Activity() {
  const text = useLab(activityText);
  return <span data-testid="run-activity">{text}</span>;
}

/** One line on what the run is doing now (also shown by the presenter diagram). */
export function activityText(s: LabState): string {
  const text = activityOnly(s);
  const w = s.warmup;
  if (!w || (s.status !== 'running' && s.status !== 'stepping' && s.status !== 'starting')) return text;
  return `${text} · still loading: shaders ${w.shadersDone} of ${w.shadersTotal}, Python sandbox ${w.sandboxReady} of ${w.sandboxTotal}`;
}

function activityOnly(s: LabState): string {
  if (s.activity === 'loading')
    return s.loadingDetail
      ? `${s.loadingDetail}…`
      : 'loading the models, shaders and sandbox (the first step of a session waits for this)…';
  if (s.activity === 'pausing') return 'pausing at the next phase or micro-batch…';
  if (s.status === 'paused' && s.held)
    return `paused inside step ${s.step}${s.currentPhase ? `, at ${PHASE_INFO[s.currentPhase].title}` : ''}: Resume goes on from exactly here`;
  if (s.status !== 'running' && s.status !== 'stepping' && s.status !== 'starting')
    return s.status === 'idle' ? 'ready' : s.status;
  const p = s.currentPhase;
  if (!p) return 'starting…';
  if (s.stepThrough && s.phaseWaiting) return `waiting: press “Run phase” for ${PHASE_INFO[p].title}`;
  if (p === 'update') return 'updating the models (GRPO)…';
  return `running ${PHASE_INFO[p].title}`;
}

function RunMessage() {
  const status = useLab((s) => s.status);
  const message = useLab((s) => s.message);
  if (!message) return null;
  return (
    <>
      <p
        className={status === 'error' || status === 'device-lost' ? 'message error' : 'message'}
        data-testid="run-message"
        role={status === 'error' ? 'alert' : undefined}
      >
        {message}
      </p>
      {status === 'device-lost' && (
        <button data-testid="recover" onClick={() => client.recover()}>
          Resume from the last checkpoint
        </button>
      )}
    </>
  );
}

/** Where the step in progress is: one segment per phase (the running one fills with its progress), and an ETA. */
function StepProgress() {
  const current = useLab((s) => s.currentPhase);
  const progress = useLab((s) => s.progress);
  const events = useLab((s) => s.phaseEvents);
  const startedAt = useLab((s) => s.stepStartedAt);
  const activity = useLab((s) => s.activity);
  const runId = useLab((s) => s.runId);
  const history = useLab((s) => s.series.find((r) => r.id === runId)?.metrics);
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  // Within a step the bar and the countdown only move forward (a new step starts them again).
  const key = `${runId}:${startedAt}`;
  const mono = useRef({ key: '', total: 0, left: null as number | null });
  if (mono.current.key !== key) mono.current = { key, total: 0, left: null };
  const doneSet = new Set<Phase>(events.map((e) => e.phase));
  const fill = (p: Phase) =>
    doneSet.has(p)
      ? 1
      : p === current
        ? progress?.phase === p && progress.total
          ? progress.done / progress.total
          : 0.05
        : 0;
  const total = Math.max(mono.current.total, PHASES.reduce((a, p) => a + fill(p), 0) / PHASES.length);
  mono.current.total = total;
  const times = history?.map((m) => m['time/step_s']) ?? [];
  const left = secondsLeft(times, startedAt, now, mono.current.left);
  mono.current.left = left;
  const elapsed = startedAt !== null ? Math.max(0, Math.round((now - startedAt) / 1000)) : 0;
  const eta =
    left === null
      ? estimate(times, startedAt, now)
      : left >= 1
        ? `${elapsed} s in · about ${Math.round(left)} s left`
        : `${elapsed} s in · longer than the last steps, finishing`;
  return (
    <div className="step-progress" data-testid="step-progress">
      <div
        className="phase-bar"
        role="progressbar"
        aria-label="This step’s progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(100 * total)}
      >
        {PHASES.map((p) => (
          <div
            key={p}
            className={`pseg${p === current ? ' current' : ''}`}
            title={PHASE_INFO[p].title}
            data-phase={p}
            data-fill={fill(p).toFixed(2)}
          >
            <div className="pfill" style={{ width: `${100 * fill(p)}%` }} />
          </div>
        ))}
      </div>
      <span className="muted" data-testid="eta">
        {activity === 'loading' ? 'loading…' : eta}
      </span>
    </div>
  );
}
