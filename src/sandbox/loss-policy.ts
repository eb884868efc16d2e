// What a judge job keeps after it took down a worker (a crash or a hard stop): the policy that bounds a job's cost
// in respawns, apart from the scheduler that counts the losses and requeues the job.
import { emptyRawJudge, type Job } from './protocol';
import type { RawResult } from './pool-types';
import type { JudgeResult } from './types';

/**
 * A judge job may take down at most this many workers; each loss costs a respawn (a cold start, seconds of CPU),
 * so a candidate that crashes on every call must not cost one per test. See requeueFrom for what is decided when.
 */
export const MAX_WORKER_LOSSES = 2;

/**
 * The job to run again after its `losses`-th lost worker on test `step` (decided as `verdict`), or the result that
 * settles it without running it again (the same test lost twice, or more than MAX_WORKER_LOSSES losses).
 */
export function afterLoss(
  job: Extract<Job, { kind: 'judge' }>,
  losses: number,
  step: number,
  verdict: JudgeResult['verdicts'][number],
): { settle: RawResult } | { job: Extract<Job, { kind: 'judge' }> } {
  const forced = { ...(job.forced ?? {}) };
  if (forced[step] || losses > MAX_WORKER_LOSSES) {
    const why = verdict.status === 'timeout' ? { t: 1 as const } : { e: verdict.errorType, m: verdict.message };
    return { settle: { ...emptyRawJudge(), setup: why } };
  }
  forced[step] = verdict;
  if (step >= 0 && (job.stopAtTimeout || losses >= MAX_WORKER_LOSSES)) {
    const what = verdict.status === 'timeout' ? 'timed out' : 'took down the worker';
    const why = job.stopAtTimeout
      ? `not run: test ${step + 1} ${what}`
      : `not run: this job took down ${losses} workers (last on test ${step + 1})`;
    for (let j = step + 1; j < job.tests.length; j++)
      forced[j] ??= { status: 'error', errorType: 'NotRun', message: why };
  }
  return { job: { ...job, forced } };
}
