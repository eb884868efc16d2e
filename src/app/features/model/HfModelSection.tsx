// Model panel, Hugging Face part: a Qwen2-family instruct model for a LoRA run, from picked files (a folder or several
// files) or downloaded from the hub (cached, so the second load is offline), checked before it is accepted; the
// LoRA settings; what the next new run will use.
import { useState } from 'react';
import { LORA_TARGETS, validateLoraConfig } from '../../../model/hf/lora';
import { DEFAULT_HUB } from '../../../model/hf/source-hub';
import { useLab, labStore } from '../../store';
import { checkHfFiles, pickedFiles, type HfModelSpec } from '../../hf/hf-files';
import { clearHubCache, loadHubModel } from '../../hf/hub-cache';
import type { HfStart } from '../../worker/hf-session';
import { SelectField } from '../fields';

type Role = 'coder' | 'tester';

/** Models accepted for the next new run, and the LoRA settings (kept here: Blobs do not belong in the store). */
const picked: { coder?: HfModelSpec; tester?: HfModelSpec } = {};
const settings = { rank: 16, alpha: 32, microBatch: 4, budgetGb: 8 };

/** What Start sends for a LoRA run, or undefined when no Hugging Face Coder is chosen. */
export function hfStart(): HfStart | undefined {
  if (!picked.coder) return undefined;
  return {
    coder: picked.coder,
    tester: picked.tester,
    lora: validateLoraConfig({ rank: settings.rank, alpha: settings.alpha, targets: [...LORA_TARGETS] }),
    microBatch: settings.microBatch,
    budgetBytes: settings.budgetGb * 2 ** 30,
  };
}

function sync(): void {
  const show = (m?: HfModelSpec) => m && { label: m.label, summary: m.summary };
  labStore.getState().setUserHfModels({ coder: show(picked.coder), tester: show(picked.tester) });
}

/** Back to the lab's own models for the next new run. */
export function forgetHfModels(): void {
  delete picked.coder;
  delete picked.tester;
  sync();
}

/** The LoRA run's settings as fields: rank and micro-batch are integers, alpha and the budget any positive number. */
const FIELDS: { key: keyof typeof settings; label: string; id: string; min: number; integer: boolean }[] = [
  { key: 'rank', label: 'LoRA rank', id: 'hf-rank', min: 1, integer: true },
  { key: 'alpha', label: 'alpha', id: 'hf-alpha', min: 0.001, integer: false },
  { key: 'microBatch', label: 'micro-batch', id: 'hf-micro', min: 1, integer: true },
  { key: 'budgetGb', label: 'GPU budget (GiB)', id: 'hf-budget', min: 0.001, integer: false },
];

const mib = (n: number) => (n / 2 ** 20).toFixed(2);

function NumberField(p: {
  label: string;
  id: string;
  value: number;
  min: number;
  integer: boolean;
  onChange: (v: number) => void;
}) {
  const [text, setText] = useState(String(p.value));
  const v = Number(text);
  const ok = text.trim() !== '' && Number.isFinite(v) && v >= p.min && (!p.integer || Number.isInteger(v));
  return (
    <label>
      {p.label}{' '}
      <input
        data-testid={p.id}
        size={5}
        value={text}
        aria-invalid={!ok}
        onChange={(e) => {
          setText(e.target.value);
          const n = Number(e.target.value);
          if (e.target.value.trim() !== '' && Number.isFinite(n) && n >= p.min && (!p.integer || Number.isInteger(n)))
            p.onChange(n);
        }}
      />
      {!ok && (
        <span className="field-error">
          {' '}
          {p.integer ? 'an integer' : 'a number'} ≥ {p.min}
        </span>
      )}
    </label>
  );
}

