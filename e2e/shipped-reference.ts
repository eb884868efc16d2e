// The reference runs this build ships (public/reference/index.json and its bundles), read by the specs that overlay
// them, so a new reference set (another length, more seeds) needs no edit of the specs.
import { readFileSync } from 'node:fs';
import { decodeBundle } from '../src/app/persist/bundle';

export interface ShippedRun {
  file: string;
  mode: string;
  seed: number;
  steps: number;
  /** The start of the runs table's label for it: mode · preset · seed (hyperparameters that differ follow). */
  label: string;
}

export function shippedReference(): { runs: ShippedRun[]; steps: number; nonGolden: number } {
  const index = JSON.parse(readFileSync('public/reference/index.json', 'utf8')) as { runs: { file: string }[] };
  const runs = index.runs.map((r) => {
    const b = decodeBundle(new Uint8Array(readFileSync(`public/reference/${r.file}`)));
    const { mode, preset, seed } = b.config;
    return { file: r.file, mode, seed, steps: b.metrics.length, label: `${mode} · ${preset} · seed ${seed}` };
  });
  return {
    runs,
    steps: Math.max(...runs.map((r) => r.steps)),
    nonGolden: runs.filter((r) => r.mode !== 'golden').length,
  };
}
