// Reference runs as run bundles for the lab: the records docs/results.md is built from (config.json, metrics.jsonl,
// eval.jsonl of a `npm run train` run) turned into a metrics-only bundle that the lab overlays in one click.
import type { TrainConfig } from '../../rl/config';
import { parseMetricsJsonl } from '../../rl/metrics';
import {
  HYPERPARAMS,
  getPath,
  isMode,
  isPreset,
  presetValue,
  type HyperValue,
  type RunConfigUi,
} from '../config/run-config';
import { bundleFileName } from '../config/run-label';
import { RUN_FILES } from '../../run/run-layout';
import { BUNDLE_EXT, type RunBundle } from './bundle';

/** The lab's view of a CLI run's config: preset, mode, seed and each UI hyperparameter that differs from the preset. */
export function uiConfigOf(c: TrainConfig): RunConfigUi {
  if (!isPreset(c.preset) || !isMode(c.mode))
    throw new Error(`config: unknown preset '${c.preset}' or mode '${c.mode}'`);
  const overrides: Record<string, HyperValue> = {};
  for (const h of HYPERPARAMS) {
    const v = getPath(c, h.path);
    if ((typeof v === 'number' || typeof v === 'string') && v !== presetValue(c.preset, h.key)) overrides[h.key] = v;
  }
  return { preset: c.preset, mode: c.mode, seed: c.seed, overrides };
}

/** A metrics-only bundle (no checkpoints: it is for comparison, not for resuming) and its readable file name. */
export function referenceBundle(
  configJson: string,
  metricsJsonl: string,
  evalJsonl: string,
): { file: string; bundle: RunBundle } {
  const config = uiConfigOf(JSON.parse(configJson) as TrainConfig);
  const metrics = parseMetricsJsonl(metricsJsonl);
  if (!metrics.length) throw new Error('metrics.jsonl holds no step records');
  const file = `reference-${bundleFileName(config, metrics.length, BUNDLE_EXT)}`;
  const bundle: RunBundle = {
    name: file.slice(0, -BUNDLE_EXT.length),
    // When the run wrote its last step: rebuilding the bundle from the same records gives the same bytes.
    createdAt: metrics[metrics.length - 1].time,
    config,
    metrics,
    mistakeBook: [],
    rollouts: [],
    snapshot: { files: { [RUN_FILES.evals]: new TextEncoder().encode(evalJsonl) } },
  };
  return { file, bundle };
}
