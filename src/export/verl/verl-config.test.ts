// config.yaml of the verl export: it parses, its keys are the release's (1.5B/3B/7B) and verl's ppo_trainer keys
// (or the release's own extensions), every lab field is mapped or listed, and hyperparameters read back unchanged.
import { describe, expect, it } from 'vitest';
import releaseConfigs from './fixtures/release-configs.json' with { type: 'json' };
import verlKeys from './fixtures/verl-ppo-trainer-keys.json' with { type: 'json' };
import {
  buildVerlConfig,
  flatLabConfig,
  labFieldsFromVerl,
  parseVerlConfig,
  RELEASE_MODEL,
  type VerlConfigOptions,
} from './config-yaml';
import { MAPPED, UNMAPPED, fieldMapping } from './config-map';
import { flattenKeys } from './keys';
import { PRESETS, presetConfig, type TrainConfig } from '../../rl/config';
import { freshSeed, mulberry32 } from '../../testing/random';

const OPTS: VerlConfigOptions = {
  coderModel: RELEASE_MODEL,
  testerModel: 'org/tester-7b',
  nodes: 1,
  gpusPerNode: 8,
  experimentName: 'lab-test',
};
const release = releaseConfigs.configs;
const releaseKeys = (size: keyof typeof release) => new Set(Object.keys(release[size]));
const fork = new Set(verlKeys.fork.keys);
const upstream = new Set(verlKeys.upstream.keys);
/** Keys the release adds to verl's config (read by its main_a1.py / trainer_a1.py / reward manager), from the fixtures. */
const extensions = new Set(Object.keys(release['1.5B_A1']).filter((k) => !fork.has(k)));

