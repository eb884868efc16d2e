// Model panel: which weights the run uses (shipped checkpoint, your own files, or fresh init), loading your own
// safetensors + config + tokenizer, and downloading the trained checkpoint files.
import { useState } from 'react';
import { PRESETS as TRAIN_PRESETS } from '../../../rl/config';
import { modeRules } from '../../../rl/modes';
import { IdbRunStore } from '../../persist/idb-run-store';
import { labStore, useLab } from '../../store';
import type { ModelFiles, StartModels } from '../../worker/protocol';
import { fetchShippedFiles } from '../../persist/shipped-files';
import { HfModelSection, hfStart } from './HfModelSection';

/** What Start sends for a new run: a Hugging Face model (LoRA run) when one is chosen, else the lab checkpoint files. */
export function startModels(): StartModels {
  const hf = hfStart();
  return hf ? { hf } : labStore.getState().userModels;
}

const REQUIRED = ['.safetensors', 'config.json', 'tokenizer.json'];

/** A warm-start shipped under public/ besides a preset's own models: where each role's checkpoint is. */
interface ShippedWarmStart {
  id: string;
  coder: string;
  tester: string;
  label: string;
  note: string;
  how: string;
}

/**
 * The other warm-starts shipped for a preset. The tiny preset's own models are the SFT-half warm-start (RL trains on
 * the half they never saw); its first models, warm-started on every training instance, and the SFT-half Coder
 * trained longer (the start of docs/results.md's strongest runs, with the SFT-half Tester) stay one click away.
 */
const SHIPPED_WARMSTARTS: Partial<Record<string, ShippedWarmStart[]>> = {
  tiny: [
    {
      id: 'full-corpus',
      coder: 'models/tiny/coder',
      tester: 'models/tiny/tester',
      how: '`npm run pretrain -- --preset tiny` rebuilds it there',
      label: 'the full-corpus warm-start',
      note:
        'Warm-started on every training instance, so RL on any of them re-rewards answers these models memorised ' +
        '(17.9% held-out pass@1 against 46.7% for the preset’s models; docs/results.md, “Disjoint data”).',
    },
    {
      id: 'sft-half-plus300',
      coder: 'models/tiny-sft-half-plus300/coder',
      // The preset's own Tester, whatever it is: this Coder was trained from the preset's Coder alone.
      tester: TRAIN_PRESETS.tiny.model.testerCheckpoint,
      how: 'docs/results.md (“More SFT”) has the command that rebuilds it from public/models/tiny-sft-half',
      label: 'the longer-trained SFT-half Coder',
      note:
        'The preset’s Coder with 300 more SFT steps on the same half (59.4% held-out pass@1 against 46.7%), with the ' +
        'preset’s Tester: the start of the strongest runs in docs/results.md (“RL from the second control Coder”).',
    },
  ],
};

/** Reads and parses the picked files, so that a broken set is refused now, not when a run starts. */
async function readFiles(list: FileList): Promise<ModelFiles> {
  const out: ModelFiles = {};
  for (const f of Array.from(list)) out[f.name] = new Uint8Array(await f.arrayBuffer());
  return checkFiles(out);
}

/** Picked files by name; a shipped warm-start's (keyed `dir/name`) by its folder under public/. */
function filesLabel(files: string[]): string {
  const dirs = new Set(files.map((f) => f.slice(0, f.lastIndexOf('/') + 1)));
  const names = files.map((f) => f.slice(f.lastIndexOf('/') + 1)).join(', ');
  const [dir] = dirs;
  return dirs.size === 1 && dir ? `shipped public/${dir.slice(0, -1)} (${names})` : `your files (${names})`;
}

