// config.yaml for the published Code-A1 recipe: the release's 1.5B config as the base (recorded key by key in
// fixtures/release-configs.json), every lab field written to its key (config-map.ts), unmapped fields listed in the
// header comment, and the paths and GPU counts of this export.
import { Document, isScalar, isSeq, parse } from 'yaml';
import releaseConfigs from './fixtures/release-configs.json' with { type: 'json' };
import { flattenKeys, type Json } from './keys';
import { DUAL_CLIP_OFF, LAB_IMPLICIT, MAPPED, UNMAPPED, fieldMapping, isMapped, type FlatConfig } from './config-map';
import { hparamGaps, releaseConfig, releaseSizeFor } from './release-fit';
import { sizePromptLimits, type PromptLengths } from './prompt-lengths';

export { RELEASE_MODEL } from './release';

export interface VerlConfigOptions {
  /** HF id or directory of the Coder (actor_rollout_ref.model.path). */
  coderModel: string;
  /** HF id or directory of the Tester (other.actor_rollout_ref.model.path). */
  testerModel: string;
  nodes: number;
  /** GPUs on each node; the release gives half to the Coder's pool and half to the Tester's. */
  gpusPerNode: number;
  experimentName: string;
  /** trainer.total_training_steps (null: run trainer.total_epochs epochs, as the release does). */
  steps?: number;
  /**
   * Take the release's values (its config for the Coder's model size) for every hyperparameter; only the data, the
   * models and the cluster shape come from the export (--release-hparams).
   */
  releaseHparams?: boolean;
  /** Training problems: with releaseHparams, the release's batch of 256 is cut to what this many problems fill. */
  trainCount?: number;
  /** The prompts measured with the cluster model's tokenizer: the prompt limits are sized to them. */
  promptLengths?: PromptLengths;
}

export interface VerlConfig {
  yaml: string;
  /** The flattened config.yaml, key → value. */
  flat: Record<string, Json>;
  /** Lab values the release's code cannot honour (it behaves as stated instead). */
  warnings: string[];
}

/** The flattened lab config, completed with what the lab's trainer does for fields this version lacks. */
export function flatLabConfig(config: object): FlatConfig {
  const flat = flattenKeys(config as Record<string, unknown>);
  for (const [k, v] of Object.entries(LAB_IMPLICIT)) if (!(k in flat)) flat[k] = v;
  return flat;
}

function unflatten(flat: Record<string, Json>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, v] of Object.entries(flat)) {
    const parts = path.split('.');
    let o = out;
    for (const p of parts.slice(0, -1)) o = (o[p] ??= {}) as Record<string, unknown>;
    o[parts[parts.length - 1]] = v;
  }
  return out;
}

function checkGpus(o: VerlConfigOptions, flat: Record<string, Json>): void {
  const posInt = (v: number, name: string) => {
    if (!Number.isInteger(v) || v < 1) throw new Error(`${name} must be a positive integer, got ${v}`);
  };
  posInt(o.nodes, '--nodes');
  posInt(o.gpusPerNode, '--gpus-per-node');
  if (o.gpusPerNode % 2)
    throw new Error(
      `--gpus-per-node must be even: the release puts the Coder and the Tester on separate halves of each node (got ${o.gpusPerNode})`,
    );
  const perModel = (o.gpusPerNode / 2) * o.nodes;
  // verl splits each generation batch (train_batch_size prompts for the Coder, × M for the Tester) into equal chunks,
  // one per GPU of the model's pool, and asserts they are equal.
  const batch = flat['data.train_batch_size'] as number;
  if (batch % perModel)
    throw new Error(
      `train batch of ${batch} problems (rollout.problems_per_step) does not split over ${perModel} GPUs per model (${o.nodes} node(s) x ${o.gpusPerNode / 2}); use a multiple of ${perModel} problems per step or fewer GPUs`,
    );
  // fsdp_workers.py: ppo_mini_batch_size × rollout.n // GPUs of the model must stay > 0 (asserted), for the Coder (M)
  // and the Tester (N) alike.
  const mini = flat['actor_rollout_ref.actor.ppo_mini_batch_size'] as number;
  const n = Math.min(
    flat['actor_rollout_ref.rollout.n'] as number,
    flat['other.actor_rollout_ref.rollout.n'] as number,
  );
  if (Math.floor((mini * n) / perModel) < 1)
    throw new Error(
      `a mini-batch of ${mini} problems x ${n} samples is less than one sample per GPU on ${perModel} GPUs per model; verl asserts ppo_mini_batch_size > 0 after dividing by the GPUs — use fewer optim.mini_batches or fewer GPUs`,
    );
}

