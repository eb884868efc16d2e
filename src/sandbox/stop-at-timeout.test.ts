// JudgeRequest.stopAtTimeout: the first timed-out test ends the job (soft stop, hard stop, statement tests), and a
// program never passes by timing out.
import { describe, expect, it } from 'vitest';
import { statuses, usePool } from './test-helpers';
import type { JudgeRequest } from './types';

const pool = usePool({ spares: 1, hardStopGraceMs: 1500 });

// Loops on x == 2 only: the tests around it pass when they run.
const LOOPS_ON_2: JudgeRequest = {
  code: 'def f(x):\n    while x == 2:\n        pass\n    return x\n',
  entryPoint: 'f',
  tests: ['assert f(1) == 1', 'assert f(2) == 2', 'assert f(3) == 3', 'assert f(4) == 4'],
  timeoutMs: 200,
};

describe('stopAtTimeout', () => {
  it('runs no test after the first that timed out, and says so in the verdicts', async () => {
    const all = await pool().judge(LOOPS_ON_2);
    expect(statuses(all)).toEqual(['passed', 'timeout', 'passed', 'passed']);
    const stopped = await pool().judge({ ...LOOPS_ON_2, stopAtTimeout: true });
    expect(statuses(stopped)).toEqual(['passed', 'timeout', 'error', 'error']);
    expect(stopped.verdicts.slice(2).map((v) => [v.errorType, v.message])).toEqual([
      ['NotRun', 'not run: test 2 timed out'],
      ['NotRun', 'not run: test 2 timed out'],
    ]);
    expect(stopped.compileError).toBeUndefined();
  });

  it('changes nothing for a program that never times out', async () => {
    const req: JudgeRequest = { ...LOOPS_ON_2, tests: ['assert f(1) == 1', 'assert f(3) == 4', 'assert f(5) == 5'] };
    expect(statuses(await pool().judge({ ...req, stopAtTimeout: true }))).toEqual(statuses(await pool().judge(req)));
    expect(statuses(await pool().judge(req))).toEqual(['passed', 'failed', 'passed']);
  });

  it('after a hard stop, the rerun job stops at the forced timeout instead of hard-stopping again', async () => {
    const hostile: JudgeRequest = {
      code: 'def f(x):\n    while True:\n        try:\n            while True: pass\n        except BaseException:\n            pass\n',
      entryPoint: 'f',
      tests: ['assert f(1) == 1', 'assert f(2) == 2', 'assert f(3) == 3'],
      timeoutMs: 200,
    };
    const before = pool().stats.hardStops;
    const r = await pool().judge({ ...hostile, stopAtTimeout: true });
    expect(statuses(r)).toEqual(['timeout', 'error', 'error']);
    expect(r.verdicts[1].errorType).toBe('NotRun');
    expect(pool().stats.hardStops - before).toBe(1);
  });

  it('a statement test that times out stops the job too', async () => {
    const r = await pool().judge({
      ...LOOPS_ON_2,
      tests: ['assert f(1) == 1', 'assert [f(2)] == [2]', 'assert f(3) == 3'],
      stopAtTimeout: true,
    });
    expect(statuses(r)).toEqual(['passed', 'timeout', 'error']);
    expect(r.verdicts[2].errorType).toBe('NotRun');
  });
});
