// The per-step metrics record, streamed as JSONL by the trainer and read by the CLI and the UI alike.
export type Mode = 'code-a1' | 'golden' | 'self-play' | 'tcs' | 'ace';

/** One record per training step. Names follow TRL where TRL has one; every number is finite or the step was skipped. */
export interface StepMetrics {
  step: number;
  mode: Mode;
  /** Unix ms at the end of the step. */
  time: number;
  /** True when the update was skipped (NaN/Inf in loss or gradients). */
  skipped?: boolean;

  'coder/reward_mean': number;
  'coder/reward_std': number;
  /** Mean pass rate of coder candidates on the generated (or golden) tests aimed at them. */
  'coder/pass_rate': number;
  'tester/reward_mean': number;
  'tester/reward_std': number;
  'tester/validity_mean': number;
  'tester/adversarial_mean': number;
  /** Share of the Tester's counted assert lines that are distinct, ran on the ground truth and had the right expected value. */
  'tester/valid_test_rate': number;

  'mistake_book/size': number;
  'mistake_book/replay_pass_rate': number;

  'coder/loss': number;
  'coder/kl': number;
  'coder/entropy': number;
  'coder/clip_ratio/low_mean': number;
  'coder/clip_ratio/high_mean': number;
  'coder/frac_reward_zero_std': number;
  'coder/grad_norm': number;
  'tester/loss': number;
  'tester/kl': number;
  'tester/entropy': number;
  'tester/clip_ratio/low_mean': number;
  'tester/clip_ratio/high_mean': number;
  'tester/frac_reward_zero_std': number;
  'tester/grad_norm': number;

  'completions/coder_mean_length': number;
  'completions/tester_mean_length': number;
  /** Mean per-token KL between the quantized rollout policy and the fp32 learner. */
  'rollout/mismatch_kl': number;
  'perf/tokens_per_s': number;
  'time/rollout_s': number;
  'time/sandbox_s': number;
  'time/update_s': number;
  'time/step_s': number;
}

export type MetricKey = Exclude<keyof StepMetrics, 'step' | 'mode' | 'time' | 'skipped'>;

/** A run record that is not what its writer writes (a duplicate or missing step, a bad line): never plotted as it is. */
export class RecordError extends Error {
  override name = 'RecordError';
}

/**
 * Checks the step numbers of a run's records, in file order: `consecutive` (metrics.jsonl, the Mistake Book's
 * history: one record per step, 0, 1, 2, …) or only strictly increasing (eval.jsonl). `where(i)` names record i
 * (`metrics.jsonl line 7`). Two runs written into one file, or a lost line, fail here.
 */
export function checkSteps(steps: unknown[], where: (i: number) => string, consecutive: boolean): void {
  const first = new Map<number, number>();
  steps.forEach((s, i) => {
    if (typeof s !== 'number' || !Number.isInteger(s) || s < 0)
      throw new RecordError(`${where(i)}: step ${JSON.stringify(s)} is not a step number`);
    const seen = first.get(s);
    if (seen !== undefined)
      throw new RecordError(`${where(i)}: step ${s} again (first at ${where(seen)}); two runs written into one file?`);
    first.set(s, i);
    const want = i === 0 ? 0 : (steps[i - 1] as number) + 1;
    if (consecutive && s !== want)
      throw new RecordError(
        `${where(i)}: step ${s} where step ${want} should be (${s > want ? `step${s - want > 1 ? `s ${want}-${s - 1} are` : ` ${want} is`} missing` : 'out of order'})`,
      );
    if (!consecutive && i > 0 && s < (steps[i - 1] as number))
      throw new RecordError(`${where(i)}: step ${s} after step ${String(steps[i - 1])} (out of order)`);
  });
}

/**
 * Reads metrics.jsonl: one StepMetrics per line, steps 0, 1, 2, … with none repeated or missing. `file` names the
 * source in errors (a path, or the name of an uploaded file).
 */
export function parseMetricsJsonl(text: string, file = 'metrics.jsonl'): StepMetrics[] {
  const out: StepMetrics[] = [];
  const lines: number[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      out.push(JSON.parse(line) as StepMetrics);
    } catch (e) {
      throw new RecordError(`${file} line ${i + 1}: ${(e as Error).message}`);
    }
    lines.push(i + 1);
  });
  checkSteps(
    out.map((m) => (m && typeof m === 'object' ? m.step : undefined)),
    (i) => `${file} line ${lines[i]}`,
    true,
  );
  return out;
}
