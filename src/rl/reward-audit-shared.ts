// The reward audit's counterfactual: every candidate of a problem graded on one shared test set (the union of the
// valid tests its group's Tester rollouts wrote, plus the replays), instead of on the tests aimed at it. Whether the
// per-candidate grading is what orders some candidate pairs the wrong way shows in the audit of the result.
import type { Sandbox } from '../sandbox/types';
import type { Problem } from '../tasks/types';
import type { RolloutRecord } from './records';

/** The group's shared test set: each valid generated test once (replays are in their own list), then the replays. */
export function sharedTests(record: RolloutRecord): string[] {
  const written = record.candidates.flatMap((c) =>
    c.testerRollouts.flatMap((t) => t.tests.filter((x) => x.valid && !x.repeat && !x.replay).map((x) => x.text)),
  );
  return [...new Set([...written, ...record.replays])];
}

/** The record with each candidate's reward replaced by its pass rate on the shared set (0 when it is empty). */
export async function regradeShared(
  sandbox: Pick<Sandbox, 'judge'>,
  record: RolloutRecord,
  problem: Pick<Problem, 'entryPoint' | 'setupCode'>,
  timeoutMs: number,
): Promise<RolloutRecord> {
  const tests = sharedTests(record);
  const candidates = await Promise.all(
    record.candidates.map(async (c) => {
      if (!tests.length) return { ...c, reward: 0 };
      const res = await sandbox.judge({
        code: c.code,
        entryPoint: problem.entryPoint,
        tests,
        timeoutMs,
        setupCode: problem.setupCode,
      });
      const passed = res.compileError === undefined ? res.verdicts.filter((v) => v.status === 'passed').length : 0;
      return { ...c, reward: passed / tests.length };
    }),
  );
  return { ...record, candidates };
}
