// Pure views of one problem's rollout: the tests × candidates pass/fail matrix, and per-candidate test lists.
import type { RolloutRecord, TestRecord, TesterRolloutRecord } from '../../../rl/records';

/**
 * Per test: passed, failed, or undefined when it was not run (its call raised on the ground truth, so there is no
 * attack form). The trainer's `passed` may list only the tests that ran (one per callOk test, in order) rather than
 * one per test; both layouts are accepted. A count that fits neither gives all undefined.
 */
export function alignPassed(tr: Pick<TesterRolloutRecord, 'tests' | 'passed'>): (boolean | undefined)[] {
  if (tr.passed.length === tr.tests.length) return tr.passed.slice();
  const ran = tr.tests.filter((t) => t.callOk).length;
  // Any other count cannot be matched to the tests safely: show the results as unknown rather than mislabel them.
  if (tr.passed.length !== ran) return tr.tests.map(() => undefined);
  let at = 0;
  return tr.tests.map((t) => (t.callOk ? tr.passed[at++] : undefined));
}

/** Cell: 1 passed, 0 failed, null when the test was not run against that candidate. */
export type Cell = 0 | 1 | null;

export interface MatrixRow {
  test: string;
  valid: boolean;
  callOk: boolean;
  replay: boolean;
  cells: Cell[];
}

/** Rows are the distinct tests (by text) aimed at any candidate; columns are the candidates in order. */
export function passMatrix(r: RolloutRecord): MatrixRow[] {
  const rows = new Map<string, MatrixRow>();
  const n = r.candidates.length;
  r.candidates.forEach((c, ci) => {
    for (const tr of c.testerRollouts) {
      const passedAt = alignPassed(tr);
      tr.tests.forEach((t: TestRecord, ti) => {
        let row = rows.get(t.text);
        if (!row) {
          row = {
            test: t.text,
            valid: t.valid,
            callOk: t.callOk,
            replay: !!t.replay,
            cells: new Array<Cell>(n).fill(null),
          };
          rows.set(t.text, row);
        }
        const passed = passedAt[ti];
        if (passed === undefined) return;
        // A test aimed at the same candidate twice (two tester rollouts) counts as failed if it ever failed.
        const prev = row.cells[ci];
        row.cells[ci] = prev === 0 ? 0 : passed ? 1 : 0;
      });
    }
  });
  // Valid tests first, then by how many candidates they break (the most discriminating on top).
  return [...rows.values()].sort((a, b) => Number(b.valid) - Number(a.valid) || fails(b) - fails(a));
}

function fails(r: MatrixRow): number {
  return r.cells.filter((c) => c === 0).length;
}

export interface CandidateTestSummary {
  total: number;
  valid: number;
  invalid: number;
  passed: number;
}

export function candidateTestSummary(r: RolloutRecord, ci: number): CandidateTestSummary {
  const s: CandidateTestSummary = { total: 0, valid: 0, invalid: 0, passed: 0 };
  for (const tr of r.candidates[ci]?.testerRollouts ?? []) {
    const passedAt = alignPassed(tr);
    tr.tests.forEach((t, i) => {
      s.total++;
      if (t.valid) s.valid++;
      else s.invalid++;
      if (passedAt[i]) s.passed++;
    });
  }
  return s;
}
