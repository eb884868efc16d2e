// Every lab config field (src/rl/config.ts) → its key in the published Code-A1 recipe's config (verl), or the reason
// it has none. One table serves the export, the read-back (round trip) and the completeness test.
//
// The table is keyed by dotted field path and reads the config through its flattened form, so a field added to
// TrainConfig later needs one row here (the completeness test names the missing one), and rows for fields another
// branch is still adding do no harm until the field exists.
import type { Json } from './keys';

/** The flattened lab config: dotted path → leaf value. */
export type FlatConfig = Record<string, unknown>;

export interface MappedField {
  field: string;
  /** The release keys this field sets (dotted paths in config.yaml). */
  keys: readonly string[];
  /** Release key values for this field's value (the whole flattened lab config is there for fields that depend on others). */
  to(value: unknown, lab: FlatConfig): Record<string, Json>;
  /** The lab value back from the flattened config.yaml (absent: the field is not recoverable on its own). */
  from?(yaml: Record<string, unknown>): unknown;
}

export interface UnmappedField {
  field: string;
  /** Why the release has no key for it (shown in config.yaml's header comment). */
  why: string;
  /** The value the release's code behaves as (a warning is given when the lab's differs). */
  releaseValue?: Json;
}

const num = (v: unknown, what: string): number => {
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new Error(`${what} must be a number, got ${JSON.stringify(v)}`);
  return v;
};

/** A field whose value is one release key's value, unchanged both ways. */
function same(field: string, key: string): MappedField {
  return { field, keys: [key], to: (v) => ({ [key]: v as Json }), from: (y) => y[key] };
}

/** The longer of the Coder's and the Tester's completion limits. */
const responseLength = (lab: FlatConfig) =>
  Math.max(
    num(lab['rollout.max_completion_length'], 'rollout.max_completion_length'),
    num(lab['rollout.max_test_completion_length'], 'rollout.max_test_completion_length'),
  );

const LOSS_AGG: Record<string, string> = {
  dapo: 'token-mean',
  grpo: 'seq-mean-token-mean',
  dr_grpo: 'seq-mean-token-sum-norm',
};

/**
 * What the lab's trainer does for fields this branch's TrainConfig does not have yet (one optimizer step per training
 * step, one pass, constant lr, no warmup): the export fills them in so config.yaml says what the lab run did.
 */
export const LAB_IMPLICIT: Readonly<Record<string, Json>> = {
  'optim.mini_batches': 1,
  'grpo.num_iterations': 1,
  'optim.schedule': 'constant',
  'optim.warmup_steps': 0,
};

const MB = 'actor_rollout_ref.actor.ppo_mini_batch_size';

/** clip_ratio_c for "no dual-clip": verl requires c > 1, and no advantage times this is below the clipped loss. */
export const DUAL_CLIP_OFF = 1e9;