describe('verl export config.yaml', () => {
  it('parses, and its key set is within each release config and consistent with verl ppo_trainer', () => {
    for (const preset of ['micro', 'tiny', 'paper'] as const) {
      const { yaml } = buildVerlConfig(presetConfig(preset), { ...OPTS, gpusPerNode: preset === 'micro' ? 2 : 8 });
      const keys = Object.keys(parseVerlConfig(yaml));
      for (const size of ['1.5B_A1', '3B_A1', '7B_A1'] as const)
        expect(keys.filter((k) => !releaseKeys(size).has(k))).toEqual([]);
      expect(keys.filter((k) => !fork.has(k) && !extensions.has(k))).toEqual([]);
      // Every verl key we set still exists in today's verl (the fork's names were not renamed away).
      expect(keys.filter((k) => fork.has(k) && !upstream.has(k))).toEqual([]);
      // Values have the release's types (a number stays a number, a flag a boolean), nulls where it has nulls.
      const flat = parseVerlConfig(yaml);
      const base = release['1.5B_A1'] as Record<string, unknown>;
      const kind = (v: unknown) => (Array.isArray(v) ? 'list' : v === null ? 'null' : typeof v);
      expect(
        keys.filter(
          (k) =>
            kind(flat[k]) !== kind(base[k]) && !(k === 'trainer.total_training_steps' && kind(flat[k]) === 'number'),
        ),
      ).toEqual([]);
    }
    expect([...extensions].sort()).toContain('reward_model.reward_kwargs.alpha');
  });

  it('every lab config field is mapped to a release key or listed as unmapped', () => {
    const fields = new Set(Object.values(PRESETS).flatMap((c) => Object.keys(flatLabConfig(c))));
    const missing = [...fields].filter((f) => !fieldMapping(f));
    expect(missing, `add a row to src/export/verl/config-map.ts for: ${missing.join(', ')}`).toEqual([]);
    const all = new Set(Object.keys(release['1.5B_A1']));
    expect(MAPPED.flatMap((m) => m.keys).filter((k) => !all.has(k))).toEqual([]);
    expect(MAPPED.filter((m) => UNMAPPED.some((u) => u.field === m.field))).toEqual([]);
    // No row outlives its field: a renamed or removed lab field must take its row with it.
    const stale = [...MAPPED, ...UNMAPPED].map((m) => m.field).filter((f) => !fields.has(f));
    expect(stale, `remove these rows from src/export/verl/config-map.ts: ${stale.join(', ')}`).toEqual([]);
    // A field nobody mapped yet is reported in the file rather than dropped silently.
    const { yaml, warnings } = buildVerlConfig({ ...presetConfig('tiny'), brand_new: { knob: 3 } }, OPTS);
    expect(warnings.join('\n')).toContain('brand_new.knob');
    expect(yaml).toContain('#  brand_new.knob: not mapped yet');
  });

  it('the release 1.5B values, entered as lab fields, export back to the release 1.5B config', () => {
    const labFromRelease = labFieldsFromVerl(release['1.5B_A1']);
    // The fields the release's config determines, applied to the paper preset (some may not exist on this branch yet).
    const config = structuredClone(presetConfig('paper')) as unknown as Record<string, unknown>;
    for (const [field, v] of Object.entries({ ...labFromRelease, 'rollout.max_test_completion_length': 4096 })) {
      const parts = field.split('.');
      let o = config;
      for (const p of parts.slice(0, -1)) o = o[p] as Record<string, unknown>;
      o[parts[parts.length - 1]] = v;
    }
    const { flat } = buildVerlConfig(config, { ...OPTS, gpusPerNode: 8 });
    const base = release['1.5B_A1'] as Record<string, unknown>;
    for (const key of MAPPED.flatMap((m) => m.keys)) expect([key, flat[key]]).toEqual([key, base[key]]);
    expect(flat['trainer.n_gpus_per_node']).toBe(base['trainer.n_gpus_per_node']);
    expect(flat['other.data.max_prompt_length']).toBe(8192);
  });

  it('the paper preset exports the release 1.5B value of every key whose lab field agrees with the release', () => {
    const fromRelease = labFieldsFromVerl(release['1.5B_A1']);
    const lab = flatLabConfig(presetConfig('paper'));
    const { flat } = buildVerlConfig(presetConfig('paper'), OPTS);
    const base = release['1.5B_A1'] as Record<string, unknown>;
    const agreeing = MAPPED.filter(
      (m) => m.from && JSON.stringify(lab[m.field]) === JSON.stringify(fromRelease[m.field]),
    );
    expect(agreeing.length).toBeGreaterThan(12);
    for (const m of agreeing) for (const key of m.keys) expect([key, flat[key]]).toEqual([key, base[key]]);
  });

  it('random lab hyperparameters read back unchanged from config.yaml', () => {
    const seed = freshSeed();
    console.log('verl config seed', seed);
    const rng = mulberry32(seed);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rng() * xs.length)];
    for (let t = 0; t < 20; t++) {
      const batch = pick([4, 8, 12, 32, 256]);
      const c: TrainConfig = presetConfig(pick(['micro', 'tiny', 'paper']), {
        rollout: {
          num_generations: 1 + Math.floor(rng() * 16),
          tester_generations: 1 + Math.floor(rng() * 16),
          problems_per_step: batch,
          temperature: 0.1 + rng(),
          top_p: 0.5 + rng() / 2,
        },
        reward: { alpha: rng() },
        mistake_book: { enabled: rng() < 0.5 },
        grpo: {
          epsilon_low: rng() / 2,
          epsilon_high: rng() / 2,
          dual_clip_c: 1 + rng() * 10,
          beta: rng() < 0.2 ? 0 : rng() / 100,
          loss_type: pick(['grpo', 'dr_grpo', 'dapo'] as const),
          tester_candidates: pick(['max-variance', 'all'] as const),
        },
        optim: { lr: rng() / 1000, weight_decay: rng() / 10, max_grad_norm: 0.5 + rng() },
        run: { checkpoint_every: 1 + Math.floor(rng() * 50) },
      });
      const lab = flatLabConfig(c);
      // Mini-batches that divide the batch, when this branch's config has them (else the lab's implicit 1).
      lab['optim.mini_batches'] = pick([1, 2, 4].filter((n) => batch % n === 0));
      const { yaml } = buildVerlConfig(
        { ...c, optim: { ...c.optim, mini_batches: lab['optim.mini_batches'] } },
        { ...OPTS, gpusPerNode: 2 },
      );
      const back = labFieldsFromVerl(parseVerlConfig(yaml));
      for (const m of MAPPED) {
        if (!m.from) continue;
        const want =
          m.field === 'grpo.tester_candidates' && c.rollout.num_generations === 1 ? back[m.field] : lab[m.field];
        if (typeof want === 'number') expect([m.field, back[m.field]]).toEqual([m.field, expect.closeTo(want, 12)]);
        else expect([m.field, back[m.field]]).toEqual([m.field, want]);
      }
      expect(Object.keys(back).length).toBeGreaterThan(15);
    }
  });

  it('model paths, cluster size and steps land in their keys; bad sizes and modes are refused clearly', () => {
    const { flat, yaml } = buildVerlConfig(presetConfig('tiny'), { ...OPTS, nodes: 2, gpusPerNode: 4, steps: 77 });
    expect(flat['actor_rollout_ref.model.path']).toBe(RELEASE_MODEL);
    expect(flat['other.actor_rollout_ref.model.path']).toBe('org/tester-7b');
    expect([
      flat['trainer.nnodes'],
      flat['trainer.n_gpus_per_node'],
      flat['other.trainer.n_gpus_per_node'],
      flat['trainer.total_training_steps'],
    ]).toEqual([2, 2, 2, 77]);
    expect(flattenKeys(parseVerlConfig(yaml))['data.train_files']).toBe('${prefix}/train.parquet');
    expect(() => buildVerlConfig(presetConfig('tiny'), { ...OPTS, gpusPerNode: 3 })).toThrow(
      '--gpus-per-node must be even',
    );
    expect(() => buildVerlConfig(presetConfig('tiny'), { ...OPTS, gpusPerNode: 12 })).toThrow(
      'train batch of 16 problems (rollout.problems_per_step) does not split over 6 GPUs per model',
    );
    expect(() => buildVerlConfig(presetConfig('tiny', { mode: 'golden' }), OPTS)).toThrow(
      "mode 'golden' cannot be exported",
    );
  });
});
