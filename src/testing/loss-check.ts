// Comparisons shared by the loss-kernel tests (GRPO, KTO): GPU statistics and gradients against a float64 reference,
// and the reference's analytic gradient against finite differences at the sampled tokens.
import { maxAbsDiff } from './random';

/** Largest |got − want| / max(1, |want|) over the named statistics. */
export function statsRelDiff<K extends string>(
  got: Record<K, number>,
  want: Record<K, number>,
  keys: readonly K[],
): number {
  return Math.max(...keys.map((s) => Math.abs(got[s] - want[s]) / Math.max(1, Math.abs(want[s]))));
}

/**
 * The GPU gradient and the finite differences (NaN = token not sampled or skipped) against the analytic reference
 * gradient, each as max abs diff over the reference's largest |value|.
 */
export function gradientDiffs(
  gpu: ArrayLike<number>,
  fd: Float64Array,
  want: Float64Array,
): { gradScale: number; gradDiff: number; fdDiff: number; sampled: number } {
  const gradScale = Math.max(...want.map(Math.abs));
  const sampled = [...fd.keys()].filter((t) => !Number.isNaN(fd[t]));
  const fdDiff =
    maxAbsDiff(
      sampled.map((t) => fd[t]),
      sampled.map((t) => want[t]),
    ) / gradScale;
  return { gradScale, gradDiff: maxAbsDiff(gpu, want) / gradScale, fdDiff, sampled: sampled.length };
}
