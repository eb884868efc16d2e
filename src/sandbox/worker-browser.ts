// Browser adapter of the sandbox worker (a module Web Worker): loads Pyodide from files the build emits
// (Vite `?url` imports, no CDN), then locks the realm down: no code generation, network or outbound messaging.
import { loadPyodide } from 'pyodide';
import asmUrl from 'pyodide/pyodide.asm.mjs?url';
import wasmUrl from 'pyodide/pyodide.asm.wasm?url';
import lockFileURL from 'pyodide/pyodide-lock.json?url';
import stdLibURL from 'pyodide/python_stdlib.zip?url';
import { disableCodeGeneration, removeGlobals } from './lockdown';
import type { FromWorker, ToWorker } from './protocol';
import { SandboxWorker } from './worker-core';

interface WorkerScope {
  postMessage(msg: unknown): void;
  addEventListener(type: 'message', fn: (e: MessageEvent<ToWorker>) => void): void;
  location: { href: string };
}

const scope = globalThis as unknown as WorkerScope;
// Captured before lockDown() removes postMessage from the global scope.
const post = scope.postMessage.bind(scope);
const abs = (u: string) => new URL(u, scope.location.href).href;

async function load() {
  // Pyodide fetches `${indexURL}pyodide.asm.wasm`, but the build gives the file a hashed name: map that one URL.
  const realFetch = globalThis.fetch.bind(globalThis);
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return realFetch(url.endsWith('/pyodide.asm.wasm') ? abs(wasmUrl) : input, init);
  };
  const asm = (await import(/* @vite-ignore */ abs(asmUrl))) as {
    default: NonNullable<Parameters<typeof loadPyodide>[0]>['createPyodideModule'];
  };
  return loadPyodide({
    indexURL: new URL('./', abs(wasmUrl)).href,
    createPyodideModule: asm.default,
    stdLibURL: abs(stdLibURL),
    lockFileURL: abs(lockFileURL),
    jsglobals: Object.create(null) as object,
    env: { HOME: '/home/pyodide' },
    stdout: () => {},
    stderr: () => {},
  });
}

const worker = new SandboxWorker({
  load,
  lockDown() {
    disableCodeGeneration();
    removeGlobals([
      'fetch',
      'XMLHttpRequest',
      'WebSocket',
      'WebTransport',
      'EventSource',
      'importScripts',
      'Worker',
      'SharedWorker',
      'BroadcastChannel',
      'indexedDB',
      'caches',
      'navigator',
      'postMessage',
      'close',
      'Request',
      'Response',
    ]);
    // setTimeout/setInterval with a string argument evaluate code in browsers.
    for (const name of ['setTimeout', 'setInterval'] as const) {
      const real = globalThis[name].bind(globalThis) as (fn: unknown, ms?: number) => number;
      Object.defineProperty(globalThis, name, {
        value: (fn: unknown, ms?: number) => {
          if (typeof fn !== 'function') throw new EvalError('code generation is disabled in the sandbox');
          return real(fn, ms);
        },
        writable: false,
        configurable: false,
      });
    }
  },
  post: (msg: FromWorker) => post(msg),
});
scope.addEventListener('message', (e) => worker.handle(e.data));
