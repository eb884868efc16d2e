// View preferences and comparison overlays kept across reloads (localStorage): presenter view, smoothing, log scale,
// hidden runs and the runs overlaid on the charts. The live run itself is restored from IndexedDB, not from here.
import type { LabStore } from '../store';
import type { RunSeries } from '../store/types';

const KEY = 'code-a1-lab.view.v1';

interface Prefs {
  presenter: boolean;
  smoothing: number;
  logScale: boolean;
  hidden: string[];
  overlays: RunSeries[];
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled (e.g. some private modes)
  }
}

/** Applies saved preferences; on a first visit (nothing saved) the presenter view is on. */
export function loadPrefs(store: LabStore): void {
  const raw = storage()?.getItem(KEY);
  if (!raw) {
    store.setState({ presenter: true });
    return;
  }
  try {
    const p = JSON.parse(raw) as Partial<Prefs>;
    const overlays = Array.isArray(p.overlays)
      ? p.overlays.filter((r) => r && typeof r.id === 'string' && Array.isArray(r.metrics))
      : [];
    store.setState({
      presenter: p.presenter !== false,
      smoothing: typeof p.smoothing === 'number' ? Math.min(0.99, Math.max(0, p.smoothing)) : 0,
      logScale: p.logScale === true,
      hidden: Array.isArray(p.hidden) ? p.hidden.filter((h) => typeof h === 'string') : [],
      series: [...store.getState().series.filter((r) => !overlays.some((o) => o.id === r.id)), ...overlays],
    });
  } catch {
    storage()?.removeItem(KEY); // unreadable: start over rather than fail the page
  }
}

/** Saves preferences whenever they change (comparison runs only: every series but the live run). */
export function keepPrefs(store: LabStore): () => void {
  let last = '';
  return store.subscribe((s) => {
    const p: Prefs = {
      presenter: s.presenter,
      smoothing: s.smoothing,
      logScale: s.logScale,
      hidden: s.hidden,
      overlays: s.series.filter((r) => r.id !== s.runId),
    };
    // Cheap identity check first: metrics arrays are replaced, never mutated.
    const text = JSON.stringify([
      p.presenter,
      p.smoothing,
      p.logScale,
      p.hidden,
      p.overlays.map((o) => [o.id, o.metrics.length]),
    ]);
    if (text === last) return;
    last = text;
    try {
      storage()?.setItem(KEY, JSON.stringify(p));
    } catch {
      // Quota exceeded: overlays are a convenience; the runs themselves are elsewhere.
    }
  });
}
