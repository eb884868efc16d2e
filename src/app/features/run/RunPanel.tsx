// Run panel: preset, mode, seed and the main hyperparameters (each explained in one line); the run controls
// themselves sit at the top of the page (RunControls).
import { useEffect, useState } from 'react';
import {
  HYPERPARAMS,
  MODES,
  MODE_NOTES,
  PRESETS,
  PRESET_NOTES,
  checkHyperValue,
  hyperParam,
  isMode,
  isPreset,
  presetValue,
  type ChoiceHyper,
  type RunConfigUi,
} from '../../config/run-config';
import { labStore, useLab } from '../../store';
import { syncHash } from '../../actions';
import { VerlExportButton } from '../export/VerlExportButton';
import { SelectField } from '../fields';

export function RunPanel() {
  const config = useLab((s) => s.config);
  const runId = useLab((s) => s.runId);
  const presenter = useLab((s) => s.presenter);
  const invalid = useLab((s) => s.invalidFields);
  // The config belongs to the run: it can change only before a run has begun (Reset starts over).
  const locked = runId !== null;
  const set = (c: RunConfigUi) => labStore.getState().setConfig(c);

  useEffect(() => syncHash(config), [config]);
  const [open, setOpen] = useState(() => !presenter || invalid.length > 0 || Object.keys(config.overrides).length > 0);
  // An invalid field, or a config with changes (a shared link, a restored run), opens it; nothing closes it but a click.
  const changed = Object.keys(config.overrides).length > 0;
  useEffect(() => {
    if (invalid.length > 0 || changed || !presenter) setOpen(true);
  }, [invalid.length, changed, presenter]);

  return (
    <section className="panel" data-testid="run-panel">
      <h2>Run</h2>
      <div className="form-row">
        <SelectField
          label="preset"
          testId="preset"
          value={config.preset}
          disabled={locked}
          onChange={(v) => isPreset(v) && set({ ...config, preset: v, overrides: {} })}
        >
          {PRESETS.map((p) => (
            <option key={p}>{p}</option>
          ))}
        </SelectField>
        <SelectField
          label="mode"
          testId="mode"
          value={config.mode}
          disabled={locked}
          onChange={(v) => isMode(v) && set({ ...config, mode: v })}
        >
          {MODES.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </SelectField>
        <SeedField seed={config.seed} locked={locked} onChange={(seed) => set({ ...config, seed })} />
      </div>
      <p className="note">{PRESET_NOTES[config.preset]}</p>
      <p className="note">{MODE_NOTES[config.mode]}</p>
      {/* Collapsed in presenter view unless something differs from the preset or a field is invalid; once open it
          stays open until the user closes it (clearing the last changed field does not snap it shut). */}
      <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="hyperparameters">
        <summary>
          Hyperparameters (blank = preset value){' '}
          <span className="muted" data-testid="hp-summary">
            ·{' '}
            {KEY_HYPERS.map(
              (k) =>
                `${hyperParam(k)?.label ?? k} ${String(config.overrides[k] ?? presetValue(config.preset, k) ?? '–')}`,
            ).join(' · ')}
          </span>
          {invalid.length > 0 && (
            <b className="neg" data-testid="hp-invalid-summary">
              {' '}
              · invalid: {invalid.join(', ')}
            </b>
          )}
        </summary>
        <table className="hyper">
          <tbody>
            {HYPERPARAMS.map((h) =>
              h.kind === 'choice' ? (
                <ChoiceRow key={h.key + config.preset} h={h} config={config} locked={locked} onChange={set} />
              ) : (
                <HyperRow key={h.key + config.preset} hkey={h.key} config={config} locked={locked} onChange={set} />
              ),
            )}
          </tbody>
        </table>
      </details>
      <button className="link" data-testid="share" onClick={() => void navigator.clipboard?.writeText(location.href)}>
        Copy a link to this config
      </button>
      <VerlExportButton />
    </section>
  );
}

/** Shown in the collapsed section's summary, so a presenter sees α and the group sizes without opening it. */
const KEY_HYPERS = ['alpha', 'M', 'N', 'K'];

/** The seed, checked like the other fields: a whole number ≥ 0, else a message beside it and Start blocked. */
function SeedField({ seed, locked, onChange }: { seed: number; locked: boolean; onChange(n: number): void }) {
  const [text, setText] = useState(String(seed));
  const [err, setErr] = useState<string | null>(null);
  useEffect(() => {
    if (Number(text) !== seed || text.trim() === '') setText(String(seed));
    // Only an outside change (a link, Reset) replaces the text; typing keeps what was typed.
  }, [seed]);
  useEffect(() => {
    labStore.getState().setFieldInvalid('seed', err !== null);
    return () => labStore.getState().setFieldInvalid('seed', false);
  }, [err]);
  return (
    <label>
      seed{' '}
      <input
        data-testid="seed"
        inputMode="numeric"
        aria-invalid={err !== null}
        aria-describedby={err ? 'seed-error' : undefined}
        className={err ? 'bad' : ''}
        style={{ width: 80 }}
        value={text}
        disabled={locked}
        onChange={(e) => {
          setText(e.target.value);
          const why = seedError(e.target.value);
          setErr(why);
          if (!why) onChange(Number(e.target.value));
        }}
      />
      {err && (
        <span className="neg" id="seed-error" data-testid="seed-error">
          {' '}
          {err}
        </span>
      )}
    </label>
  );
}

/** Why a seed text is refused, or null: the same rule as a link's `seed=` (a whole number from 0 up). */
export function seedError(text: string): string | null {
  if (text.trim() === '') return 'seed: enter a whole number (0 or more)';
  const n = Number(text);
  if (!Number.isFinite(n)) return `seed: “${text}” is not a number`;
  if (!Number.isInteger(n)) return `seed: ${text} is not a whole number`;
  if (n < 0) return `seed: ${text} is below 0`;
  if (!Number.isSafeInteger(n)) return `seed: ${text} is too large`;
  return null;
}

function HyperRow({
  hkey,
  config,
  locked,
  onChange,
}: {
  hkey: string;
  config: RunConfigUi;
  locked: boolean;
  onChange(c: RunConfigUi): void;
}) {
  const h = HYPERPARAMS.find((x) => x.key === hkey)!;
  const value = config.overrides[hkey];
  const [text, setText] = useState(value === undefined ? '' : String(value));
  const [err, setErr] = useState<string | null>(null);
  useEffect(() => setText(value === undefined ? '' : String(value)), [value]);
  // A field that reads wrong blocks Start: the run would otherwise train with the last valid value.
  useEffect(() => {
    labStore.getState().setFieldInvalid(h.label, err !== null);
    return () => labStore.getState().setFieldInvalid(h.label, false);
  }, [err, h.label]);
  const id = `hp-input-${hkey}`;
  return (
    <HyperRowShell
      id={id}
      label={h.label}
      help={err ?? h.explain}
      helpClass={err ? 'hp-explain neg' : 'hp-explain'}
      helpTestId={err ? `hp-error-${hkey}` : undefined}
    >
      <input
        id={id}
        data-testid={`hp-${hkey}`}
        aria-invalid={err !== null}
        aria-describedby={`${id}-help`}
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
          const why = Number.isNaN(n) ? `${h.label}: “${e.target.value}” is not a number` : checkHyperValue(hkey, n);
          setErr(why);
          if (!why) onChange({ ...config, overrides: { ...overrides, [hkey]: n } });
        }}
      />
    </HyperRowShell>
  );
}

