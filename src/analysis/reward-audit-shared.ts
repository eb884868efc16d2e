// The reward audit's counterfactuals: every candidate of a problem graded on one test set instead of on the tests aimed
// at it: the shared set (the union of the valid tests its group's Tester rollouts wrote, plus the replays), which shows
// whether per-candidate grading orders some pairs the wrong way, or the problem's public tests (its docstring example,
// what the `golden` baseline on public tests sees), which shows how much a Tester's tests could add over them.
import type { Sandbox } from '../sandbox/types';
import type { Problem } from '../tasks/types';
import type { RolloutRecord } from '../rl/records';

/** The group's shared test set: each valid generated test once (replays are in their own list), then the replays. */
export function sharedTests(record: RolloutRecord): string[] {
  const written = record.candidates.flatMap((c) =>
    c.testerRollouts.flatMap((t) => t.tests.filter((x) => x.valid && !x.repeat && !x.replay).map((x) => x.text)),
  );
  return [...new Set([...written, ...record.replays])];
}

/** The record with each candidate's reward replaced by its pass rate on the shared set (0 when it is empty). */
export function regradeShared(
  sandbox: Pick<Sandbox, 'judge'>,
  record: RolloutRecord,
  problem: Pick<Problem, 'entryPoint' | 'setupCode'>,
  timeoutMs: number,
): Promise<RolloutRecord> {
  return regradeOn(sandbox, record, problem, sharedTests(record), timeoutMs);
}

/** The record with each candidate's reward replaced by its pass rate on the problem's public tests. */
export function regradePublic(
  sandbox: Pick<Sandbox, 'judge'>,
  record: RolloutRecord,
  problem: Pick<Problem, 'entryPoint' | 'setupCode' | 'publicTests'>,
  timeoutMs: number,
): Promise<RolloutRecord> {
  return regradeOn(sandbox, record, problem, problem.publicTests, timeoutMs);
}

/** Each candidate's reward replaced by its pass rate on `tests` (0 when there are none, as the trainer grades). */
async function regradeOn(
  sandbox: Pick<Sandbox, 'judge'>,
  record: RolloutRecord,
  problem: Pick<Problem, 'entryPoint' | 'setupCode'>,
  tests: readonly string[],
  timeoutMs: number,
): Promise<RolloutRecord> {
  const candidates = await Promise.all(
    record.candidates.map(async (c) => {
      if (!tests.length) return { ...c, reward: 0 };
      const res = await sandbox.judge({
        code: c.code,
        entryPoint: problem.entryPoint,
        tests: [...tests],
        timeoutMs,
        setupCode: problem.setupCode,
      });
      const passed = res.compileError === undefined ? res.verdicts.filter((v) => v.status === 'passed').length : 0;
      return { ...c, reward: passed / tests.length };
    }),
  );
  return { ...record, candidates };
}
