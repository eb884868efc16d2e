// The shipped reference bundles (public/reference) hold exactly the records of docs/results-data, with the config the
// lab shows; uiConfigOf lists only what differs from the preset.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMetricsJsonl } from '../../rl/metrics';
import { presetConfig, type TrainConfig } from '../../rl/config';
import { decodeBundle } from './bundle';
import { referenceBundle, uiConfigOf } from './reference';

describe('reference bundles', () => {
  it('public/reference matches docs/results-data (rebuild with scripts/reference-bundles.ts)', () => {
    const index = JSON.parse(readFileSync('public/reference/index.json', 'utf8')) as {
      runs: { file: string; steps: number; dir: string }[];
    };
    // Every mode, in the page's order (seeds within a mode ascending).
    const modes = ['code-a1', 'golden', 'self-play'];
    const shipped = index.runs.map((r) => decodeBundle(new Uint8Array(readFileSync(`public/reference/${r.file}`))));
    const order = shipped.map((b) => modes.indexOf(b.config.mode) * 1000 + b.config.seed);
    expect(new Set(shipped.map((b) => b.config.mode))).toEqual(new Set(modes));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    for (const [i, r] of index.runs.entries()) {
      const b = shipped[i];
      const dir = r.dir;
      const want = parseMetricsJsonl(readFileSync(`${dir}/metrics.jsonl`, 'utf8'));
      expect(b.metrics).toEqual(want);
      expect(r.steps).toBe(want.length);
      const cfg = JSON.parse(readFileSync(`${dir}/config.json`, 'utf8')) as TrainConfig;
      expect(b.config).toEqual(uiConfigOf(cfg));
      const again = referenceBundle(
        readFileSync(`${dir}/config.json`, 'utf8'),
        readFileSync(`${dir}/metrics.jsonl`, 'utf8'),
        readFileSync(`${dir}/eval.jsonl`, 'utf8'),
      );
      expect(again.file).toBe(r.file);
    }
  });

  it('uiConfigOf keeps preset, mode and seed, and lists changed hyperparameters only', () => {
    const lr = presetConfig('tiny').optim.lr * 3;
    const cfg = presetConfig('tiny', { mode: 'golden', seed: 9, optim: { lr }, reward: { alpha: 0.9 } });
    expect(uiConfigOf(cfg)).toEqual({ preset: 'tiny', mode: 'golden', seed: 9, overrides: { alpha: 0.9, lr } });
    expect(uiConfigOf(presetConfig('micro')).overrides).toEqual({});
  });
});