export const MAPPED: readonly MappedField[] = [
  // HF gradient checkpointing recomputes each decoder layer in the backward, as the lab's recompute does.
  same('optim.recompute', 'actor_rollout_ref.model.enable_gradient_checkpointing'),
  {
    field: 'mode',
    keys: [],
    // The release publishes one recipe, the two-model Code-A1 trainer; the baselines have no config there.
    to: (v) => {
      if (v !== 'code-a1')
        throw new Error(
          `mode '${String(v)}' cannot be exported: the release's recipe (main_a1.py) trains a Coder and a Tester (mode code-a1); golden and self-play have no published config`,
        );
      return {};
    },
    from: () => 'code-a1',
  },
  same('rollout.num_generations', 'actor_rollout_ref.rollout.n'),
  same('rollout.tester_generations', 'other.actor_rollout_ref.rollout.n'),
  same('rollout.problems_per_step', 'data.train_batch_size'),
  same('rollout.max_prompt_length', 'data.max_prompt_length'),
  {
    // Both models share one response limit in the release (`other` overrides only the Tester's prompt length), and
    // the Tester's prompt holds the problem and a whole candidate, hence its own, longer prompt limit.
    field: 'rollout.max_completion_length',
    keys: ['data.max_response_length', 'other.data.max_prompt_length'],
    to: (v, lab) => ({
      'data.max_response_length': responseLength(lab),
      'other.data.max_prompt_length':
        num(lab['rollout.max_prompt_length'], 'rollout.max_prompt_length') + num(v, 'rollout.max_completion_length'),
    }),
    from: (y) =>
      num(y['other.data.max_prompt_length'], 'other.data.max_prompt_length') -
      num(y['data.max_prompt_length'], 'data.max_prompt_length'),
  },
  {
    field: 'rollout.max_test_completion_length',
    keys: ['data.max_response_length'],
    to: (_v, lab) => ({ 'data.max_response_length': responseLength(lab) }),
  },
  same('rollout.temperature', 'actor_rollout_ref.rollout.temperature'),
  same('rollout.top_p', 'actor_rollout_ref.rollout.top_p'),
  same('reward.alpha', 'reward_model.reward_kwargs.alpha'),
  same('mistake_book.enabled', 'mistake_book'),
  {
    // verl's clip_ratio is the symmetric fallback of clip_ratio_low/high; the release sets it to the low value.
    field: 'grpo.epsilon_low',
    keys: ['actor_rollout_ref.actor.clip_ratio_low', 'actor_rollout_ref.actor.clip_ratio'],
    to: (v) => ({
      'actor_rollout_ref.actor.clip_ratio_low': v as Json,
      'actor_rollout_ref.actor.clip_ratio': v as Json,
    }),
    from: (y) => y['actor_rollout_ref.actor.clip_ratio_low'],
  },
  same('grpo.epsilon_high', 'actor_rollout_ref.actor.clip_ratio_high'),
  {
    // verl asserts clip_ratio_c > 1 (core_algos.compute_policy_loss), so the lab's "c <= 1 turns dual-clip off" is
    // written as a c no loss reaches: min(-A·c, clipped loss) is then always the clipped loss.
    field: 'grpo.dual_clip_c',
    keys: ['actor_rollout_ref.actor.clip_ratio_c'],
    to: (v) => ({
      'actor_rollout_ref.actor.clip_ratio_c': num(v, 'grpo.dual_clip_c') > 1 ? (v as number) : DUAL_CLIP_OFF,
    }),
    from: (y) =>
      y['actor_rollout_ref.actor.clip_ratio_c'] === DUAL_CLIP_OFF ? 0 : y['actor_rollout_ref.actor.clip_ratio_c'],
  },
  {
    // k3 = verl's low_var_kl (also clamped to ±10 there); kl_ctrl.kl_coef is inert with use_kl_in_reward False but
    // the release sets it to the same value. use_kl_loss stays true at β = 0: with it false main_a1.py registers no
    // reference model, but trainer_a1.py's init_workers looks one up unconditionally (KeyError: Role.RefPolicy) and
    // its training step computes reference log-probs every step; a KL term weighted 0 is β = 0 exactly.
    field: 'grpo.beta',
    keys: [
      'actor_rollout_ref.actor.use_kl_loss',
      'actor_rollout_ref.actor.kl_loss_coef',
      'actor_rollout_ref.actor.kl_loss_type',
      'algorithm.kl_ctrl.kl_coef',
    ],
    to: (v) => ({
      'actor_rollout_ref.actor.use_kl_loss': num(v, 'grpo.beta') >= 0,
      'actor_rollout_ref.actor.kl_loss_coef': v as Json,
      'actor_rollout_ref.actor.kl_loss_type': 'low_var_kl',
      'algorithm.kl_ctrl.kl_coef': v as Json,
    }),
    from: (y) => (y['actor_rollout_ref.actor.use_kl_loss'] ? y['actor_rollout_ref.actor.kl_loss_coef'] : 0),
  },
  {
    field: 'grpo.loss_type',
    keys: ['actor_rollout_ref.actor.loss_agg_mode'],
    to: (v) => {
      const mode = LOSS_AGG[String(v)];
      if (!mode) throw new Error(`grpo.loss_type '${String(v)}' has no verl loss_agg_mode`);
      return { 'actor_rollout_ref.actor.loss_agg_mode': mode };
    },
    from: (y) => Object.keys(LOSS_AGG).find((k) => LOSS_AGG[k] === y['actor_rollout_ref.actor.loss_agg_mode']),
  },
  {
    // The release's trainer_a1.py trains the Tester on the update_n candidates whose tester rewards vary most;
    // update_n >= M keeps every candidate.
    field: 'grpo.tester_candidates',
    keys: ['other.update_n'],
    to: (v, lab) => ({
      'other.update_n': v === 'all' ? num(lab['rollout.num_generations'], 'rollout.num_generations') : 1,
    }),
    from: (y) => (y['other.update_n'] === 1 ? 'max-variance' : 'all'),
  },
  same('grpo.num_iterations', 'actor_rollout_ref.actor.ppo_epochs'),
  same('optim.lr', 'actor_rollout_ref.actor.optim.lr'),
  same('optim.weight_decay', 'actor_rollout_ref.actor.optim.weight_decay'),
  same('optim.max_grad_norm', 'actor_rollout_ref.actor.grad_clip'),
  {
    field: 'optim.mini_batches',
    keys: [MB],
    to: (v, lab) => {
      const batch = num(lab['rollout.problems_per_step'], 'rollout.problems_per_step');
      const n = num(v, 'optim.mini_batches');
      if (!Number.isInteger(batch / n))
        throw new Error(
          `rollout.problems_per_step ${batch} must split into optim.mini_batches ${n} equal mini-batches (verl's ppo_mini_batch_size)`,
        );
      return { [MB]: batch / n };
    },
    from: (y) => num(y['data.train_batch_size'], 'data.train_batch_size') / num(y[MB], MB),
  },
  same('optim.warmup_steps', 'actor_rollout_ref.actor.optim.lr_warmup_steps'),
  same('optim.schedule', 'actor_rollout_ref.actor.optim.warmup_style'),
  same('run.checkpoint_every', 'trainer.save_freq'),
];