/** A setting with named values: blank keeps the preset's (named in the first option), any other option overrides it. */
function ChoiceRow({
  h,
  config,
  locked,
  onChange,
}: {
  h: ChoiceHyper;
  config: RunConfigUi;
  locked: boolean;
  onChange(c: RunConfigUi): void;
}) {
  const value = config.overrides[h.key];
  const id = `hp-input-${h.key}`;
  const preset = presetValue(config.preset, h.key);
  return (
    <HyperRowShell id={id} label={h.label} help={h.explain} helpClass="hp-explain">
      <select
        id={id}
        data-testid={`hp-${h.key}`}
        aria-describedby={`${id}-help`}
        value={value === undefined ? '' : String(value)}
        disabled={locked}
        onChange={(e) => {
          const overrides = { ...config.overrides };
          if (e.target.value === '') delete overrides[h.key];
          else overrides[h.key] = e.target.value;
          onChange({ ...config, overrides });
        }}
      >
        <option value="">{`preset (${preset === undefined ? 'unset' : String(preset)})`}</option>
        {h.values.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </HyperRowShell>
  );
}

/** One hyperparameter row: its label, its input (a box or a list), and its help line (or the error in its place). */
function HyperRowShell(p: {
  id: string;
  label: string;
  help: string;
  helpClass: string;
  helpTestId?: string;
  children: React.ReactNode;
}) {
  return (
    <tr>
      <td className="hp-label">
        <label htmlFor={p.id}>{p.label}</label>
      </td>
      <td>{p.children}</td>
      <td className={p.helpClass} id={`${p.id}-help`} data-testid={p.helpTestId}>
        {p.help}
      </td>
    </tr>
  );
}
