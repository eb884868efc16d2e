// "Export for a cluster (verl)": the current config and its curriculum as a run of the published Code-A1 recipe
// (train/val parquet, config.yaml, launch.sh, README.md) in one zip, the same files `npm run export -- --verl` writes.
import { useState } from 'react';
import { useLab } from '../../store';
import { toTrainConfig } from '../../config/run-config';
import { download } from '../../actions';
import { RELEASE_MODEL } from '../../../export/verl/release';

export function VerlExportButton() {
  const config = useLab((s) => s.config);
  const runId = useLab((s) => s.runId);
  const [coder, setCoder] = useState('');
  const [tester, setTester] = useState('');
  const [gpus, setGpus] = useState(8);
  const [nodes, setNodes] = useState(1);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ error?: string; notes: string[] } | null>(null);

  const run = async () => {
    setBusy(true);
    setResult(null);
    try {
      // Loaded on demand: the parquet writer, YAML and zip code stay out of the page's first load.
      const [{ exportVerl, curriculumProblems }, { zipSync }] = await Promise.all([
        import('../../../export/verl/index'),
        import('fflate'),
      ]);
      const cfg = toTrainConfig(config);
      const name = (runId ?? `${config.preset}-${config.mode}-seed${config.seed}`).replace(/[^\w.-]+/g, '-');
      const { files, warnings } = exportVerl(cfg, curriculumProblems(cfg), {
        coderModel: coder.trim() || RELEASE_MODEL,
        testerModel: tester.trim() || RELEASE_MODEL,
        nodes,
        gpusPerNode: gpus,
        experimentName: name,
      });
      const zip = zipSync(Object.fromEntries(Object.entries(files).map(([f, b]) => [`${name}/${f}`, b])));
      download(zip, `${name}-verl.zip`, 'application/zip');
      setResult({ notes: warnings });
    } catch (e) {
      setResult({ error: (e as Error).message, notes: [] });
    } finally {
      setBusy(false);
    }
  };

  return (
    <details data-testid="verl-export">
      <summary>Export for a cluster (verl)</summary>
      <p className="note">
        This config and its problems as a run of the published Code-A1 recipe (verl / Ray); the zip's README says how to
        launch it and bring the results back. Models: Hugging Face ids or HF-format folders (blank: the release's).
      </p>
      <div className="form-row">
        <Field id="coder" value={coder} placeholder={RELEASE_MODEL} onChange={setCoder} />
        <Field id="tester" value={tester} placeholder={RELEASE_MODEL} onChange={setTester} />
        <Field id="nodes" value={String(nodes)} number onChange={(v) => setNodes(Number(v))} />
        <Field id="gpus" label="GPUs / node" value={String(gpus)} number onChange={(v) => setGpus(Number(v))} />
      </div>
      <button data-testid="verl-export-button" disabled={busy || config.mode !== 'code-a1'} onClick={() => void run()}>
        {busy ? 'Exporting…' : 'Export for a cluster (verl)'}
      </button>
      {config.mode !== 'code-a1' && (
        <p className="note">
          The release publishes only the code-a1 recipe; golden and self-play have no cluster config.
        </p>
      )}
      {result?.error && (
        <p className="message error" data-testid="verl-export-error">
          {result.error}
        </p>
      )}
      {result && !result.error && (
        <ul className="note" data-testid="verl-export-notes">
          <li>Downloaded. Differences from the lab run: {result.notes.length ? '' : 'none.'}</li>
          {result.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      )}
    </details>
  );
}

function Field(p: {
  id: string;
  label?: string;
  value: string;
  placeholder?: string;
  number?: boolean;
  onChange(v: string): void;
}) {
  return (
    <label>
      {p.label ?? p.id}{' '}
      <input
        data-testid={`verl-${p.id}`}
        type={p.number ? 'number' : 'text'}
        min={p.number ? 1 : undefined}
        value={p.value}
        placeholder={p.placeholder}
        onChange={(e) => p.onChange(e.target.value)}
      />
    </label>
  );
}
