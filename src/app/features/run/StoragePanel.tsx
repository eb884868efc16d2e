// Storage panel: export the run as one bundle file, import one, add finished runs (bundles or CLI metrics.jsonl)
// or runs saved in this browser to the charts for comparison.
import { useEffect, useState } from 'react';
import {
  addComparison,
  exportBundle,
  exportMetricsJsonl,
  importBundle,
  listRuns,
  loadReferenceRuns,
  openSaved,
  overlaySaved,
} from '../../actions';
import { client } from '../../lab';
import { deleteRun, type RunMeta } from '../../persist/idb-run-store';
import { labStore, useLab } from '../../store';
import { BUNDLE_EXT } from '../../persist/bundle';
import { Notice, notify } from './Notice';

const when = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function StoragePanel() {
  const runId = useLab((s) => s.runId);
  const checkpointStep = useLab((s) => s.checkpointStep);
  const [saved, setSaved] = useState<RunMeta[]>([]);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  useEffect(() => {
    listRuns().then(setSaved, () => setSaved([]));
  }, [runId, checkpointStep]);
  const { ok, fail: report } = notify('runs');
  return (
    <section className="panel" data-testid="storage">
      <h2>Runs</h2>
      <div className="buttons">
        <button
          data-testid="load-reference"
          title="Overlay the shipped code-a1, golden and self-play reference runs of the tiny models (docs/results.md)"
          onClick={() =>
            loadReferenceRuns(labStore).then(
              ({ runs }) => ok(`Overlaid ${runs} reference runs on the charts.`),
              report('Could not load the reference runs'),
            )
          }
        >
          Overlay reference runs
        </button>
        <button
          data-testid="export"
          disabled={!runId || checkpointStep === null}
          onClick={() => exportBundle(labStore).catch(report('Export failed'))}
        >
          Export run bundle
        </button>
        <button data-testid="export-jsonl" disabled={!runId} onClick={() => exportMetricsJsonl(labStore)}>
          metrics.jsonl
        </button>
        <label className="file-button">
          Import run bundle
          <input
            type="file"
            data-testid="import"
            accept={`${BUNDLE_EXT},application/octet-stream`}
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = '';
              if (f)
                importBundle(labStore, f).then(
                  (said) => ok(said ?? `Imported ${f.name}.`),
                  report(`Import of ${f.name} failed`),
                );
            }}
          />
        </label>
        <label className="file-button">
          Compare with…
          <input
            type="file"
            data-testid="compare"
            accept={`${BUNDLE_EXT},.jsonl`}
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = '';
              if (f)
                addComparison(labStore, f).then(
                  () => ok(`Added ${f.name} to the charts.`),
                  report(`Could not read ${f.name}`),
                );
            }}
          />
        </label>
      </div>
      <p className="note">
        Compare accepts a bundle or the metrics.jsonl that <code>npm run train</code> writes.
      </p>
      <Notice area="runs" />
      {saved.length > 0 && (
        <details>
          <summary>Saved in this browser ({saved.length})</summary>
          <ul className="saved">
            {saved.map((r) => (
              <li key={r.runId} data-testid="saved-run">
                {r.label} · {r.step} steps ·{' '}
                <time dateTime={new Date(r.updatedAt).toISOString()}>{when(r.updatedAt)}</time>{' '}
                {r.runId !== runId && r.step > 0 && (
                  <>
                    <button className="link" onClick={() => overlaySaved(labStore, r).catch(report('Overlay failed'))}>
                      overlay
                    </button>
                    <button
                      className="link"
                      onClick={() => {
                        // Close whatever run the Worker holds, then show the saved one (Start resumes it).
                        client.closeRun();
                        openSaved(labStore, r).catch(report('Open failed'));
                      }}
                    >
                      open
                    </button>
                  </>
                )}
                {r.runId !== runId && confirmDelete !== r.runId && (
                  <button
                    className="link"
                    data-testid="delete-run"
                    title="Delete this run from the browser's storage"
                    onClick={() => setConfirmDelete(r.runId)}
                  >
                    delete
                  </button>
                )}
                {confirmDelete === r.runId && (
                  <span role="group" aria-label="Confirm delete">
                    <button
                      className="link neg"
                      data-testid="delete-confirm"
                      onClick={() =>
                        deleteRun(r.runId).then(
                          () => (setSaved((xs) => xs.filter((x) => x.runId !== r.runId)), setConfirmDelete(null)),
                          report('Delete failed'),
                        )
                      }
                    >
                      delete for good
                    </button>
                    <button className="link" onClick={() => setConfirmDelete(null)}>
                      keep
                    </button>
                  </span>
                )}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
