// The training config's types: its shape (TrainConfig, one group per concern) and the shape of a config-table row,
// typed so that each dotted path gets the row kind its value needs. The rows themselves are in config-fields.ts.
import type { TrainPart } from '../tasks/split';
import type { Mode } from './metrics';

/** Upper bound of a count that has no natural limit. */
export const BIG = 1 << 20;

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
    rollout_quant: 'int8' | 'int4' | 'f16' | 'none';
  };
  reward: { alpha: number; golden_tests: 'public' | 'hidden'; coder_tests: 'own' | 'shared'; timeout_ms: number };
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
    /** Per-layer activation recompute in the training step (GpuModel.recompute). */
    recompute: boolean;
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
export type LeafPaths<T, P extends string = ''> = {
  [K in keyof T & string]-?: NonNullable<T[K]> extends Leaf ? `${P}${K}` : LeafPaths<NonNullable<T[K]>, `${P}${K}.`>;
}[keyof T & string];
export type At<T, P extends string> = P extends `${infer H}.${infer R}`
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
export type FieldFor<V> = [V] extends [number]
  ? NumberField
  : [V] extends [boolean]
    ? BoolField
    : [V] extends [readonly string[]]
      ? ListField
      : string extends V
        ? StringField
        : EnumField<Extract<NonNullable<V>, string>>;

/** The tcs and ace modes' settings; their rows are in config-methods.ts. */
export interface MethodsConfig {
  /** KTO (ACE's adversary): β, and the weights of desirable (λ_D) and undesirable (λ_U) rollouts (TRL's defaults). */
  kto_beta: number;
  kto_lambda_d: number;
  kto_lambda_u: number;
  /** TCS: the first training step of stage 2 (counterexamples to current failures); steps before it are stage 1. */
  tcs_stage2_step: number;
  /** TCS: how many recent steps of Coder candidates the rolling buffer keeps (1 = this step's only). */
  tcs_buffer_steps: number;
}
