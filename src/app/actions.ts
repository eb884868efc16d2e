// Page-level actions that touch storage: restore on load, bundle export/import, runs overlaid for comparison.
import { RELEASE_METRICS, type ReleaseMetricKey } from '../export/verl/logs';
import { checkSteps, parseMetricsJsonl, type StepMetrics } from '../rl/metrics';
import type { MistakeBookState } from '../rl/mistake-book';
import type { RolloutRecord } from '../rl/records';
import type { TrainerState } from '../rl/trainer';
import { RunDir } from '../run/run-store';
import { decodeConfigHash, encodeConfigHash } from './config/url-codec';
import { PRESETS, type RunConfigUi } from './config/run-config';
import { PRESETS as TRAIN_PRESETS } from '../rl/config';
import { BUNDLE_EXT, BundleError, decodeBundle, encodeBundle, type RunBundle } from './persist/bundle';
import { IdbRunStore, currentRunId, getRunMeta, listRuns, putRunMeta, type RunMeta } from './persist/idb-run-store';
import type { LabStore } from './store';
import { bundleFileName, runLabel } from './config/run-label';
import { newRunId } from './worker/client';
import { parseEvalJsonl } from './worker/run-files';
import { RUN_FILES } from '../run/run-layout';
import type { EvalReport, RunSeries } from './store/types';

const dec = new TextDecoder();

interface StoredRun {
  meta: RunMeta;
  metrics: StepMetrics[];
  state?: TrainerState;
  rollouts: RolloutRecord[];
  evals: EvalReport[];
}

async function readStoredRun(runId: string): Promise<StoredRun | undefined> {
  const meta = await getRunMeta(runId);
  if (!meta) return undefined;
  const store = new IdbRunStore(runId);
  const dir = new RunDir(store);
  const stateBytes = await store.read(RUN_FILES.latest + RUN_FILES.state);
  const state = stateBytes ? (JSON.parse(dec.decode(stateBytes)) as TrainerState) : undefined;
  if (state)
    checkSteps(
      state.book.history.map((h) => h.step),
      (i) => `run ${runId}: ${RUN_FILES.latest + RUN_FILES.state} Mistake Book history[${i}]`,
      true,
    );
  // Only committed steps count: a line past the committed step belongs to a step that was cut off.
  const metrics = (await dir.readMetrics()).filter((m) => state && m.step < state.step);
  const names = await store.list(RUN_FILES.rollouts);
  const ro = names.length ? await store.read(RUN_FILES.rollouts + names[names.length - 1]) : undefined;
  const rollouts = ro ? (JSON.parse(dec.decode(ro)) as RolloutRecord[]) : [];
  const ev = await store.read(RUN_FILES.evals);
  const evals = ev ? parseEvalJsonl(dec.decode(ev), `run ${runId}: ${RUN_FILES.evals}`) : [];
  return { meta, metrics, state, rollouts, evals };
}

function showRun(store: LabStore, run: StoredRun, how: string): void {
  const s = store.getState();
  s.beginRun(run.meta.runId, run.meta.config);
  for (const m of run.metrics) s.appendMetrics(run.meta.runId, m);
  const book: MistakeBookState | undefined = run.state?.book;
  s.setMistakes(book?.entries ?? [], book?.history ?? []);
  if (run.rollouts.length) s.addRollouts(run.rollouts[0].step, run.rollouts);
  for (const e of run.evals) s.addEval(e);
  const step = run.state?.step ?? 0;
  store.setState({ step, checkpointStep: step || null });
  s.setStatus('paused', `${how} at step ${step}. Start resumes it from its last checkpoint.`);
}

/** On page load: a config in the URL wins; otherwise the current run in IndexedDB is restored (paused). */
export async function restoreOnLoad(store: LabStore): Promise<void> {
  const fromUrl = decodeConfigHash(location.hash);
  if (fromUrl.problems.length)
    store
      .getState()
      .setBanner({ kind: 'error', area: 'page', text: `Ignored in the URL: ${fromUrl.problems.join('; ')}` });
  let id: string | undefined;
  try {
    id = await currentRunId();
  } catch (e) {
    store.getState().setBanner({ kind: 'error', text: `Saved runs are unavailable: ${(e as Error).message}` });
  }
  const run = id ? await readStoredRun(id) : undefined;
  const sameConfig =
    run && (!fromUrl.present || encodeConfigHash(run.meta.config) === encodeConfigHash(fromUrl.config));
  if (run && run.state && sameConfig) {
    showRun(store, run, 'Restored the saved run');
  } else if (fromUrl.present) {
    store.getState().setConfig(fromUrl.config);
  } else {
    await pickDefaultPreset(store);
  }
}

