// The UI's view of a run config: preset + mode + seed + a few hyperparameter overrides, each with a one-line explanation.
import type { Mode } from '../../rl/metrics';
import { PRESETS as TRAIN_PRESETS, presetConfig, type DeepPartial, type TrainConfig } from '../../rl/config';

export type PresetName = 'micro' | 'tiny' | 'paper';
export const PRESETS: readonly PresetName[] = ['micro', 'tiny', 'paper'];
export const MODES: readonly Mode[] = ['code-a1', 'golden', 'self-play', 'tcs', 'ace'];

export const PRESET_NOTES: Record<PresetName, string> = {
  micro: 'Smallest models and batches: for tests and quick demos (seconds per step on a CPU).',
  tiny: 'The embedded default, sized for a laptop GPU.',
  paper: 'The published values (M = N = K = 8, α = 0.5); needs a real GPU and much patience.',
};

export const MODE_NOTES: Record<Mode, string> = {
  'code-a1': 'A separate white-box Tester attacks each candidate; its tests are validated on the ground truth.',
  golden: 'Baseline: the Coder is rewarded on the problem’s own tests; no Tester is trained.',
  'self-play': 'Baseline: one model writes both the code and its tests, so it can collude with itself.',
  tcs: 'TCS: the Tester learns in two stages, first tests consistent with the reference solution, then counterexamples to the Coder’s current failures.',
  ace: 'ACE: one model writes code and adversarial inputs; no ground truth — inputs that crash a program are preferred (KTO), programs that survive are imitated.',
};

export interface HyperParam {
  /** Stable short name used in the URL and in the overrides map. */
  key: string;
  /** Dotted path into the trainer's TrainConfig (src/rl/config.ts). */
  path: string;
  label: string;
  /** One line: what it does and why it matters. */
  explain: string;
  integer: boolean;
  min: number;
  max: number;
}

export const HYPERPARAMS: readonly HyperParam[] = [
  { key: 'M', path: 'rollout.num_generations', label: 'M', integer: true, min: 1, max: 64, explain: 'Candidates the Coder samples per problem; they form the Coder’s GRPO group.' },
  { key: 'N', path: 'rollout.tester_generations', label: 'N', integer: true, min: 1, max: 64, explain: 'Tester rollouts per candidate; they form the Tester’s GRPO group.' },
  { key: 'K', path: 'rollout.tests_per_group', label: 'K', integer: true, min: 1, max: 64, explain: 'Tests per tester rollout; validity and adversarial rewards are counted out of K.' },
  { key: 'alpha', path: 'reward.alpha', label: 'α', integer: false, min: 0, max: 1, explain: 'Tester reward = α·validity + (1−α)·adversarial; lower α pushes harder attacks.' },
  { key: 'replayTopK', path: 'mistake_book.replay_top_k', label: 'replay top-k', integer: true, min: 0, max: 64, explain: 'Mistake Book tests replayed per problem (highest frequency first) so old failures stay fixed.' },
  { key: 'problemsPerStep', path: 'rollout.problems_per_step', label: 'problems / step', integer: true, min: 1, max: 256, explain: 'Problems in each step’s batch; more gives steadier gradients and slower steps.' },
  { key: 'lr', path: 'optim.lr', label: 'coder lr', integer: false, min: 0, max: 1, explain: 'AdamW step size for the Coder; too high and the policy collapses.' },
  { key: 'testerLr', path: 'optim.tester_lr', label: 'tester lr', integer: false, min: 0, max: 1, explain: 'AdamW step size for the Tester (unused in golden mode; self-play uses the coder lr).' },
  { key: 'beta', path: 'grpo.beta', label: 'β (KL)', integer: false, min: 0, max: 10, explain: 'Weight of the KL penalty to the reference policy; keeps the models near where they started.' },
  { key: 'epsilonLow', path: 'grpo.epsilon_low', label: 'ε low', integer: false, min: 0, max: 1, explain: 'Lower clip of the importance ratio; limits how far one update can push a token down.' },
  { key: 'epsilonHigh', path: 'grpo.epsilon_high', label: 'ε high', integer: false, min: 0, max: 1, explain: 'Upper clip (DAPO clip-higher); a wider range keeps rare good tokens growing.' },
  { key: 'temperature', path: 'rollout.temperature', label: 'temperature', integer: false, min: 0, max: 4, explain: 'Sampling temperature for rollouts; higher explores more, lower repeats itself.' },
];

const BY_KEY = new Map(HYPERPARAMS.map((h) => [h.key, h]));
export function hyperParam(key: string): HyperParam | undefined {
  return BY_KEY.get(key);
}

export interface RunConfigUi {
  preset: PresetName;
  mode: Mode;
  seed: number;
  /** Only the hyperparameters the user changed; the rest come from the preset. */
  overrides: Record<string, number>;
}

/** `tiny` starts from the shipped pretrained checkpoints: the default demo. */
export const DEFAULT_RUN_CONFIG: RunConfigUi = { preset: 'tiny', mode: 'code-a1', seed: 1, overrides: {} };

/** Why a value is not acceptable for this hyperparameter, or null when it is. */
export function checkHyperValue(key: string, value: number): string | null {
  const h = BY_KEY.get(key);
  if (!h) return `unknown hyperparameter '${key}'`;
  if (!Number.isFinite(value)) return `${h.label} must be a finite number`;
  if (h.integer && !Number.isInteger(value)) return `${h.label} must be an integer`;
  if (value < h.min || value > h.max) return `${h.label} must be between ${h.min} and ${h.max}`;
  return null;
}

export function isPreset(s: string): s is PresetName {
  return (PRESETS as readonly string[]).includes(s);
}
export function isMode(s: string): s is Mode {
  return (MODES as readonly string[]).includes(s);
}

export function getPath(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);
}

/** The preset's value for a hyperparameter (shown as the placeholder when not overridden). */
export function presetValue(preset: PresetName, key: string): number | undefined {
  const h = BY_KEY.get(key);
  const v = h ? getPath(TRAIN_PRESETS[preset], h.path) : undefined;
  return typeof v === 'number' ? v : undefined;
}

/** The UI config as the trainer's nested overrides. */
export function trainOverrides(c: RunConfigUi): DeepPartial<TrainConfig> {
  const out: Record<string, unknown> = { mode: c.mode, seed: c.seed };
  for (const [key, value] of Object.entries(c.overrides)) {
    const h = BY_KEY.get(key);
    if (!h) continue;
    const parts = h.path.split('.');
    let o = out;
    for (const p of parts.slice(0, -1)) o = (o[p] ??= {}) as Record<string, unknown>;
    o[parts[parts.length - 1]] = value;
  }
  return out as DeepPartial<TrainConfig>;
}

/** The full TrainConfig this UI config stands for (throws the trainer's clear error for bad values). */
export function toTrainConfig(c: RunConfigUi): TrainConfig {
  return presetConfig(c.preset, trainOverrides(c));
}
