// URL config codec: roundtrip on random configs, and bad values reported (not silently applied).
import { describe, expect, it } from 'vitest';
import { freshSeed, mulberry32 } from '../../testing/random';
import { decodeConfigHash, encodeConfigHash } from './url-codec';
import { DEFAULT_RUN_CONFIG, HYPERPARAMS, MODES, PRESETS, type HyperValue, type RunConfigUi } from './run-config';

function randomConfig(rng: () => number): RunConfigUi {
  const overrides: Record<string, HyperValue> = {};
  for (const h of HYPERPARAMS) {
    if (rng() < 0.5) continue;
    if (h.kind === 'choice') {
      overrides[h.key] = h.values[Math.floor(rng() * h.values.length)];
      continue;
    }
    // Strictly inside the range: some bounds are exclusive (lr > 0), and rng() can return exactly 0.
    const v = h.min + (0.001 + 0.998 * rng()) * (h.max - h.min);
    overrides[h.key] = h.integer ? Math.round(v) : v;
  }
  return {
    preset: PRESETS[Math.floor(rng() * PRESETS.length)],
    mode: MODES[Math.floor(rng() * MODES.length)],
    seed: Math.floor(rng() * 1e9),
    overrides,
  };
}

describe('config URL codec', () => {
  it('roundtrips random configs exactly', () => {
    const seed = freshSeed();
    console.log('url-codec seed', seed);
    const rng = mulberry32(seed);
    for (let i = 0; i < 200; i++) {
      const cfg = randomConfig(rng);
      const hash = encodeConfigHash(cfg);
      const back = decodeConfigHash(hash);
      expect(back.problems).toEqual([]);
      expect(back.present).toBe(true);
      expect(back.config).toEqual(cfg);
    }
  });

  it('reports bad values and keeps the defaults for them', () => {
    const d = decodeConfigHash(
      '#preset=huge&mode=golden&seed=-3&M=2.5&lr=abc&K=4&bogus=1&coderTests=mine&goldenTests=public&trainPart=',
    );
    expect(d.config.preset).toBe(DEFAULT_RUN_CONFIG.preset);
    expect(d.config.mode).toBe('golden');
    expect(d.config.seed).toBe(DEFAULT_RUN_CONFIG.seed);
    expect(d.config.overrides).toEqual({ K: 4, goldenTests: 'public' });
    expect(d.problems).toHaveLength(7);
    expect(d.problems.join('\n')).toMatch(/preset 'huge'/);
    expect(d.problems.join('\n')).toMatch(/M must be an integer/);
    expect(d.problems.join('\n')).toMatch(/unknown hyperparameter 'bogus'/);
    expect(d.problems.join('\n')).toMatch(/coderTests=mine: coder graded on must be one of own, shared/);
    expect(d.problems.join('\n')).toMatch(/trainPart=: RL instances must be/);
  });

  it('an empty hash means no config', () => {
    expect(decodeConfigHash('').present).toBe(false);
    expect(decodeConfigHash('#').present).toBe(false);
  });
});

describe('config → TrainConfig', () => {
  it('every hyperparameter path exists in every preset, and overrides land there', async () => {
    const { presetValue, toTrainConfig } = await import('./run-config');
    for (const p of PRESETS)
      for (const h of HYPERPARAMS)
        if (h.kind === 'number') expect(presetValue(p, h.key), `${p}.${h.path}`).toBeTypeOf('number');
        // A choice is one of its values, or unset where the field has no default (trainPart: every instance).
        else expect([...h.values, undefined], `${p}.${h.path}`).toContain(presetValue(p, h.key));
    const cfg = toTrainConfig({
      preset: 'micro',
      mode: 'self-play',
      seed: 9,
      overrides: { M: 3, lr: 0.002, alpha: 0.25, replayTopK: 2, coderTests: 'shared', trainPart: 'rl' },
    });
    expect(cfg.reward.coder_tests).toBe('shared');
    expect(cfg.tasks.train_part).toBe('rl');
    expect(cfg.mode).toBe('self-play');
    expect(cfg.seed).toBe(9);
    expect(cfg.rollout.num_generations).toBe(3);
    expect(cfg.optim.lr).toBe(0.002);
    expect(cfg.reward.alpha).toBe(0.25);
    expect(cfg.mistake_book.replay_top_k).toBe(2);
    // Untouched values keep the preset's.
    expect(cfg.rollout.tester_generations).toBe(presetValue('micro', 'N'));
  });
});