/** The default preset starts from shipped checkpoints; when a build ships none for it, fall back to one that has them. */
async function pickDefaultPreset(store: LabStore): Promise<void> {
  const cfg = store.getState().config;
  for (const preset of [cfg.preset, ...PRESETS.filter((p) => p !== cfg.preset)]) {
    const { coderCheckpoint, testerCheckpoint } = TRAIN_PRESETS[preset].model;
    const needed = [coderCheckpoint, testerCheckpoint].filter(Boolean).map((p) => `${p}/model.safetensors`);
    if ((await Promise.all(needed.map(shipped))).every(Boolean)) {
      if (preset !== cfg.preset) store.getState().setConfig({ ...cfg, preset, overrides: {} });
      return;
    }
  }
}

async function shipped(path: string): Promise<boolean> {
  try {
    const res = await fetch(new URL(path, new URL(import.meta.env.BASE_URL, location.origin)), { method: 'HEAD' });
    // A static server may answer a missing file with index.html (SPA fallback).
    return res.ok && !(res.headers.get('content-type') ?? '').includes('text/html');
  } catch {
    return false;
  }
}

export function syncHash(cfg: RunConfigUi): void {
  const h = encodeConfigHash(cfg);
  if (location.hash !== h) history.replaceState(null, '', h);
}

