// Entry of a Node sandbox worker thread: teaches the thread TypeScript (tsx), then starts worker-node.ts.
import { register } from 'tsx/esm/api';

register();
await import('./worker-node.ts');
