// Pure views of one problem's rollout: the tests × candidates pass/fail matrix, and per-candidate test lists.
import { alignPassed, type RolloutRecord, type TestRecord } from '../../../rl/records';
import { isValidKind, testKind, type TestKind } from '../../../rl/vocabulary';

export { alignPassed };

/** Cell: 1 passed, 0 failed, null when the test was not run against that candidate. */
export type Cell = 0 | 1 | null;

export interface MatrixRow {
  test: string;
  /** What the test is (vocabulary.ts); a text seen in several rollouts takes its most-counting kind. */
  kind: TestKind;
  valid: boolean;
  callOk: boolean;
  replay: boolean;
  cells: Cell[];
}

const KIND_RANK: TestKind[] = ['golden', 'replay', 'valid', 'wrong-expected', 'raised', 'repeat'];

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
            kind: testKind(t, r.mode),
            valid: t.valid,
            callOk: t.callOk,
            replay: !!t.replay,
            cells: new Array<Cell>(n).fill(null),
          };
          rows.set(t.text, row);
        } else if (KIND_RANK.indexOf(testKind(t, r.mode)) < KIND_RANK.indexOf(row.kind)) {
          row.kind = testKind(t, r.mode);
          row.valid = t.valid;
          row.callOk = t.callOk;
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
  return [...rows.values()].sort(
    (a, b) => KIND_RANK.indexOf(a.kind) - KIND_RANK.indexOf(b.kind) || fails(b) - fails(a),
  );
}

function fails(r: MatrixRow): number {
  return r.cells.filter((c) => c === 0).length;
}

export interface CandidateTestSummary {
  total: number;
  /** Valid (vocabulary.ts): the call ran and the filled-in statement is distinct. */
  valid: number;
  /** Valid tests this candidate failed (breaks when it compiles). */
  failed: number;
  invalid: number;
  passed: number;
}

export function candidateTestSummary(r: RolloutRecord, ci: number): CandidateTestSummary {
  const s: CandidateTestSummary = { total: 0, valid: 0, failed: 0, invalid: 0, passed: 0 };
  for (const tr of r.candidates[ci]?.testerRollouts ?? []) {
    const passedAt = alignPassed(tr);
    tr.tests.forEach((t, i) => {
      const k = testKind(t, r.mode);
      if (k === 'replay') return;
      s.total++;
      if (isValidKind(k) || k === 'golden') {
        s.valid++;
        if (passedAt[i] === false) s.failed++;
      }
      if (k !== 'valid' && k !== 'golden') s.invalid++;
      if (passedAt[i]) s.passed++;
    });
  }
  return s;
}