export const UNMAPPED: readonly UnmappedField[] = [
  { field: 'preset', why: 'a lab preset name; trainer.experiment_name names the cluster run' },
  { field: 'seed', why: "the release's configs set no seed (verl's data loader and vLLM use their own defaults)" },
  {
    field: 'tasks.families',
    why: 'the problems themselves are in train.parquet / val.parquet (data.train_files / data.val_files)',
  },
  {
    field: 'tasks.train_part',
    why: 'the part of the training instances RL uses is what train.parquet holds (data.train_files)',
  },
  {
    field: 'model.preset',
    why: 'a lab architecture; the cluster models are the checkpoints actor_rollout_ref.model.path names',
  },
  { field: 'model.coderCheckpoint', why: 'lab weights; the Coder is actor_rollout_ref.model.path (--coder-model)' },
  {
    field: 'model.testerCheckpoint',
    why: 'lab weights; the Tester is other.actor_rollout_ref.model.path (--tester-model)',
  },
  {
    field: 'rollout.tests_per_group',
    why: 'K is fixed at 8 in the release (reward.py gt_default = 8, the Tester prompt asks for 8 tests)',
    releaseValue: 8,
  },
  {
    field: 'rollout.rollout_quant',
    why: 'vLLM rolls out in actor_rollout_ref.rollout.dtype (bfloat16)',
    releaseValue: 'none',
  },
  { field: 'reward.golden_tests', why: 'golden-baseline only; the release publishes no golden config' },
  {
    field: 'reward.coder_tests',
    why: "our variant ('shared'); the release grades each candidate on the tests aimed at it",
    releaseValue: 'own',
  },
  { field: 'reward.timeout_ms', why: 'sandbox_fusion timeouts are fixed in reward.py (10 s per run)' },
  {
    field: 'mistake_book.replay_top_k',
    why: 'fixed at 8 in the release (MistakeBook.get_attack_testcases max_count)',
    releaseValue: 8,
  },
  {
    field: 'grpo.scale_rewards',
    why: "verl's GRPO divides by the group std (algorithm.norm_adv_by_std_in_grpo, default True = 'group'); the release's configs do not set it",
    releaseValue: 'group',
  },
  {
    field: 'grpo.is_cap',
    why: 'no rollout/learner importance correction in the release (rollout.calculate_log_probs False)',
  },
  {
    field: 'grpo.drop_zero_std_groups',
    why: 'the release keeps tied groups (no dynamic sampling in its verl fork)',
    releaseValue: false,
  },
  {
    field: 'optim.tester_lr',
    why: 'the release trains both models with actor_rollout_ref.actor.optim.lr (`other` has no optim section)',
  },
  { field: 'optim.beta1', why: 'torch AdamW default (0.9) in verl 0.4; no key in the release', releaseValue: 0.9 },
  { field: 'optim.beta2', why: 'torch AdamW default (0.999) in verl 0.4; no key in the release', releaseValue: 0.999 },
  { field: 'optim.eps', why: 'torch AdamW default (1e-8); no key in the release', releaseValue: 1e-8 },
  {
    field: 'optim.weight_decay_params',
    why: 'verl 0.4 decays every parameter (torch AdamW over all of them)',
    releaseValue: 'all',
  },
  { field: 'optim.total_steps', why: "verl's cosine runs over trainer.total_training_steps (set with --steps)" },
  { field: 'run.max_bad_steps', why: 'verl has no skip-on-non-finite-step counter' },
  ...(['kto_beta', 'kto_lambda_d', 'kto_lambda_u', 'tcs_stage2_step', 'tcs_buffer_steps'] as const).map((k) => ({
    field: `methods.${k}`,
    why: 'a setting of the lab-only ace / tcs modes; the release recipe is Code-A1 (and its baselines) only',
  })),
];

const BY_FIELD = new Map<string, MappedField | UnmappedField>([...MAPPED, ...UNMAPPED].map((m) => [m.field, m]));

export function fieldMapping(field: string): MappedField | UnmappedField | undefined {
  return BY_FIELD.get(field);
}

export function isMapped(m: MappedField | UnmappedField): m is MappedField {
  return 'keys' in m;
}
