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

export function parseMetricsJsonl(text: string): StepMetrics[] {
  const out: StepMetrics[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      out.push(JSON.parse(line) as StepMetrics);
    } catch (e) {
      throw new Error(`metrics.jsonl line ${i + 1}: ${(e as Error).message}`);
    }
  });
  return out;
}
