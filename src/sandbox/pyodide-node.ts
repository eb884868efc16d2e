// How a Node sandbox worker loads Pyodide (also used by the benchmark's in-process worker): no `js` globals, a home
// directory, output discarded until the worker installs its capped writers.
import { loadPyodide, type PyodideAPI } from 'pyodide';

export function loadNodePyodide(): Promise<PyodideAPI> {
  // jsglobals: a prototype-less object, so even a leaked `js` module exposes nothing.
  return loadPyodide({
    jsglobals: Object.create(null) as object,
    env: { HOME: '/home/pyodide' },
    stdout: () => {},
    stderr: () => {},
  });
}