export function HfModelSection() {
  const chosen = useLab((s) => s.userHfModels);
  const [role, setRole] = useState<Role>('coder');
  const [repo, setRepo] = useState('');
  const [revision, setRevision] = useState('main');
  const [endpoint, setEndpoint] = useState(DEFAULT_HUB);
  const [busy, setBusy] = useState<string | null>(null);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [err, setErr] = useState<string | null>(null);
  const [info, setInfo] = useState<string | null>(null);

  /** Checks files and, when they pass, makes them this role's model; a refused set replaces nothing. */
  const accept = async (
    files: Map<string, Blob>,
    make: (f: Map<string, Blob>) => Promise<HfModelSpec>,
    note: string,
  ) => {
    setBusy('checking the files…');
    try {
      picked[role] = await make(files);
      setErr(null);
      setInfo(note);
    } catch (x) {
      setErr(`${role} model: ${(x as Error).message}`);
      setInfo(null);
    } finally {
      setBusy(null);
      sync();
    }
  };

  const onPick = async (e: React.ChangeEvent<HTMLInputElement>) => {
    const list = e.target.files;
    if (!list?.length) return;
    const files = pickedFiles(list);
    const folder = list[0].webkitRelativePath.split('/')[0];
    e.target.value = '';
    await accept(
      files,
      (f) => checkHfFiles(f, folder || `picked files (${f.size})`, { kind: 'files' }),
      `${role}: checked ${files.size} files`,
    );
  };

  const onDownload = async () => {
    setErr(null);
    setInfo(null);
    setProgress({ done: 0, total: 0 });
    setBusy('downloading…');
    try {
      const rev = revision.trim() || 'main';
      const got = await loadHubModel({
        repo,
        revision: rev,
        endpoint,
        onProgress: (p) => {
          setProgress({ done: p.bytesDone, total: p.bytesTotal });
          setBusy(`downloading ${p.file}: ${mib(p.bytesDone)} of ${mib(p.bytesTotal)} MiB`);
        },
      });
      const origin = { kind: 'hub' as const, repo: repo.trim(), revision: rev, endpoint };
      const total = [...got.files.values()].reduce((a, b) => a + b.size, 0);
      await accept(
        got.files,
        (f) => checkHfFiles(f, got.label, origin),
        `${role}: ${got.label} ${got.fromCache ? 'loaded from the browser cache (no download)' : `downloaded (${mib(total)} MiB) and cached`}`,
      );
    } catch (x) {
      setErr(`${role} model: ${(x as Error).message}`);
      setBusy(null);
    } finally {
      setProgress(null);
    }
  };

  return (
    <div data-testid="hf-model">
      <h3>Hugging Face model (LoRA)</h3>
      <p className="note">
        A Qwen2-family instruct model (e.g. Qwen2.5-Coder-0.5B-Instruct): its weights stay frozen and rank-r LoRA
        adapters of the Coder and the Tester are trained on the release’s chat prompts. Used by the next new run (Reset,
        then Start); the Tester defaults to the Coder’s model with its own adapters.
      </p>
      <div className="form-row">
        <SelectField label="load for" testId="hf-role" value={role} onChange={(v) => setRole(v as Role)}>
          <option value="coder">coder</option>
          <option value="tester">tester</option>
        </SelectField>
      </div>
      <div className="form-row">
        <span>From files:</span>
        <label>
          folder{' '}
          <input
            type="file"
            data-testid="hf-folder"
            disabled={!!busy}
            ref={(el) => el?.setAttribute('webkitdirectory', '')}
            onChange={(e) => void onPick(e)}
          />
        </label>
        <label>
          or files{' '}
          <input type="file" multiple data-testid="hf-files" disabled={!!busy} onChange={(e) => void onPick(e)} />
        </label>
        <span className="muted">
          config.json, the safetensors (single or sharded with the index), tokenizer.json, tokenizer_config.json
        </span>
      </div>
      <div className="form-row">
        <span>From Hugging Face:</span>
        <label>
          repo{' '}
          <input
            data-testid="hf-repo"
            placeholder="Qwen/Qwen2.5-Coder-0.5B-Instruct"
            value={repo}
            onChange={(e) => setRepo(e.target.value)}
          />
        </label>
        <label>
          revision{' '}
          <input data-testid="hf-revision" size={8} value={revision} onChange={(e) => setRevision(e.target.value)} />
        </label>
        <label>
          hub <input data-testid="hf-endpoint" value={endpoint} onChange={(e) => setEndpoint(e.target.value)} />
        </label>
        <button data-testid="hf-download" disabled={!!busy || !repo.trim()} onClick={() => void onDownload()}>
          Download
        </button>
        <button
          className="link"
          onClick={() => void clearHubCache().then(() => setInfo('the download cache is empty'))}
        >
          clear the download cache
        </button>
      </div>
      {busy && (
        <p className="note" data-testid="hf-busy">
          {progress && <progress data-testid="hf-progress" max={Math.max(1, progress.total)} value={progress.done} />}{' '}
          {busy}
        </p>
      )}
      <div className="form-row">
        {FIELDS.map((f) => (
          <NumberField
            key={f.key}
            label={f.label}
            id={f.id}
            value={settings[f.key]}
            min={f.min}
            integer={f.integer}
            onChange={(v) => (settings[f.key] = v)}
          />
        ))}
      </div>
      <dl className="kv" data-testid="hf-in-use">
        <dt>next new run: coder</dt>
        <dd data-testid="hf-coder">
          {chosen.coder ? `${chosen.coder.label} (${chosen.coder.summary})` : 'none (the lab’s own models)'}
        </dd>
        <dt>next new run: tester</dt>
        <dd data-testid="hf-tester">
          {chosen.tester
            ? `${chosen.tester.label} (${chosen.tester.summary})`
            : chosen.coder
              ? 'the coder’s model, its own adapters'
              : '—'}
        </dd>
      </dl>
      {chosen.tester && !chosen.coder && (
        <p className="note">
          A Hugging Face tester is used together with a Hugging Face coder: load the coder’s model too.
        </p>
      )}
      <button
        data-testid="hf-forget"
        disabled={!chosen.coder && !chosen.tester}
        onClick={() => (forgetHfModels(), setErr(null), setInfo(null))}
      >
        Use the lab’s own models
      </button>
      {info && (
        <p className="message" data-testid="hf-info">
          {info}
        </p>
      )}
      {err && (
        <p className="message error" role="alert" data-testid="hf-error">
          {err}
        </p>
      )}
    </div>
  );
}
