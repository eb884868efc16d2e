// Run config <-> URL hash (`#preset=micro&mode=golden&seed=7&lr=1e-5`), so a config can be shared as a link.
import {
  DEFAULT_RUN_CONFIG,
  HYPERPARAMS,
  checkHyperValue,
  isMode,
  isPreset,
  parseHyperValue,
  type RunConfigUi,
} from './run-config';

/** Deterministic: preset, mode, seed, then overrides in HYPERPARAMS order. */
export function encodeConfigHash(cfg: RunConfigUi): string {
  const p = new URLSearchParams();
  p.set('preset', cfg.preset);
  p.set('mode', cfg.mode);
  p.set('seed', String(cfg.seed));
  for (const h of HYPERPARAMS) {
    const v = cfg.overrides[h.key];
    if (v !== undefined) p.set(h.key, String(v));
  }
  return '#' + p.toString();
}

export interface DecodedConfig {
  config: RunConfigUi;
  /** Parameters that were ignored, each with the reason; shown to the user rather than silently dropped. */
  problems: string[];
  /** False when the hash held no config at all (then `config` is the default). */
  present: boolean;
}

export function decodeConfigHash(hash: string): DecodedConfig {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  const p = new URLSearchParams(raw);
  const config: RunConfigUi = { ...DEFAULT_RUN_CONFIG, overrides: {} };
  const problems: string[] = [];
  let present = false;
  for (const [k, v] of p) {
    present = true;
    if (k === 'preset') {
      if (isPreset(v)) config.preset = v;
      else problems.push(`preset '${v}' is not one of micro, tiny, paper`);
    } else if (k === 'mode') {
      if (isMode(v)) config.mode = v;
      else problems.push(`mode '${v}' is not one of code-a1, golden, self-play`);
    } else if (k === 'seed') {
      const n = Number(v);
      if (v.trim() !== '' && Number.isSafeInteger(n) && n >= 0) config.seed = n;
      else problems.push(`seed '${v}' is not a non-negative integer`);
    } else {
      const value = parseHyperValue(k, v);
      const why = checkHyperValue(k, value);
      if (why) problems.push(`${k}=${v}: ${why}`);
      else config.overrides[k] = value;
    }
  }
  return { config, problems, present };
}