async function checkFiles(out: ModelFiles): Promise<ModelFiles> {
  const missing = REQUIRED.filter((r) => !Object.keys(out).some((n) => n.endsWith(r)));
  if (missing.length)
    throw new Error(`missing ${missing.join(', ')} (pick the safetensors, config.json and tokenizer.json together)`);
  const file = (suffix: string) => Object.entries(out).find(([n]) => n.endsWith(suffix))![1];
  const { loadCheckpoint } = await import('../../../model/checkpoint');
  const dec = new TextDecoder();
  try {
    loadCheckpoint({
      weights: file('.safetensors'),
      config: dec.decode(file('config.json')),
      tokenizerJson: dec.decode(file('tokenizer.json')),
    });
  } catch (e) {
    throw new Error(`these files do not load as a model (${(e as Error).message})`);
  }
  return out;
}

export function ModelPanel() {
  const preset = useLab((s) => s.config.preset);
  const mode = useLab((s) => s.config.mode);
  const source = useLab((s) => s.modelSource);
  const runId = useLab((s) => s.runId);
  const checkpointStep = useLab((s) => s.checkpointStep);
  // Picked files are used when the next new run starts (a resumed run keeps its own checkpoint).
  const userModels = useLab((s) => s.userModels);
  const picked = {
    coder: userModels.coder && Object.keys(userModels.coder),
    tester: userModels.tester && Object.keys(userModels.tester),
  };
  const hfCoder = useLab((s) => s.userHfModels.coder);
  const [err, setErr] = useState<string | null>(null);
  const [files, setFiles] = useState<{ name: string; bytes: number }[] | null>(null);
  const m = TRAIN_PRESETS[preset].model;

  const pick = (role: 'coder' | 'tester') => async (e: React.ChangeEvent<HTMLInputElement>) => {
    const list = e.target.files;
    if (!list?.length) return;
    try {
      labStore.getState().setUserModel(role, await readFiles(list));
      setErr(null);
    } catch (x) {
      // A refused set replaces nothing: the models in use stay as they were.
      setErr(`${role} model: ${(x as Error).message}`);
    } finally {
      e.target.value = '';
    }
  };
  const warmStarts = SHIPPED_WARMSTARTS[preset] ?? [];
  const useWarmStart = async (warm: ShippedWarmStart) => {
    try {
      const [coder, tester] = await Promise.all(
        (['coder', 'tester'] as const).map(async (r) => checkFiles(await fetchShippedFiles(warm[r], warm.how))),
      );
      labStore.getState().setUserModel('coder', coder);
      labStore.getState().setUserModel('tester', tester);
      setErr(null);
    } catch (x) {
      setErr((x as Error).message);
    }
  };
  const shippedLabel = (ck: string) => (ck ? `shipped public/${ck}` : `fresh ${m.preset} initialisation`);
  // What the next new run loads for a role: the Hugging Face model, the picked files, or the shipped default (the
  // tester falls back to the coder's files).
  const nextModel = (files: string[] | undefined, fallback: string) =>
    hfCoder ? 'the Hugging Face model below' : files ? filesLabel(files) : fallback;

  const listTrained = async () => {
    if (!runId) return;
    const store = new IdbRunStore(runId);
    const names = await store.list('latest/');
    const out = [];
    for (const n of names) out.push({ name: n, bytes: (await store.read('latest/' + n))?.byteLength ?? 0 });
    setFiles(out);
  };

  const save = (data: Uint8Array, name: string) => {
    const url = URL.createObjectURL(new Blob([data as Uint8Array<ArrayBuffer>]));
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  const download = async (name: string) => {
    const data = await new IdbRunStore(runId!).read('latest/' + name);
    if (data) save(data, `${runId}-step${checkpointStep ?? 0}-${name.replace(/\//g, '-')}`);
  };

  const downloadOnnx = async (role: 'coder' | 'tester') => {
    try {
      setErr(null);
      const store = new IdbRunStore(runId!);
      const weights = await store.read(`latest/${role}/model.safetensors`);
      const config = await store.read(`latest/${role}/config.json`);
      if (!weights || !config) throw new Error(`the last checkpoint has no ${role} model`);
      // Loaded on demand: the exporter (protobufjs + graph builder) is only needed here.
      const [{ loadCheckpoint }, { exportOnnx }] = await Promise.all([
        import('../../../model/checkpoint'),
        import('../../../model/onnx/export'),
      ]);
      const ck = loadCheckpoint({ weights, config: new TextDecoder().decode(config) });
      const onnx = exportOnnx(ck.params, ck.layout, {
        kvCache: true,
        attentionMask: true,
        name: `code-a1-${role}`,
        metadata: { role, run: runId!, step: String(checkpointStep ?? 0) },
      });
      save(onnx, `${runId}-step${checkpointStep ?? 0}-${role}.onnx`);
    } catch (x) {
      setErr(`ONNX export: ${(x as Error).message}`);
    }
  };

  return (
    <section className="panel" data-testid="model">
      <dl className="kv">
        <dt>this run’s weights</dt>
        <dd data-testid="model-source">{source}</dd>
        <dt>preset {preset} model</dt>
        <dd>
          {m.preset}; coder {m.coderCheckpoint ? <code>public/{m.coderCheckpoint}</code> : 'fresh init'}; tester{' '}
          {m.testerCheckpoint ? <code>public/{m.testerCheckpoint}</code> : 'fresh init'}
        </dd>
      </dl>
      <h3>Use your own checkpoint</h3>
      <p className="note">
        Pick the model’s safetensors, config.json and tokenizer.json together. They are used by the next new run (Reset,
        then Start).
      </p>
      <div className="form-row">
        <label>
          coder <input type="file" multiple data-testid="model-coder-files" onChange={pick('coder')} />
        </label>
        <label>
          tester <input type="file" multiple data-testid="model-tester-files" onChange={pick('tester')} />
        </label>
      </div>
      <dl className="kv" data-testid="model-in-use">
        <dt>next new run: coder</dt>
        <dd data-testid="model-in-use-coder">{nextModel(picked.coder, shippedLabel(m.coderCheckpoint))}</dd>
        <dt>next new run: tester</dt>
        <dd data-testid="model-in-use-tester">
          {nextModel(picked.tester, picked.coder ? 'the same as the coder' : shippedLabel(m.testerCheckpoint))}
        </dd>
      </dl>
      {picked.tester && !picked.coder && (
        <p className="note">Tester files are used together with coder files: pick the coder’s too.</p>
      )}
      {warmStarts.map((warm) => (
        <div key={warm.id}>
          <button data-testid={`model-use-warmstart-${warm.id}`} onClick={() => void useWarmStart(warm)}>
            Use {warm.label} (public/{warm.coder}, public/{warm.tester})
          </button>
          <p className="note">{warm.note}</p>
        </div>
      ))}
      <button
        data-testid="model-use-shipped"
        disabled={!picked.coder && !picked.tester}
        onClick={() => (labStore.getState().forgetUserModels(), setErr(null))}
      >
        Use the preset’s models
      </button>
      {err && (
        <p className="message error" role="alert" data-testid="model-error">
          {err}
        </p>
      )}
      <HfModelSection />
      <h3>Download the trained checkpoint</h3>
      <button disabled={!runId || checkpointStep === null} onClick={() => void listTrained()}>
        List files of the last checkpoint{checkpointStep !== null ? ` (step ${checkpointStep})` : ''}
      </button>
      <div className="buttons">
        <button
          data-testid="onnx-coder"
          disabled={!runId || checkpointStep === null}
          onClick={() => void downloadOnnx('coder')}
        >
          Coder as ONNX
        </button>
        <button
          data-testid="onnx-tester"
          disabled={!runId || checkpointStep === null || !modeRules(mode).savesTester}
          onClick={() => void downloadOnnx('tester')}
        >
          Tester as ONNX
        </button>
        <span className="muted">
          opset 17 with KV cache and attention mask inputs (HF Optimum names), for onnxruntime-web or transformers.js
        </span>
      </div>
      {files && (
        <ul data-testid="trained-files">
          {files.map((f) => (
            <li key={f.name}>
              <button className="link" onClick={() => void download(f.name)}>
                {f.name}
              </button>{' '}
              <span className="muted">{(f.bytes / 1024).toFixed(1)} KiB</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
