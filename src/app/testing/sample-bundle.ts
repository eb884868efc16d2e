// A run bundle built from sample records and a real run-directory layout (config.json, metrics.jsonl, latest/state.json)
// but no model weights: for UI-only specs (charts, inspector, Mistake Book, import errors) before any training.
import { presetConfig } from '../../rl/config';
import { rolloutsPath } from '../../run/run-layout';
import type { TrainerState } from '../../rl/trainer';
import { encodeBundle, type RunBundle } from '../persist/bundle';
import type { RunConfigUi } from '../config/run-config';
import { sampleMetrics, sampleMistakes, sampleRollout } from './sample-run';

export function sampleBundle(
  seed: number,
  steps: number,
  name = `sample-${seed}`,
): { bytes: Uint8Array; bundle: RunBundle } {
  const config: RunConfigUi = { preset: 'micro', mode: 'code-a1', seed, overrides: {} };
  const metrics = sampleMetrics(seed, steps);
  const mistakes = sampleMistakes(seed, 8);
  const state: TrainerState = {
    step: steps,
    rngState: seed,
    badSteps: 0,
    book: {
      entries: mistakes,
      history: metrics.map((m) => ({ step: m.step, size: m['mistake_book/size'], added: 1, removed: 0 })),
    },
  };
  const enc = new TextEncoder();
  const rollouts = [
    sampleRollout(seed, steps - 1, { candidates: 3, testers: 2, k: 3 }),
    sampleRollout(seed + 1, steps - 1),
  ];
  const bundle: RunBundle = {
    name,
    createdAt: 1_700_000_000_000,
    config,
    metrics,
    mistakeBook: mistakes,
    rollouts,
    snapshot: {
      files: {
        'config.json': enc.encode(JSON.stringify(presetConfig('micro', { seed }))),
        'metrics.jsonl': enc.encode(metrics.map((m) => JSON.stringify(m) + '\n').join('')),
        'latest/state.json': enc.encode(JSON.stringify(state)),
        [rolloutsPath(steps - 1)]: enc.encode(JSON.stringify(rollouts)),
      },
    },
  };
  return { bytes: encodeBundle(bundle), bundle };
}
