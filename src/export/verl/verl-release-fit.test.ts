// Lab settings the release cannot run are mapped or refused (β = 0, dual-clip off, a mini-batch thinner than the
// GPUs); the paper preset equals the release; a tiny-sized config on a real model names every field far from the
// release's setting; --release-hparams takes the release's values for all but the data, models and cluster shape.
import { describe, expect, it } from 'vitest';
import releaseConfigs from './fixtures/release-configs.json' with { type: 'json' };
import { buildVerlConfig, RELEASE_MODEL, type VerlConfigOptions } from './config-yaml';
import { MAPPED } from './config-map';
import { releaseSizeFor } from './release-fit';
import { presetConfig } from '../../rl/config';
import type { Json } from './keys';
import { freshSeed, mulberry32 } from '../../testing/random';

const OPTS: VerlConfigOptions = {
  coderModel: RELEASE_MODEL,
  testerModel: RELEASE_MODEL,
  nodes: 1,
  gpusPerNode: 8,
  experimentName: 'fit',
};
const REL = releaseConfigs.configs['1.5B_A1'] as Record<string, Json>;
/** Keys that carry the export's data, models, cluster shape, paths and name, not hyperparameters. */
const NOT_HPARAMS =
  /^(prefix|data\.(train|val)_files|.*model\.path|trainer\.(nnodes|n_gpus_per_node|experiment_name|.*_dir)|other\.trainer\..*)$/;

describe('settings the release would crash on', () => {
  it('every β, 0 included, keeps the reference model the trainer looks up, and weights the KL by β', () => {
    const rng = mulberry32(freshSeed());
    for (const beta of [0, 0.001, rng() / 10, 0]) {
      const { flat, warnings } = buildVerlConfig(presetConfig('paper', { grpo: { beta } }), OPTS);
      // main_a1.py registers Role.RefPolicy only when use_kl_in_reward or use_kl_loss; trainer_a1.py's init_workers
      // reads role_worker_mapping[Role.RefPolicy] unconditionally.
      expect(flat['algorithm.use_kl_in_reward'] || flat['actor_rollout_ref.actor.use_kl_loss']).toBe(true);
      expect(flat['actor_rollout_ref.actor.kl_loss_coef']).toBe(beta);
      expect(warnings.some((w) => /grpo\.beta = 0.*reference model/.test(w))).toBe(beta === 0);
    }
  });

  it('dual-clip off (c <= 1) is written as a c verl accepts (> 1) that no loss reaches', () => {
    for (const c of [0, 0.5, 1, 1.01, 3, 10]) {
      const { flat, warnings } = buildVerlConfig(presetConfig('paper', { grpo: { dual_clip_c: c } }), OPTS);
      const out = flat['actor_rollout_ref.actor.clip_ratio_c'] as number;
      expect(out).toBeGreaterThan(1);
      if (c > 1) expect(out).toBe(c);
      else expect(out).toBeGreaterThanOrEqual(1e9);
      expect(warnings.some((w) => w.includes('dual-clip off'))).toBe(c <= 1);
    }
  });

  it('refuses a mini-batch with less than one sample per GPU (verl asserts ppo_mini_batch_size > 0)', () => {
    const c = presetConfig('paper', {
      rollout: { problems_per_step: 8, num_generations: 1, tester_generations: 1 },
      optim: { mini_batches: 4 },
    });
    expect(() => buildVerlConfig(c, { ...OPTS, gpusPerNode: 8 })).toThrow(/less than one sample per GPU on 4 GPUs/);
    expect(() => buildVerlConfig(c, { ...OPTS, gpusPerNode: 4 })).not.toThrow();
  });
});

