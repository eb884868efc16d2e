// Shows the WebGPU adapter (vendor, architecture, limits, features), or says clearly that WebGPU is missing.
import { useEffect, useState } from 'react';
import { browserGpu, WEBGPU_BROWSERS } from '../../../gpu/device-browser';
import { summarizeAdapter, type AdapterSummary } from '../../../gpu/device';

type State = { kind: 'loading' } | { kind: 'ok'; summary: AdapterSummary } | { kind: 'missing'; reason: string };

/** `onAvailability` tells the page whether training can start (WebGPU present). */
export function AdapterPanel({ onAvailability }: { onAvailability?: (ok: boolean) => void } = {}) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  useEffect(() => {
    if (state.kind !== 'loading') onAvailability?.(state.kind === 'ok');
  }, [state.kind, onAvailability]);
  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const adapter = await browserGpu().requestAdapter({ powerPreference: 'high-performance' });
        if (!adapter)
          throw new Error(
            'navigator.gpu.requestAdapter() returned no adapter (WebGPU may be disabled or blocklisted).',
          );
        if (!cancelled) setState({ kind: 'ok', summary: summarizeAdapter(adapter) });
      } catch (e) {
        if (!cancelled) setState({ kind: 'missing', reason: (e as Error).message });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, []);

  if (state.kind === 'loading') return <section className="panel">Looking for a WebGPU adapter…</section>;
  if (state.kind === 'missing') {
    return (
      <section className="panel error" data-testid="no-webgpu">
        <h2>WebGPU is not available</h2>
        <p>{state.reason}</p>
        <p>
          Code-A1 Lab trains its models with WebGPU compute shaders. Use {WEBGPU_BROWSERS}, with hardware acceleration
          enabled.
        </p>
      </section>
    );
  }
  const s = state.summary;
  return (
    <section className="panel" data-testid="adapter">
      <details>
        <summary>
          <h2 className="inline">WebGPU adapter</h2>{' '}
          <span className="muted">
            {s.vendor !== 'unknown' ? s.vendor : s.fallback ? 'a CPU (fallback) adapter' : 'available'}
          </span>
        </summary>
        <dl className="kv">
          <dt>Vendor</dt>
          <dd data-testid="adapter-vendor">{s.vendor}</dd>
          <dt>Architecture</dt>
          <dd data-testid="adapter-architecture">{s.architecture}</dd>
          {s.description && (
            <>
              <dt>Description</dt>
              <dd>{s.description}</dd>
            </>
          )}
          <dt>Fallback adapter</dt>
          <dd data-testid="adapter-fallback">
            {s.fallback ? 'yes: WebGPU runs on the CPU here (the lab picks its CPU kernel variants)' : 'no'}
          </dd>
        </dl>
        <details>
          <summary>Limits ({Object.keys(s.limits).length})</summary>
          <table className="limits">
            <tbody>
              {Object.entries(s.limits).map(([k, v]) => (
                <tr key={k}>
                  <td>{k}</td>
                  <td>{v.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
        <p data-testid="adapter-features">Features: {s.features.join(', ') || 'none'}</p>
      </details>
    </section>
  );
}
