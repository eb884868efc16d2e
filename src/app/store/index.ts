// The lab's one zustand store, composed from slices; `useLab` for React, `labStore.subscribe` for hot paths (charts).
import { createStore, useStore } from 'zustand';
import type { LabState } from './types';
import {
  createEvalSlice,
  createMetricsSlice,
  createMistakeBookSlice,
  createModelSlice,
  createPerfSlice,
  createRolloutsSlice,
  createRunSlice,
  createUiSlice,
} from './slices';

export function createLabStore() {
  return createStore<LabState>()((...a) => ({
    ...createRunSlice(...a),
    ...createMetricsSlice(...a),
    ...createRolloutsSlice(...a),
    ...createMistakeBookSlice(...a),
    ...createEvalSlice(...a),
    ...createPerfSlice(...a),
    ...createModelSlice(...a),
    ...createUiSlice(...a),
  }));
}

export type LabStore = ReturnType<typeof createLabStore>;

export const labStore = createLabStore();

export function useLab<T>(selector: (s: LabState) => T): T {
  return useStore(labStore, selector);
}
