// Run names for legends, tables and file names: mode, preset, seed, then what differs from the preset.
import { HYPERPARAMS, isPreset, presetValue, type HyperValue, type RunConfigUi } from './run-config';

type LabelConfig = { preset: string; mode: string; seed: number; overrides?: Record<string, HyperValue> };

/** A run's name in legends and tables: mode, preset, seed, then each hyperparameter that differs from the preset. */
export function runLabel(c: LabelConfig): string {
  const diffs = changedFields(c).map((d) => `${d.label} ${d.value}`);
  return [`${c.mode} · ${c.preset} · seed ${c.seed}`, ...diffs].join(' · ');
}

/** The hyperparameters set away from the preset's value, short-formatted (e.g. `lr 2e-3`). */
export function changedFields(c: {
  preset: string;
  overrides?: Record<string, HyperValue>;
}): { key: string; label: string; value: string }[] {
  const out: { key: string; label: string; value: string }[] = [];
  for (const h of HYPERPARAMS) {
    const v = c.overrides?.[h.key];
    if (v === undefined || (isPreset(c.preset) && presetValue(c.preset, h.key) === v)) continue;
    out.push({ key: h.key, label: h.label, value: typeof v === 'number' ? shortNumber(v) : v });
  }
  return out;
}

/** 0.002 → 2e-3, 0.9 → 0.9, 16 → 16: short and exact enough for a label. */
export function shortNumber(v: number): string {
  if (v !== 0 && Math.abs(v) < 0.01) {
    const [m, e] = v.toExponential().split('e');
    return `${Number(Number(m).toPrecision(3))}e${e.replace('+', '')}`;
  }
  return String(Number(v.toPrecision(4)));
}

/** A bundle's file name that says what the run is, e.g. `code-a1-tiny-seed1-lr2e-3-step12.codea1`. */
export function bundleFileName(c: RunConfigUi, step: number, ext: string): string {
  const diffs = changedFields(c).map((d) => `${d.key}${d.value}`);
  const name = [c.mode, c.preset, `seed${c.seed}`, ...diffs, `step${step}`].join('-');
  return name.replace(/[^A-Za-z0-9.+-]/g, '_') + ext;
}
