// Loading the harness into a fresh interpreter: every route from Python back to JS removed first, then the harness
// sources run in one private namespace and the entry points the worker calls taken out of it.
import type { PyodideAPI } from 'pyodide';
import type { PyProxy } from 'pyodide/ffi';
import type { HarnessSources } from './protocol';
import type { PyFn } from './worker-values';

const API_NAMES = [
  'begin',
  'classify',
  'evaluate',
  'define',
  'call',
  'record',
  'replay',
  'flush',
  'extract',
  'dumps',
] as const;
export type HarnessApi = Record<(typeof API_NAMES)[number], PyFn>;

/** Runs before any untrusted code: afterwards Python can reach JS only through what the harness returns. */
export function loadHarness(py: PyodideAPI, sources: HarnessSources): HarnessApi {
  for (const name of ['js', 'pyodide_js']) {
    try {
      py.unregisterJsModule(name);
    } catch {
      /* already gone */
    }
  }
  py.runPython(
    `import sys as _s
for _k in [k for k in _s.modules if k in ('js','pyodide_js') or k.startswith(('pyodide', '_pyodide'))]:
    del _s.modules[_k]
_s.meta_path[:] = [f for f in _s.meta_path if type(f).__name__ != 'JsFinder']
del _s, _k`,
  );
  const ns = py.globals.get('dict')() as PyProxy;
  for (const src of [sources.guard, sources.harness, sources.extract, sources.suite])
    py.runPython(src, { globals: ns });
  const api = py.runPython(sources.api, { globals: ns }) as PyProxy & { get(k: string): PyFn };
  const out = Object.fromEntries(API_NAMES.map((k) => [k, api.get(k)])) as HarnessApi;
  api.destroy();
  return out;
}
