// A cluster run of the release back into the lab: its console log (verl's console logger, `step:N - key:value - …`)
// or a W&B history export (JSONL, one object per logged step) → records with the lab's metrics.jsonl names, so the
// run overlays on the lab's charts ("Compare with…").
//
// trainer_a1.py logs the Coder's metrics with the suffix `_a` and the Tester's with `_b2` on the first path segment
// (`reward_a/mean`, `actor_b2/pg_loss`, `timing_s_a/step`); verl counts training steps from 1, the lab from 0.
import type { MetricKey, StepMetrics } from '../../rl/metrics';

export type VerlStep = Record<string, number>;

/**
 * Metrics the release logs whose definitions differ from the lab's metric of the same idea, imported under these
 * names (never the lab's): the Compare charts draw them beside the lab's, labelled as the release's.
 */
export const RELEASE_METRICS = {
  'release/coder_pass_rate': {
    lab: 'coder/pass_rate',
    label: "coder pass, release's definition (mean of per-rollout pass ratios)",
    why: "reward.py sandbox/gen_pass_rate averages each Coder rollout's pass ratio on its valid tests; the lab's coder/pass_rate pools the tests",
  },
  'release/tester_valid_test_rate': {
    lab: 'tester/valid_test_rate',
    label: "valid tests, release's definition (a wrong expected value counts)",
    why: 'reward.py counts as valid every distinct filled-in assert whose call ran, wrong expected values included, and logs per-rollout means of valid and total counts; the lab counts only tests with the right expected value',
  },
} as const satisfies Record<string, { lab: MetricKey; label: string; why: string }>;
export type ReleaseMetricKey = keyof typeof RELEASE_METRICS;

/** An imported step: the lab keys the release logs with the lab's meaning, the release-defined ones apart. */
export type ImportedStep = Pick<StepMetrics, 'step' | 'mode'> &
  Partial<Pick<StepMetrics, 'time' | MetricKey>> &
  Partial<Record<ReleaseMetricKey, number>>;

type Source = string | ((m: VerlStep) => number | undefined);

const ratio = (num: string, den: string) => (m: VerlStep) =>
  m[num] !== undefined && m[den] ? m[num] / m[den] : undefined;

export const LOG_MAP: Readonly<Partial<Record<MetricKey | ReleaseMetricKey, Source>>> = {
  'coder/reward_mean': 'reward_a/mean',
  'coder/reward_std': 'reward_a/std',
  'release/coder_pass_rate': 'sandbox_a/gen_pass_rate',
  'tester/reward_mean': 'reward_b2/mean',
  'tester/reward_std': 'reward_b2/std',
  // Means per rollout of the valid and total counts; the log holds no count of wrong expected values to convert.
  'release/tester_valid_test_rate': ratio('sandbox_a/valid_test', 'sandbox_a/total_test'),
  'coder/loss': 'actor_a/pg_loss',
  'coder/kl': 'actor_a/kl_loss',
  'coder/entropy': 'actor_a/entropy_loss',
  'coder/grad_norm': 'actor_a/grad_norm',
  'tester/loss': 'actor_b2/pg_loss',
  'tester/kl': 'actor_b2/kl_loss',
  'tester/entropy': 'actor_b2/entropy_loss',
  'tester/grad_norm': 'actor_b2/grad_norm',
  'completions/coder_mean_length': 'response_length_a/mean',
  'completions/tester_mean_length': 'response_length_b2/mean',
  'time/step_s': 'timing_s_a/step',
  'time/rollout_s': 'timing_s_a/gen',
  'time/sandbox_s': 'timing_s_a/reward',
  'time/update_s': 'timing_s_a/update_actor',
};

const CONSOLE = /step:(\d+)((?: - [^\s:]+:[^\s]+)+)\s*$/;

/** Steps logged in a console log; several lines of one step (the `_a` and `_b2` records) merge. */
export function parseConsoleLog(text: string, into = new Map<number, VerlStep>()): Map<number, VerlStep> {
  for (const line of text.split('\n')) {
    const m = CONSOLE.exec(line);
    if (!m) continue;
    const rec = into.get(Number(m[1])) ?? {};
    for (const kv of m[2].split(' - ').slice(1)) {
      const i = kv.lastIndexOf(':');
      const v = Number(kv.slice(i + 1));
      if (i > 0 && Number.isFinite(v)) rec[kv.slice(0, i)] = v;
    }
    into.set(Number(m[1]), rec);
  }
  return into;
}

/** Steps in a W&B history export: JSON objects with `_step` (or `step`) and the logged keys. */
export function parseWandbJsonl(text: string, into = new Map<number, VerlStep>()): Map<number, VerlStep> {
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch (e) {
      throw new Error(`line ${i + 1}: not JSON (${(e as Error).message})`);
    }
    if (!obj || typeof obj !== 'object') throw new Error(`line ${i + 1}: expected a JSON object`);
    const o = obj as Record<string, unknown>;
    const step = o._step ?? o.step ?? o['training/global_step'];
    if (typeof step !== 'number' || !Number.isInteger(step)) throw new Error(`line ${i + 1}: no integer _step or step`);
    const rec = into.get(step) ?? {};
    for (const [k, v] of Object.entries(o)) if (typeof v === 'number' && Number.isFinite(v)) rec[k] = v;
    into.set(step, rec);
  });
  return into;
}

/** Reads every log file (name → text) of a run; JSONL files as W&B exports, the rest as console logs. */
export function parseVerlLogs(files: { name: string; text: string }[]): Map<number, VerlStep> {
  const steps = new Map<number, VerlStep>();
  for (const f of files) {
    try {
      if (f.name.endsWith('.jsonl')) parseWandbJsonl(f.text, steps);
      else parseConsoleLog(f.text, steps);
    } catch (e) {
      throw new Error(`${f.name}: ${(e as Error).message}`);
    }
  }
  return steps;
}

/** Training steps in the lab's names (step 0 = verl's step 1); steps with only validation metrics are left out. */
export function toLabMetrics(steps: Map<number, VerlStep>): ImportedStep[] {
  const out: ImportedStep[] = [];
  for (const s of [...steps.keys()].sort((a, b) => a - b)) {
    const m = steps.get(s)!;
    const rec: ImportedStep = { step: s - 1, mode: 'code-a1' };
    let any = false;
    for (const [key, src] of Object.entries(LOG_MAP) as [MetricKey | ReleaseMetricKey, Source][]) {
      const v = typeof src === 'string' ? m[src] : src(m);
      if (v !== undefined && Number.isFinite(v)) {
        rec[key] = v;
        any = true;
      }
    }
    if (typeof m._timestamp === 'number') rec.time = Math.round(m._timestamp * 1000);
    if (any && s >= 1) out.push(rec);
  }
  return out;
}
