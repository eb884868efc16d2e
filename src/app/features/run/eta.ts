// The time left in the step in progress, from how long the last steps took.

/**
 * The seconds left, never more than `cap` (the last value shown in this step), never below 0: a countdown that only
 * goes down. null before a step has finished (no estimate).
 */
export function secondsLeft(stepSeconds: number[], startedAt: number | null, now: number, cap: number | null) {
  const elapsed = startedAt !== null ? (now - startedAt) / 1000 : 0;
  const recent = stepSeconds
    .filter((x) => Number.isFinite(x) && x > 0)
    .slice(-3)
    .sort((a, b) => a - b);
  if (!recent.length) return null;
  const left = Math.max(0, recent[Math.floor(recent.length / 2)] - elapsed);
  return cap === null ? left : Math.min(cap, left);
}

/** "≈ 12 s left" from the median of the last steps' durations; none before the first step has finished. */
export function estimate(stepSeconds: number[], startedAt: number | null, now: number): string {
  const elapsed = startedAt !== null ? (now - startedAt) / 1000 : 0;
  const recent = stepSeconds
    .filter((x) => Number.isFinite(x) && x > 0)
    .slice(-3)
    .sort((a, b) => a - b);
  if (!recent.length) return `${Math.round(elapsed)} s into the first step (no estimate until one step has finished)`;
  const typical = recent[Math.floor(recent.length / 2)];
  const left = typical - elapsed;
  return left > 1
    ? `${Math.round(elapsed)} s in · about ${Math.round(left)} s left (steps take ≈ ${typical.toFixed(0)} s)`
    : `${Math.round(elapsed)} s in · longer than the last steps (≈ ${typical.toFixed(0)} s)`;
}