export function buildVerlConfig(config: object, o: VerlConfigOptions): VerlConfig {
  const lab = flatLabConfig(config);
  const own = flattenKeys(config as Record<string, unknown>);
  const implicit = Object.keys(LAB_IMPLICIT).filter((k) => !(k in own));
  const base = releaseConfigs.configs['1.5B_A1'] as Record<string, Json>;
  const flat: Record<string, Json> = { ...base };
  const comments = new Map<string, string>();
  const set = (key: string, value: Json, comment?: string) => {
    if (!(key in base)) throw new Error(`internal: '${key}' is not a key of the release's config`);
    flat[key] = value;
    if (comment) comments.set(key, comments.has(key) ? `${comments.get(key)}, ${comment}` : comment);
  };

  set('prefix', '.', 'replaced at run time by $PREFIX (launch.sh: this folder)');
  set('data.train_files', '${prefix}/train.parquet', 'exported problems');
  set('data.val_files', '${prefix}/val.parquet');
  set('actor_rollout_ref.model.path', o.coderModel, 'Coder');
  set('other.actor_rollout_ref.model.path', o.testerModel, 'Tester');
  set('trainer.experiment_name', o.experimentName);
  set(
    'trainer.rollout_data_dir',
    '${prefix}/logs/model_a_rollout/${trainer.experiment_name}',
    'also holds the Mistake Book',
  );
  set('trainer.validation_data_dir', '${prefix}/logs/model_a_validation/${trainer.experiment_name}');
  set('trainer.default_local_dir', '${prefix}/checkpoints/model_a/${trainer.experiment_name}');
  set('other.trainer.rollout_data_dir', '${prefix}/logs/model_b_rollout/${trainer.experiment_name}');
  set('other.trainer.validation_data_dir', '${prefix}/logs/model_b_validation/${trainer.experiment_name}');
  set('other.trainer.default_local_dir', '${prefix}/checkpoints/model_b/${trainer.experiment_name}');
  set('trainer.nnodes', o.nodes, '--nodes');
  set('trainer.n_gpus_per_node', o.gpusPerNode / 2, 'Coder pool: half of --gpus-per-node');
  set('other.trainer.n_gpus_per_node', o.gpusPerNode / 2, 'Tester pool: the other half');
  if (o.steps !== undefined) set('trainer.total_training_steps', o.steps, '--steps');

  const warnings: string[] = [];
  const unknown: string[] = [];
  /** Release key → the lab field that set it. */
  const labKeys = new Map<string, string>();
  for (const [field, value] of Object.entries(lab)) {
    const m = fieldMapping(field);
    if (!m) {
      unknown.push(field);
      continue;
    }
    if (isMapped(m)) {
      for (const [k, v] of Object.entries(m.to(value, lab))) {
        set(k, v, `lab ${field}`);
        labKeys.set(k, field);
      }
    } else if (m.releaseValue !== undefined && JSON.stringify(m.releaseValue) !== JSON.stringify(value)) {
      warnings.push(
        `${field} = ${JSON.stringify(value)} has no key in the release, which uses ${JSON.stringify(m.releaseValue)}`,
      );
    }
  }
  if (lab['optim.tester_lr'] !== undefined && lab['optim.tester_lr'] !== lab['optim.lr'])
    warnings.push(
      `optim.tester_lr ${String(lab['optim.tester_lr'])} differs from optim.lr ${String(lab['optim.lr'])}: the release trains both models at optim.lr`,
    );
  if (lab['grpo.beta'] === 0)
    warnings.push(
      "grpo.beta = 0: written as use_kl_loss true with kl_loss_coef 0 — the release's trainer (trainer_a1.py init_workers) looks up the reference model unconditionally and crashes without it; the KL term weighted 0 changes nothing but costs a reference forward per step",
    );
  if (flat['actor_rollout_ref.actor.clip_ratio_c'] === DUAL_CLIP_OFF)
    warnings.push(
      `grpo.dual_clip_c = ${String(lab['grpo.dual_clip_c'])} (dual-clip off): verl asserts clip_ratio_c > 1, so it is written as ${DUAL_CLIP_OFF}, a bound no loss reaches`,
    );
  const { size, guessed } = releaseSizeFor(o.coderModel);
  if (o.releaseHparams) {
    const rel = releaseConfig(size);
    for (const key of labKeys.keys()) {
      flat[key] = rel[key];
      comments.set(key, `release ${size}_A1 (--release-hparams)`);
    }
    const cap = o.trainCount ?? Infinity;
    const batch = flat['data.train_batch_size'] as number;
    const step =
      (o.gpusPerNode / 2) * o.nodes * (batch / (flat['actor_rollout_ref.actor.ppo_mini_batch_size'] as number));
    if (cap < batch) {
      const fit = Math.floor(cap / step) * step;
      if (fit < step)
        throw new Error(
          `--release-hparams: ${cap} training problems fill no batch that splits over the GPUs (${step} problems at least)`,
        );
      flat['data.train_batch_size'] = fit;
      flat['actor_rollout_ref.actor.ppo_mini_batch_size'] =
        fit / (batch / (flat['actor_rollout_ref.actor.ppo_mini_batch_size'] as number));
      warnings.push(
        `--release-hparams: data.train_batch_size ${fit} instead of the release's ${batch}, which the ${cap} training problems do not fill`,
      );
    }
    labKeys.clear();
  }
  if (o.promptLengths) {
    const sized = sizePromptLimits(flat, o.promptLengths);
    for (const [k, v] of Object.entries(sized.set)) {
      flat[k] = v;
      comments.set(k, `sized to the exported prompts (${o.promptLengths.label} tokens)`);
      labKeys.delete(k);
    }
    warnings.push(...sized.notes);
  }
  if (!o.releaseHparams) {
    const gaps = hparamGaps(flat, labKeys, size);
    if (gaps.length)
      warnings.push(
        ...gaps.map((g) => `not the release's setting for this model: ${g}`),
        `(the release's values for a ${size} model${guessed ? `, assumed since the model name ${o.coderModel} says no size` : ''}: export with --release-hparams)`,
      );
  }
  if (unknown.length)
    warnings.push(
      `lab fields with no row in the export's mapping (src/export/verl/config-map.ts): ${unknown.join(', ')}`,
    );
  checkGpus(o, flat);

  const doc = new Document(unflatten(flat));
  for (const [key, text] of comments) {
    const node = doc.getIn(key.split('.'), true);
    if (isScalar(node) || isSeq(node)) node.comment = ` ${text}`;
  }
  const unmapped = [
    ...UNMAPPED.filter((u) => u.field in lab).map((u) => `  ${u.field} = ${JSON.stringify(lab[u.field])}: ${u.why}`),
    ...unknown.map((f) => `  ${f}: not mapped yet`),
  ];
  doc.commentBefore = [
    ` Code-A1 recipe (github.com/ZJU-REAL/Code-A1, code/rl/config/*_A1.yaml format) exported by Code-A1 Lab.`,
    ` Run with launch.sh (see README.md). Keys marked "lab FIELD" carry that lab config field.`,
    ` Lab fields with no key in the release's config:`,
    ...unmapped,
    ...(implicit.length
      ? [
          ` Not in this lab version's config, written as its trainer behaves: ${implicit.map((k) => `${k} = ${JSON.stringify(lab[k])}`).join(', ')}`,
        ]
      : []),
    ...(warnings.length ? [' Warnings:', ...warnings.map((w) => `  ${w}`)] : []),
  ].join('\n');
  return { yaml: doc.toString({ lineWidth: 0 }), flat, warnings };
}

/** config.yaml back to its flattened keys. */
export function parseVerlConfig(yaml: string): Record<string, Json> {
  return flattenKeys(parse(yaml) as Record<string, unknown>) as Record<string, Json>;
}

/** The lab fields a config.yaml determines (for the round trip): field → value. */
export function labFieldsFromVerl(flat: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const m of MAPPED) if (m.from && m.keys.every((k) => k in flat)) out[m.field] = m.from(flat);
  return out;
}
