// Node adapter of the sandbox worker (worker_threads): loads Pyodide from node_modules, then locks the realm down.
import { parentPort } from 'node:worker_threads';
import { nodeBytesEqual } from './bytes-node';
import { disableCodeGeneration, removeGlobals } from './lockdown';
import type { FromWorker, ToWorker } from './protocol';
import { loadNodePyodide } from './pyodide-node';
import { SandboxWorker } from './worker-core';

const port = parentPort;
if (!port) throw new Error('worker-node.ts must run in a worker thread');

const worker = new SandboxWorker({
  load: loadNodePyodide,
  lockDown() {
    disableCodeGeneration();
    removeGlobals(['process', 'require', 'module', 'Buffer', 'fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest']);
  },
  post: (msg: FromWorker) => port.postMessage(msg),
  // memcmp, taken at import, before lockDown() removes Buffer from the realm.
  equal: nodeBytesEqual,
});
port.on('message', (msg: ToWorker) => worker.handle(msg));