export function download(bytes: Uint8Array, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export async function exportBundle(store: LabStore): Promise<void> {
  const s = store.getState();
  if (!s.runId) throw new Error('There is no run to export yet.');
  // latest/ is what resumes; the per-step copies under checkpoints/ would only make the file large.
  const all = await new IdbRunStore(s.runId).readAll();
  const files = Object.fromEntries(
    Object.entries(all).filter(
      ([name]) => !name.startsWith(RUN_FILES.checkpoints) && !name.startsWith(RUN_FILES.pending),
    ),
  );
  const live = s.series.find((r) => r.id === s.runId);
  const bundle: RunBundle = {
    name: s.runId,
    createdAt: Date.now(),
    config: s.config,
    metrics: live?.metrics ?? [],
    mistakeBook: s.mistakes,
    rollouts: s.rolloutSteps.at(-1)?.rollouts ?? [],
    snapshot: { files },
  };
  download(
    encodeBundle(bundle),
    bundleFileName(s.config, s.checkpointStep ?? s.step, BUNDLE_EXT),
    'application/octet-stream',
  );
}

/** The live run's records as JSONL, the same format `npm run train` writes. */
export function exportMetricsJsonl(store: LabStore): void {
  const s = store.getState();
  const live = s.series.find((r) => r.id === s.runId);
  const text = (live?.metrics ?? []).map((m) => JSON.stringify(m) + '\n').join('');
  download(new TextEncoder().encode(text), bundleFileName(s.config, s.step, '-metrics.jsonl'), 'application/x-ndjson');
}

/** Imports a bundle as the current run. A bad file throws BundleError before anything is written or shown. */
/** Imports a bundle; returns what happened when it differs from "Imported <file>" (a metrics-only bundle). */
export async function importBundle(store: LabStore, file: File): Promise<string | undefined> {
  const s = store.getState();
  if (s.status === 'running' || s.status === 'stepping' || s.status === 'starting')
    throw new Error('Pause the run before importing another one.');
  const bundle = decodeBundle(new Uint8Array(await file.arrayBuffer()));
  const files = (bundle.snapshot as { files?: Record<string, unknown> } | undefined)?.files;
  if (!files || typeof files !== 'object' || !Object.values(files).every((f) => f instanceof Uint8Array)) {
    throw new BundleError('it carries no run files (snapshot.files)');
  }
  if (!files['latest/state.json'] || !files['config.json']) {
    // A metrics-only bundle (the shipped reference runs, a bundle of a CLI run's records) is a finished run to
    // compare with: it becomes a run on the charts and in the runs table, not an error.
    if (bundle.metrics.length) {
      addComparisonBytes(store, file.name, new Uint8Array(await file.arrayBuffer()), `imp:${file.name}`);
      return `Imported ${file.name} as a run to compare with (${bundle.metrics.length} steps of records, no checkpoint: it cannot be resumed).`;
    }
    throw new BundleError('it has no committed step (latest/state.json and config.json) and no step records');
  }
  const runId = (await getRunMeta(bundle.name)) ? newRunId() : bundle.name;
  await new IdbRunStore(runId).replaceAll(files as Record<string, Uint8Array>);
  const meta: RunMeta = {
    runId,
    label: runLabel(bundle.config),
    config: bundle.config,
    createdAt: bundle.createdAt,
    updatedAt: Date.now(),
    step: 0,
  };
  const state = JSON.parse(dec.decode(files['latest/state.json'] as Uint8Array)) as TrainerState;
  meta.step = state.step;
  await putRunMeta(meta);
  const evalBytes = files[RUN_FILES.evals] as Uint8Array | undefined;
  const evals = evalBytes ? parseEvalJsonl(dec.decode(evalBytes), `${file.name}: ${RUN_FILES.evals}`) : [];
  showRun(
    store,
    { meta, metrics: bundle.metrics.filter((m) => m.step < state.step), state, rollouts: bundle.rollouts, evals },
    `Imported ${file.name}`,
  );
}

/** Adds a finished run for comparison: a bundle, or a metrics.jsonl written by `npm run train`. */
export async function addComparison(store: LabStore, file: File): Promise<void> {
  addComparisonBytes(store, file.name, new Uint8Array(await file.arrayBuffer()), `cmp:${file.name}`);
}

/**
 * Coder pass@1 at a run's last evaluation on the `heldout` split (tasks never trained on); for a run evaluated only on
 * the instance split (records made before held-out meant tasks never trained on, e.g. the shipped reference runs),
 * that split's, flagged `renamed` so the table says so instead of calling it held-out.
 */
export function lastHeldOut(evals: EvalReport[]): { passAt1: number; renamed?: true } | undefined {
  const held = evals.filter((e) => e.split === 'heldout').at(-1);
  if (held) return { passAt1: held.passAt1 };
  const renamed = evals.filter((e) => e.split === 'renamed').at(-1);
  return renamed && { passAt1: renamed.passAt1, renamed: true };
}

/** The evaluations a held-out chart draws: the held-out split's, else (older runs) the renamed split's. */
export function heldOutEvals(evals: EvalReport[]): EvalReport[] {
  const held = evals.filter((e) => e.split === 'heldout');
  return held.length ? held : evals.filter((e) => e.split === 'renamed');
}

function addComparisonBytes(store: LabStore, name: string, bytes: Uint8Array, id: string): void {
  let metrics: StepMetrics[];
  let label = name;
  let extra: Partial<RunSeries> = {};
  if (name.endsWith('.jsonl')) {
    metrics = parseMetricsJsonl(dec.decode(bytes), name);
    if (!metrics.length || !metrics.every((m) => Number.isInteger(m.step)))
      throw new Error(`${name} holds no step records`);
    // A cluster run imported from the release: say which of its metrics follow the release's definitions.
    const own = Object.keys(RELEASE_METRICS).filter((k) => metrics.some((m) => k in m));
    if (own.length)
      label = `${name} (release run: its ${own.map((k) => RELEASE_METRICS[k as ReleaseMetricKey].lab).join(' and ')} are by the release's definitions)`;
  } else {
    const b = decodeBundle(bytes);
    metrics = b.metrics;
    label = runLabel(b.config);
    const evalBytes = (b.snapshot as { files?: Record<string, unknown> } | undefined)?.files?.[RUN_FILES.evals];
    const evals =
      evalBytes instanceof Uint8Array ? parseEvalJsonl(dec.decode(evalBytes), `${name}: ${RUN_FILES.evals}`) : [];
    extra = {
      config: b.config,
      createdAt: b.createdAt,
      heldOut: lastHeldOut(evals),
      heldOutEvals: heldOutEvals(evals),
    };
  }
  store.getState().setSeries({ id, label, mode: metrics[0]?.mode ?? 'code-a1', metrics, ...extra });
}

/** The reference runs shipped in public/reference (index.json lists them), overlaid on the charts. */
export async function loadReferenceRuns(store: LabStore): Promise<{ runs: number; steps: number }> {
  const base = new URL(`${import.meta.env.BASE_URL}reference/`, location.origin);
  const res = await fetch(new URL('index.json', base));
  if (!res.ok || (res.headers.get('content-type') ?? '').includes('text/html'))
    throw new Error('this build ships no reference runs (public/reference/index.json)');
  const index = (await res.json()) as { runs: { file: string; steps: number }[] };
  for (const r of index.runs) {
    const got = await fetch(new URL(r.file, base));
    if (!got.ok) throw new Error(`reference run ${r.file}: HTTP ${got.status}`);
    addComparisonBytes(store, r.file, new Uint8Array(await got.arrayBuffer()), `ref:${r.file}`);
  }
  return { runs: index.runs.length, steps: Math.max(...index.runs.map((r) => r.steps)) };
}

/** Makes a run saved in this browser the current one (paused; Start resumes it). */
export async function openSaved(store: LabStore, meta: RunMeta): Promise<void> {
  const s = store.getState();
  if (s.status === 'running' || s.status === 'stepping' || s.status === 'starting')
    throw new Error('Pause the run before opening another one.');
  const run = await readStoredRun(meta.runId);
  if (!run?.state) throw new Error(`Run ${meta.runId} has no committed step to open.`);
  await putRunMeta({ ...meta, updatedAt: Date.now() });
  showRun(store, run, `Opened ${meta.label}`);
}

/** Overlays a run saved in this browser. */
export async function overlaySaved(store: LabStore, meta: RunMeta): Promise<void> {
  const run = await readStoredRun(meta.runId);
  if (!run) throw new Error(`Run ${meta.runId} is gone.`);
  store.getState().setSeries({
    id: `saved:${meta.runId}`,
    label: `${runLabel(meta.config)} (saved)`,
    mode: meta.config.mode,
    metrics: run.metrics,
    config: meta.config,
    createdAt: meta.createdAt,
    heldOut: lastHeldOut(run.evals),
    heldOutEvals: heldOutEvals(run.evals),
  });
}

export { listRuns };
