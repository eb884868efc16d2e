// Loading the harness into a fresh interpreter: every route from Python back to JS removed first, the C functions
// of the call path taken (worker-call.ts), then the harness sources run in one private namespace and the entry points
// the worker calls taken out of it.
import type { PyodideAPI } from 'pyodide';
import type { PyProxy } from 'pyodide/ffi';
import type { HarnessSources } from './protocol';
import { captureCFuncs, type CFuncs } from './worker-call';
import type { PyFn } from './worker-values';

const API_NAMES = [
  'begin',
  'namespace',
  'classify',
  'evaluate',
  'define',
  'record',
  'replay',
  'flush',
  'extract',
  'dumps',
] as const;
export type HarnessApi = Record<(typeof API_NAMES)[number], PyFn> & { c: CFuncs };

/**
 * Runs before any untrusted code: afterwards Python can reach JS only through what the harness returns. With
 * `breach` (a test fixture, never on in use) every job's candidate namespace gets `BREACH`: the harness's own
 * globals, Pyodide's core module, the real `sys` and `builtins`, as if the candidate had got past every guard.
 */
export function loadHarness(py: PyodideAPI, sources: HarnessSources, breach = false): HarnessApi {
  const ns = py.globals.get('dict')() as PyProxy;
  if (breach) py.runPython("import sys as _s\n_BREACH_CORE = _s.modules['_pyodide_core']\ndel _s", { globals: ns });
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
  const c = captureCFuncs(py);
  for (const src of [sources.guard, sources.harness, sources.extract, sources.suite])
    py.runPython(src, { globals: ns });
  const api = py.runPython(sources.api, { globals: ns }) as PyProxy & { get(k: string): PyFn };
  if (breach)
    py.runPython(
      'import sys as _s, builtins as _bi\n_BREACH.update(harness=globals(), core=_BREACH_CORE, sys=_s, builtins=_bi)',
      { globals: ns },
    );
  const out = Object.fromEntries(API_NAMES.map((k) => [k, api.get(k)])) as unknown as HarnessApi;
  out.c = c;
  api.destroy();
  ns.destroy();
  return out;
}
