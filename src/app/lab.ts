// The page's singletons: the store and the training client, plus a test/debug handle on window.
import { labStore } from './store';
import { TrainClient } from './worker/client';

export const client = new TrainClient(labStore);

declare global {
  interface Window {
    __lab?: { store: typeof labStore; client: TrainClient };
  }
}
// Playwright reads the store and injects faults (device loss) through this handle.
window.__lab = { store: labStore, client };
