// The counts behind mut@k on hand-made records: sums, the problems with a correct test, and the table's rows.
import { describe, expect, it } from 'vitest';
import { problemRecord, type ProblemEval } from '../run/eval-ci';
import { heldoutReport } from './report-fixture';
import { testerCounts, testerCountsTable, TESTER_COUNTS_HEADER } from './tester-counts';
import type { TargetRun } from './targets';

/** A problem whose Tester wrote `lines` tests for the reference, `correct` of them right, killing `killed` of 3. */
function problem(id: string, lines: number, correct: number, killed: number): ProblemEval {
  const p = problemRecord(id, 8, 4, true);
  Object.assign(p, { refLines: lines, refCorrect: correct, mutants: 3, mutKilledByRef: killed });
  return p;
}

describe('testerCounts', () => {
  it('sums the lines and kills, and counts mutants only where some test was right for the kill share', () => {
    const c = testerCounts([problem('a/0', 4, 2, 1), problem('a/1', 5, 0, 0), problem('a/2', 3, 3, 3)]);
    expect(c).toEqual({
      lines: 12,
      correct: 5,
      withCorrect: 2,
      problems: 3,
      mutants: 9,
      killed: 4,
      mutantsWhereCorrect: 6,
    });
  });
});

describe('testerCountsTable', () => {
  it('gives a row for step 0 and the step of each run evaluated there, and skips a step not evaluated', () => {
    const start = [problem('a/0', 4, 1, 1), problem('a/1', 4, 0, 0)];
    const end = [problem('a/0', 4, 4, 1), problem('a/1', 4, 2, 0)];
    const run: TargetRun = {
      name: 'code-a1-s1',
      mode: 'code-a1',
      seed: 1,
      evals: [
        { step: 0, rows: [heldoutReport(start)] },
        { step: 100, rows: [heldoutReport(end)] },
      ],
    };
    const lines = testerCountsTable([run], 100);
    expect(lines.slice(0, 2)).toEqual(TESTER_COUNTS_HEADER);
    expect(lines[2]).toBe('| code-a1-s1 | 0 | 8 | 1 / 8 (12.5%) | 1 / 2 (50.0%) | 1 / 6 (16.7%) | 1 / 3 (33.3%) |');
    // More tests right on both problems, the same mutant killed: the kill share where a test is right falls.
    expect(lines[3]).toBe('| code-a1-s1 | 100 | 8 | 6 / 8 (75.0%) | 2 / 2 (100.0%) | 1 / 6 (16.7%) | 1 / 6 (16.7%) |');
    expect(testerCountsTable([run], 40)).toHaveLength(3); // step 0 only
    // Golden trains no Tester: its run adds no row, the code-a1 run's rows stay.
    expect(testerCountsTable([{ ...run, name: 'golden-s1', mode: 'golden' }, run], 100)).toEqual(lines);
  });
});