describe('hyperparameters for the model, not the toy', () => {
  it('the paper preset writes the release 1.5B value of every key a lab field sets, gradient checkpointing included', () => {
    const { flat, warnings } = buildVerlConfig(presetConfig('paper'), { ...OPTS, gpusPerNode: 8 });
    expect(flat['actor_rollout_ref.model.enable_gradient_checkpointing']).toBe(true);
    for (const key of MAPPED.flatMap((m) => m.keys)) expect([key, flat[key]]).toEqual([key, REL[key]]);
    expect(warnings.filter((w) => w.startsWith("not the release's setting"))).toEqual([]);
  });

  it("a tiny-sized config on a real model names exactly the fields more than 3x from the release's", () => {
    const { flat, warnings } = buildVerlConfig(presetConfig('tiny'), OPTS);
    const noted = warnings.filter((w) => w.startsWith("not the release's setting")).map((w) => w.split(' = ')[0]);
    // An independent count over every numeric key the lab mapping writes.
    const far = [...new Set(MAPPED.flatMap((m) => m.keys))].filter((k) => {
      const [a, b] = [flat[k], REL[k]];
      if (typeof a !== 'number' || typeof b !== 'number') return false;
      return a === 0 || b === 0 ? a !== b : Math.max(a / b, b / a) > 3;
    });
    expect(far.length).toBeGreaterThan(5);
    for (const k of far)
      expect(noted.map((n) => n.replace("not the release's setting for this model: ", ''))).toContain(k);
    const text = warnings.join('\n');
    expect(text).toMatch(
      /actor_rollout_ref\.actor\.optim\.lr = 0\.0002 \(lab optim\.lr\) is 200x above the release's 0.000001/,
    );
    expect(text).toMatch(/data\.max_response_length = 128 .* 32x below the release's 4096/);
    expect(text).toMatch(/enable_gradient_checkpointing = false .* the release uses true/);
    // M = 4 against 8 is within 3x: not named.
    expect(text).not.toMatch(/: actor_rollout_ref\.rollout\.n = /);
    expect(text).toMatch(/: other\.actor_rollout_ref\.rollout\.n = 2 .* 4\.0x below/);
  });

  it('the release size is read from the model name', () => {
    expect(releaseSizeFor('Qwen/Qwen2.5-Coder-7B-Instruct')).toEqual({ size: '7B', guessed: false });
    expect(releaseSizeFor('Qwen/Qwen2.5-Coder-3B-Instruct')).toEqual({ size: '3B', guessed: false });
    expect(releaseSizeFor('Qwen/Qwen2.5-Coder-1.5B-Instruct')).toEqual({ size: '1.5B', guessed: false });
    expect(releaseSizeFor('/models/my-coder')).toEqual({ size: '1.5B', guessed: true });
  });

  it('--release-hparams takes every release value but the data, models and cluster shape', () => {
    for (const preset of ['tiny', 'micro', 'paper'] as const) {
      const { flat, warnings } = buildVerlConfig(presetConfig(preset), {
        ...OPTS,
        coderModel: 'Qwen/Qwen2.5-Coder-7B-Instruct',
        testerModel: 'Qwen/Qwen2.5-Coder-7B-Instruct',
        gpusPerNode: 4,
        releaseHparams: true,
        trainCount: 172,
      });
      const rel = releaseConfigs.configs['7B_A1'] as Record<string, Json>;
      const differ = Object.keys(rel).filter(
        (k) => !NOT_HPARAMS.test(k) && JSON.stringify(flat[k]) !== JSON.stringify(rel[k]),
      );
      // 172 problems fill no batch of 256: the largest that 2 mini-batches on 2 GPUs per model split evenly (all 172).
      expect(differ.sort()).toEqual(['actor_rollout_ref.actor.ppo_mini_batch_size', 'data.train_batch_size']);
      expect([flat['data.train_batch_size'], flat['actor_rollout_ref.actor.ppo_mini_batch_size']]).toEqual([172, 86]);
      expect(warnings.join('\n')).toMatch(/data\.train_batch_size 172 instead of the release's 256/);
      expect(warnings.filter((w) => w.startsWith("not the release's setting"))).toEqual([]);
    }
  });
});
