// Run panel: preset, mode, seed, the main hyperparameters (each explained in one line), and the run controls.
import { useEffect, useState } from 'react';
import { HYPERPARAMS, MODES, MODE_NOTES, PRESETS, PRESET_NOTES, checkHyperValue, isMode, isPreset, presetValue, type RunConfigUi } from '../../config/run-config';
import { labStore, useLab } from '../../store';
import { client } from '../../lab';
import { syncHash } from '../../actions';
import { userModels } from '../model/ModelPanel';
import { VerlExportButton } from '../export/VerlExportButton';

export function RunPanel({ gpuOk }: { gpuOk: boolean }) {
  const config = useLab((s) => s.config);
  const status = useLab((s) => s.status);
  const runId = useLab((s) => s.runId);
  const step = useLab((s) => s.step);
  const message = useLab((s) => s.message);
  const stepThrough = useLab((s) => s.stepThrough);
  const checkpointStep = useLab((s) => s.checkpointStep);
  const progress = useLab((s) => s.progress);
  const busy = status === 'running' || status === 'stepping' || status === 'starting';
  // The config belongs to the run: it can change only before a run has begun (Reset starts over).
  const locked = runId !== null;
  const set = (c: RunConfigUi) => labStore.getState().setConfig(c);

  useEffect(() => syncHash(config), [config]);

  return (
    <section className="panel" data-testid="run-panel">
      <h2>Run</h2>
      <div className="form-row">
        <label>
          preset{' '}
          <select data-testid="preset" value={config.preset} disabled={locked} onChange={(e) => isPreset(e.target.value) && set({ ...config, preset: e.target.value, overrides: {} })}>
            {PRESETS.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label>
          mode{' '}
          <select data-testid="mode" value={config.mode} disabled={locked} onChange={(e) => isMode(e.target.value) && set({ ...config, mode: e.target.value })}>
            {MODES.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <label>
          seed{' '}
          <input
            data-testid="seed"
            type="number"
            min={0}
            step={1}
            value={config.seed}
            disabled={locked}
            onChange={(e) => {
              const n = Number(e.target.value);
              if (Number.isSafeInteger(n) && n >= 0) set({ ...config, seed: n });
            }}
          />
        </label>
      </div>
      <p className="note">{PRESET_NOTES[config.preset]}</p>
      <p className="note">{MODE_NOTES[config.mode]}</p>
      <details open>
        <summary>Hyperparameters (blank = preset value)</summary>
        <table className="hyper">
          <tbody>
            {HYPERPARAMS.map((h) => (
              <HyperRow key={h.key + config.preset} hkey={h.key} config={config} locked={locked} onChange={set} />
            ))}
          </tbody>
        </table>
      </details>
      <div className="buttons">
        <button data-testid="start" disabled={!gpuOk || busy} onClick={() => client.start(runId ? undefined : userModels)}>
          {runId && step > 0 ? 'Resume' : 'Start'}
        </button>
        <button data-testid="pause" disabled={status !== 'running'} onClick={() => client.pause()}>
          Pause
        </button>
        <button data-testid="single-step" disabled={!gpuOk || busy} onClick={() => client.step()}>
          Single step
        </button>
        <button data-testid="reset" disabled={busy} onClick={() => client.reset()}>
          Reset
        </button>
      </div>
      <label className="check">
        <input type="checkbox" data-testid="step-through" checked={stepThrough} onChange={(e) => client.setStepThrough(e.target.checked)} /> step-through
        (phase by phase, for teaching)
      </label>
      <p className="status" data-testid="run-status" data-status={status}>
        <b>{status}</b> · <span data-testid="run-step">{step}</span> steps done
        {checkpointStep !== null && <> · checkpoint at step {checkpointStep}</>}
        {progress && (
          <>
            {' '}
            · {progress.phase} {progress.done}/{progress.total}
          </>
        )}
      </p>
      {message && (
        <p className={status === 'error' || status === 'device-lost' ? 'message error' : 'message'} data-testid="run-message">
          {message}
        </p>
      )}
      {status === 'device-lost' && (
        <button data-testid="recover" onClick={() => client.recover()}>
          Resume from the last checkpoint
        </button>
      )}
      <button className="link" data-testid="share" onClick={() => void navigator.clipboard?.writeText(location.href)}>
        Copy a link to this config
      </button>
      <VerlExportButton />
    </section>
  );
}

function HyperRow({ hkey, config, locked, onChange }: { hkey: string; config: RunConfigUi; locked: boolean; onChange(c: RunConfigUi): void }) {
  const h = HYPERPARAMS.find((x) => x.key === hkey)!;
  const value = config.overrides[hkey];
  const [text, setText] = useState(value === undefined ? '' : String(value));
  const [err, setErr] = useState<string | null>(null);
  useEffect(() => setText(value === undefined ? '' : String(value)), [value]);
  return (
    <tr>
      <td className="hp-label">{h.label}</td>
      <td>
        <input
          data-testid={`hp-${hkey}`}
          className={err ? 'bad' : ''}
          value={text}
          placeholder={String(presetValue(config.preset, hkey) ?? '')}
          disabled={locked}
          onChange={(e) => {
            setText(e.target.value);
            const overrides = { ...config.overrides };
            if (e.target.value.trim() === '') {
              delete overrides[hkey];
              setErr(null);
              onChange({ ...config, overrides });
              return;
            }
            const n = Number(e.target.value);
            const why = checkHyperValue(hkey, n);
            setErr(why);
            if (!why) onChange({ ...config, overrides: { ...overrides, [hkey]: n } });
          }}
        />
      </td>
      <td className="hp-explain">{err ?? h.explain}</td>
    </tr>
  );
}
