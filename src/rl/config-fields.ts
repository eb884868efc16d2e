// The training config's one table: every field's help text, type, default (the paper preset), range and the release
// setting it follows, the way TRL's GRPOConfig documents its fields. Validation, the CLI's --set and --help and the
// UI's hyperparameter rows all read it; adding a field means adding it to TrainConfig and one row here.
import { TRAIN_PARTS, type TrainPart } from '../tasks/split';
import type { Mode } from './metrics';
import { MODE_RULES } from './modes';
import type { MethodsConfig } from './config-methods';

export type LossType = 'grpo' | 'dr_grpo' | 'dapo';
export type ScaleRewards = 'group' | 'batch' | 'none';
export const PRESET_NAMES = ['micro', 'tiny', 'paper'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

/** The config's shape; what each field means, its default and its range are in CONFIG_FIELDS below. */
export interface TrainConfig {
  preset: PresetName;
  mode: Mode;
  seed: number;
  tasks: { families: string[]; train_part?: TrainPart };
  model: { preset: string; coderCheckpoint: string; testerCheckpoint: string };
  rollout: {
    num_generations: number;
    tester_generations: number;
    tests_per_group: number;
    problems_per_step: number;
    max_prompt_length: number;
    max_completion_length: number;
    max_test_completion_length: number;
    temperature: number;
    top_p: number;
    rollout_quant: 'int8' | 'int4' | 'none';
  };
  reward: { alpha: number; golden_tests: 'public' | 'hidden'; timeout_ms: number };
  mistake_book: { enabled: boolean; replay_top_k: number };
  grpo: {
    epsilon_low: number;
    epsilon_high: number;
    dual_clip_c: number;
    beta: number;
    loss_type: LossType;
    scale_rewards: ScaleRewards;
    tester_candidates: 'max-variance' | 'all';
    is_cap: number;
    num_iterations: number;
    drop_zero_std_groups: boolean;
  };
  optim: {
    lr: number;
    tester_lr: number;
    beta1: number;
    beta2: number;
    eps: number;
    weight_decay: number;
    weight_decay_params: 'all' | 'matrices';
    max_grad_norm: number;
    mini_batches: number;
    schedule: 'constant' | 'cosine';
    warmup_steps: number;
    total_steps: number;
  };
  /** The tcs and ace modes' settings (config-methods.ts; their rows are the last block of the table). */
  methods: MethodsConfig;
  run: { checkpoint_every: number; max_bad_steps: number };
}

type Leaf = string | number | boolean | readonly string[];
/** Dotted paths to every leaf of T ('rollout.num_generations', …). */
type LeafPaths<T, P extends string = ''> = {
  [K in keyof T & string]-?: NonNullable<T[K]> extends Leaf ? `${P}${K}` : LeafPaths<NonNullable<T[K]>, `${P}${K}.`>;
}[keyof T & string];
type At<T, P extends string> = P extends `${infer H}.${infer R}`
  ? H extends keyof T
    ? At<NonNullable<T[H]>, R>
    : never
  : P extends keyof T
    ? T[P]
    : never;
export type ConfigPath = LeafPaths<TrainConfig>;

interface FieldBase {
  /** What the field does and why it matters (shown by --help and beside the UI row). */
  help: string;
  /** The paper's or the release's setting it follows (code/rl/config/1.5B_A1.yaml of ZJU-REAL/Code-A1, verl, TRL). */
  ref?: string;
  /** Shown as a hyperparameter row in the UI: `key` is its stable name in URLs and bundles, `row` its place. */
  ui?: { key: string; label: string; row: number };
}
export interface NumberField extends FieldBase {
  type: 'int' | 'number';
  default: number;
  min: number;
  max: number;
  /** The bound itself is out of range ((0, 1] rather than [0, 1]). */
  minExclusive?: boolean;
  maxExclusive?: boolean;
}
export interface BoolField extends FieldBase {
  type: 'boolean';
  default: boolean;
}
export interface EnumField<V extends string = string> extends FieldBase {
  type: 'enum';
  /** undefined: the field may be left out. */
  default: V | undefined;
  values: readonly V[];
}
export interface StringField extends FieldBase {
  type: 'string';
  default: string;
}
export interface ListField extends FieldBase {
  type: 'list';
  default: readonly string[];
}
export type FieldSpec = NumberField | BoolField | EnumField | StringField | ListField;
type FieldFor<V> = [V] extends [number]
  ? NumberField
  : [V] extends [boolean]
    ? BoolField
    : [V] extends [readonly string[]]
      ? ListField
      : string extends V
        ? StringField
        : EnumField<Extract<NonNullable<V>, string>>;

const BIG = 1 << 20;

/** Every field exactly once (the type requires each path of TrainConfig), in the order configs are written. */
export const CONFIG_FIELDS: { readonly [P in ConfigPath]: FieldFor<At<TrainConfig, P>> } = {
  preset: {
    type: 'enum',
    default: 'paper',
    values: PRESET_NAMES,
    help: 'The named preset the run started from (choose it with --preset; the other fields override it).',
  },
  mode: {
    type: 'enum',
    default: 'code-a1',
    values: Object.keys(MODE_RULES) as Mode[],
    help: 'code-a1: a separate Tester attacks each candidate; golden: the Coder is rewarded on fixed tests; self-play: one model writes both; tcs: the Tester is trained in two stages on the solver’s recent candidates; ace: one model writes code and adversarial inputs, judged by execution only (docs/method.md).',
  },
  seed: {
    type: 'int',
    default: 1,
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    help: 'Seeds sampling, problem order and fresh initialisation.',
  },
  'tasks.families': {
    type: 'list',
    default: [],
    help: 'Curriculum families to train on, comma-separated (empty = every training family).',
  },
  'tasks.train_part': {
    type: 'enum',
    default: undefined,
    values: TRAIN_PARTS,
    help: "Which training instances RL uses ('rl' = the half the warm-start did not see); absent means all.",
  },
  'model.preset': {
    type: 'string',
    default: 'small',
    help: 'Model size preset (micro, tiny, small) for fresh initialisation.',
  },
  'model.coderCheckpoint': { type: 'string', default: '', help: "Coder weights to start from ('' = fresh init)." },
  'model.testerCheckpoint': { type: 'string', default: '', help: "Tester weights to start from ('' = fresh init)." },
  'rollout.num_generations': {
    type: 'int',
    default: 8,
    min: 1,
    max: 64,
    ref: 'TRL num_generations; release rollout.n',
    ui: { key: 'M', label: 'M', row: 0 },
    help: 'M: candidates the Coder samples per problem; they form the Coder’s GRPO group.',
  },
  'rollout.tester_generations': {
    type: 'int',
    default: 8,
    min: 1,
    max: 64,
    ref: 'release other.actor_rollout_ref.rollout.n',
    ui: { key: 'N', label: 'N', row: 1 },
    help: 'N: Tester rollouts per candidate; they form the Tester’s GRPO group.',
  },
  'rollout.tests_per_group': {
    type: 'int',
    default: 8,
    min: 1,
    max: 64,
    ref: 'release reward.py gt_default',
    ui: { key: 'K', label: 'K', row: 2 },
    help: 'K: tests per tester rollout (extraction keeps the first K); validity and adversarial rewards count out of K.',
  },
  'rollout.problems_per_step': {
    type: 'int',
    default: 256,
    min: 1,
    max: 4096,
    ref: 'release data.train_batch_size',
    ui: { key: 'problemsPerStep', label: 'problems / step', row: 5 },
    help: 'Problems in each step’s batch; more gives steadier gradients and slower steps.',
  },
  'rollout.max_prompt_length': {
    type: 'int',
    default: 4096,
    min: 1,
    max: BIG,
    ref: 'release data.max_prompt_length',
    help: 'Prompt tokens kept (longer prompts are cut from the left).',
  },
  'rollout.max_completion_length': {
    type: 'int',
    default: 4096,
    min: 1,
    max: BIG,
    ref: 'release data.max_response_length',
    help: 'New tokens a Coder rollout may write.',
  },
  'rollout.max_test_completion_length': {
    type: 'int',
    default: 4096,
    min: 1,
    max: BIG,
    ref: 'release data.max_response_length (tester)',
    help: 'New tokens a Tester rollout may write.',
  },
  'rollout.temperature': {
    type: 'number',
    default: 1.0,
    min: 0,
    max: 4,
    ref: 'release rollout.temperature',
    ui: { key: 'temperature', label: 'temperature', row: 11 },
    help: 'Sampling temperature for rollouts (0 = greedy); higher explores more, lower repeats itself.',
  },
  'rollout.top_p': {
    type: 'number',
    default: 1.0,
    min: 0,
    max: 1,
    minExclusive: true,
    ref: 'release rollout.top_p',
    help: 'Nucleus sampling: keep the smallest set of tokens whose probability reaches top_p.',
  },
  'rollout.rollout_quant': {
    type: 'enum',
    default: 'none',
    values: ['int8', 'int4', 'none'],
    help: "Rollouts run on quantized copies of the learner ('none' = fp32); the loss corrects with a capped importance weight.",
  },
  'reward.alpha': {
    type: 'number',
    default: 0.5,
    min: 0,
    max: 1,
    ref: 'release reward_kwargs.alpha',
    ui: { key: 'alpha', label: 'α', row: 3 },
    help: 'Tester reward = α·validity + (1−α)·adversarial; lower α pushes harder attacks.',
  },
  'reward.golden_tests': {
    type: 'enum',
    default: 'hidden',
    values: ['public', 'hidden'],
    help: "golden mode: reward the Coder on the problem's own 20+ tests ('hidden', the paper's golden baseline) or only its docstring examples ('public'); evaluation uses held-out problems either way.",
  },
  'reward.timeout_ms': {
    type: 'int',
    default: 1000,
    min: 1,
    max: 600_000,
    help: 'Sandbox time limit per test, in milliseconds.',
  },
  'mistake_book.enabled': {
    type: 'boolean',
    default: true,
    ref: 'release mistake_book',
    help: 'Keep the tests that broke a candidate and replay them to later candidates of that problem.',
  },
  'mistake_book.replay_top_k': {
    type: 'int',
    default: 8,
    min: 0,
    max: 64,
    ref: 'release get_attack_testcases max_count',
    ui: { key: 'replayTopK', label: 'replay top-k', row: 4 },
    help: 'Mistake Book tests replayed per problem (highest frequency first) so old failures stay fixed.',
  },
  'grpo.epsilon_low': {
    type: 'number',
    default: 0.2,
    min: 0,
    max: 1,
    ref: 'release actor.clip_ratio_low',
    ui: { key: 'epsilonLow', label: 'ε low', row: 9 },
    help: 'Lower clip of the importance ratio; limits how far one update can push a token down.',
  },
  'grpo.epsilon_high': {
    type: 'number',
    default: 0.28,
    min: 0,
    max: 1,
    ref: 'release actor.clip_ratio_high (DAPO clip-higher)',
    ui: { key: 'epsilonHigh', label: 'ε high', row: 10 },
    help: 'Upper clip of the importance ratio; a wider range keeps rare good tokens growing.',
  },
  'grpo.dual_clip_c': {
    type: 'number',
    default: 10,
    min: 0,
    max: 1000,
    ref: 'release actor.clip_ratio_c (verl dual-clip)',
    help: 'Dual-clip constant c for negative advantages (<= 1 turns it off).',
  },
  'grpo.beta': {
    type: 'number',
    default: 0.001,
    min: 0,
    max: 10,
    ref: 'release actor.kl_loss_coef (low_var_kl = k3)',
    ui: { key: 'beta', label: 'β (KL)', row: 8 },
    help: 'Weight of the k3 KL penalty to the frozen initial policy; keeps the models near where they started.',
  },
  'grpo.loss_type': {
    type: 'enum',
    default: 'dapo',
    values: ['grpo', 'dr_grpo', 'dapo'],
    ref: "release actor.loss_agg_mode 'token-mean' = TRL dapo",
    help: 'How token losses are averaged: per sequence (grpo), by a fixed length (dr_grpo) or over all tokens (dapo).',
  },
  'grpo.scale_rewards': {
    type: 'enum',
    default: 'group',
    values: ['group', 'batch', 'none'],
    ref: 'release algorithm.norm_adv_by_std_in_grpo',
    help: 'Divide advantages by the group’s reward std, the batch’s, or not at all.',
  },
  'grpo.tester_candidates': {
    type: 'enum',
    default: 'max-variance',
    values: ['max-variance', 'all'],
    ref: 'release other.update_n: 1',
    help: 'Train the Tester only on the candidate whose tester rewards vary most (the release), or on all candidates.',
  },
  'grpo.is_cap': {
    type: 'number',
    default: 2,
    min: 0,
    max: 1000,
    minExclusive: true,
    help: 'Cap of the truncated importance weight between the rollout (quantized) and learner policies.',
  },
  'grpo.num_iterations': {
    type: 'int',
    default: 1,
    min: 1,
    max: 64,
    ref: 'TRL num_iterations; release actor.ppo_epochs',
    help: 'Passes over the step’s batch; every optimizer step after the first is off-policy, so the clip acts.',
  },
  'grpo.drop_zero_std_groups': {
    type: 'boolean',
    default: false,
    help: 'Leave groups whose rewards all tie out of the update (DAPO dynamic sampling); the release keeps them.',
  },
  'optim.lr': {
    type: 'number',
    default: 1e-6,
    min: 0,
    max: 1,
    minExclusive: true,
    ref: 'release actor.optim.lr',
    ui: { key: 'lr', label: 'coder lr', row: 6 },
    help: 'AdamW step size for the Coder; too high and the policy collapses.',
  },
  'optim.tester_lr': {
    type: 'number',
    default: 1e-6,
    min: 0,
    max: 1,
    minExclusive: true,
    ref: 'release actor.optim.lr (the tester inherits it)',
    ui: { key: 'testerLr', label: 'tester lr', row: 7 },
    help: 'AdamW step size for the Tester (unused in golden mode; self-play uses the coder lr).',
  },
  'optim.beta1': {
    type: 'number',
    default: 0.9,
    min: 0,
    max: 1,
    maxExclusive: true,
    ref: 'verl optim.betas',
    help: 'AdamW first-moment decay.',
  },
  'optim.beta2': {
    type: 'number',
    default: 0.999,
    min: 0,
    max: 1,
    maxExclusive: true,
    ref: 'verl optim.betas',
    help: 'AdamW second-moment decay.',
  },
  'optim.eps': {
    type: 'number',
    default: 1e-8,
    min: 0,
    max: 1,
    minExclusive: true,
    ref: 'torch AdamW eps',
    help: 'AdamW denominator epsilon.',
  },
  'optim.weight_decay': {
    type: 'number',
    default: 0.1,
    min: 0,
    max: 1,
    ref: 'release actor.optim.weight_decay',
    help: 'Decoupled AdamW weight decay (multiplied by the lr).',
  },
  'optim.weight_decay_params': {
    type: 'enum',
    default: 'all',
    values: ['all', 'matrices'],
    ref: 'torch AdamW over every parameter (verl fsdp_workers)',
    help: "Which tensors AdamW decays: 'all' (the release) or 'matrices' (no norms or biases).",
  },
  'optim.max_grad_norm': {
    type: 'number',
    default: 1.0,
    min: 0,
    max: 1e6,
    ref: 'release actor.grad_clip',
    help: 'Global gradient-norm clip (0 turns it off).',
  },
  'optim.mini_batches': {
    type: 'int',
    default: 2,
    min: 1,
    max: 4096,
    ref: 'release train_batch_size / actor.ppo_mini_batch_size = 256 / 128',
    help: 'Optimizer steps per training step: the batch is cut into this many mini-batches; old log-probs stay those of the policy at rollout time.',
  },
  'optim.schedule': {
    type: 'enum',
    default: 'cosine',
    values: ['constant', 'cosine'],
    ref: 'release actor.optim.warmup_style',
    help: 'lr schedule over training steps: linear warmup from 0, then constant or a half cosine to 0.',
  },
  'optim.warmup_steps': {
    type: 'int',
    default: 10,
    min: 0,
    max: BIG,
    ref: 'release actor.optim.lr_warmup_steps',
    help: 'Training steps of linear lr warmup from 0.',
  },
  'optim.total_steps': {
    type: 'int',
    default: 0,
    min: 0,
    max: BIG,
    help: 'Length of the cosine schedule in training steps (0: no decay after warmup; the release’s is its run length).',
  },
  'run.checkpoint_every': {
    type: 'int',
    default: 50,
    min: 1,
    max: BIG,
    ref: 'release trainer.save_freq',
    help: 'Keep a checkpoint every n steps (and at the end).',
  },
  'run.max_bad_steps': {
    type: 'int',
    default: 3,
    min: 1,
    max: 1000,
    help: 'Stop after this many consecutive non-finite steps.',
  },
  // ---- Neighbouring methods (tcs, ace modes): docs/method.md lists each choice. ----
  'methods.kto_beta': {
    type: 'number',
    default: 0.1,
    min: 0,
    max: 100,
    minExclusive: true,
    ref: 'TRL KTOConfig.beta',
    help: 'ace: KTO’s β, how sharply the adversary’s loss separates desirable from undesirable input groups.',
  },
  'methods.kto_lambda_d': {
    type: 'number',
    default: 1,
    min: 0,
    max: 100,
    ref: 'TRL KTOConfig.desirable_weight',
    help: 'ace: KTO weight of desirable input groups (those that broke their program).',
  },
  'methods.kto_lambda_u': {
    type: 'number',
    default: 1,
    min: 0,
    max: 100,
    ref: 'TRL KTOConfig.undesirable_weight',
    help: 'ace: KTO weight of undesirable input groups (their program survived).',
  },
  'methods.tcs_stage2_step': {
    type: 'int',
    default: 10,
    min: 0,
    max: BIG,
    help: 'tcs: first training step of stage 2 (counterexamples to the solver’s current failures); earlier steps reward consistency with the reference.',
  },
  'methods.tcs_buffer_steps': {
    type: 'int',
    default: 4,
    min: 1,
    max: 1000,
    help: 'tcs: how many recent steps of Coder candidates the rolling buffer keeps (1 = this step’s only).',
  },
};

/** The table as a list, in config order. */
export const FIELD_LIST = Object.entries(CONFIG_FIELDS) as [ConfigPath, FieldSpec][];
