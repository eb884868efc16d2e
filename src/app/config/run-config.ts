// The UI's view of a run config: preset + mode + seed + a few hyperparameter overrides, each with a one-line explanation.
import type { Mode } from '../../rl/metrics';
import {
  FIELD_LIST,
  PRESETS as TRAIN_PRESETS,
  PRESET_DESCRIPTIONS,
  PRESET_NAMES,
  fieldError,
  presetConfig,
  type ConfigPath,
  type DeepPartial,
  type PresetName,
  type TrainConfig,
} from '../../rl/config';

export type { PresetName };
export const PRESETS = PRESET_NAMES;
export const MODES: readonly Mode[] = ['code-a1', 'golden', 'self-play', 'tcs', 'ace'];
export const PRESET_NOTES = PRESET_DESCRIPTIONS;

export const MODE_NOTES: Record<Mode, string> = {
  'code-a1': 'A separate white-box Tester attacks each candidate; its tests are validated on the ground truth.',
  golden: 'Baseline: the Coder is rewarded on the problem’s own tests; no Tester is trained.',
  'self-play': 'Baseline: one model writes both the code and its tests, so it can collude with itself.',
  tcs: 'TCS: the Tester learns in two stages, first tests consistent with the reference solution, then counterexamples to the Coder’s current failures.',
  ace: 'ACE: one model writes code and adversarial inputs; no ground truth — inputs that crash a program are preferred (KTO), programs that survive are imitated.',
};

interface HyperBase {
  /** Stable short name used in the URL and in the overrides map. */
  key: string;
  /** Dotted path into the trainer's TrainConfig (src/rl/config-fields.ts). */
  path: ConfigPath;
  label: string;
  /** One line: what it does and why it matters. */
  explain: string;
}

/** A numeric setting, typed into a box. */
export interface NumberHyper extends HyperBase {
  kind: 'number';
  integer: boolean;
  /** The table's range, shown as the input's bounds (the table's checks decide, exclusive bounds included). */
  min: number;
  max: number;
}

/** A setting with named values (e.g. which tests grade the Coder), picked from a list. */
export interface ChoiceHyper extends HyperBase {
  kind: 'choice';
  values: readonly string[];
}

export type HyperParam = NumberHyper | ChoiceHyper;
/** An override's value: a number for a numeric setting, one of the named values for a choice. */
export type HyperValue = number | string;

/** The config table's fields marked for the UI (src/rl/config-fields.ts), in their row order. */
export const HYPERPARAMS: readonly HyperParam[] = FIELD_LIST.flatMap(([path, f]): (HyperParam & { row: number })[] => {
  if (!f.ui) return [];
  const base = { key: f.ui.key, path, label: f.ui.label, explain: f.help, row: f.ui.row };
  if (f.type === 'int' || f.type === 'number')
    return [{ ...base, kind: 'number', integer: f.type === 'int', min: f.min, max: f.max }];
  if (f.type === 'enum') return [{ ...base, kind: 'choice', values: f.values }];
  return [];
})
  .sort((a, b) => a.row - b.row)
  .map(({ row: _row, ...h }) => h);

const BY_KEY = new Map(HYPERPARAMS.map((h) => [h.key, h]));
export function hyperParam(key: string): HyperParam | undefined {
  return BY_KEY.get(key);
}

export interface RunConfigUi {
  preset: PresetName;
  mode: Mode;
  seed: number;
  /** Only the hyperparameters the user changed; the rest come from the preset. */
  overrides: Record<string, HyperValue>;
}

/** `tiny` starts from the shipped pretrained checkpoints: the default demo. */
export const DEFAULT_RUN_CONFIG: RunConfigUi = { preset: 'tiny', mode: 'code-a1', seed: 1, overrides: {} };

/** Why a value is not acceptable for this hyperparameter (the config table's check), or null when it is. */
export function checkHyperValue(key: string, value: HyperValue): string | null {
  const h = BY_KEY.get(key);
  if (!h) return `unknown hyperparameter '${key}'`;
  if (h.kind === 'number' && typeof value !== 'number') return `${h.label} must be a number, got '${value}'`;
  const why = fieldError(h.path, value);
  return why && `${h.label} ${why}`;
}

export function isPreset(s: string): s is PresetName {
  return (PRESETS as readonly string[]).includes(s);
}
export function isMode(s: string): s is Mode {
  return (MODES as readonly string[]).includes(s);
}

export function getPath(obj: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);
}

/** The preset's value for a hyperparameter (shown as the placeholder when not overridden; undefined = unset). */
export function presetValue(preset: PresetName, key: string): HyperValue | undefined {
  const h = BY_KEY.get(key);
  const v = h ? getPath(TRAIN_PRESETS[preset], h.path) : undefined;
  return typeof v === 'number' || typeof v === 'string' ? v : undefined;
}

/** An override read from text (a URL, a bundle): a number for a numeric setting, the text itself for a choice. */
export function parseHyperValue(key: string, text: string): HyperValue {
  const h = BY_KEY.get(key);
  if (h?.kind === 'choice') return text;
  return text.trim() === '' ? NaN : Number(text);
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
