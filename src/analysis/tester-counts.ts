// The counts behind the Tester's mut@k (`npm run targets -- tester-counts DIR`): how many tests it wrote for the
// reference solutions, how many were right, on how many problems, and how many mutants the right ones killed — so a
// Tester that gets more tests right without killing more mutants (more valid, not more discriminating) shows as such.
import type { ProblemEval } from '../run/eval-ci';
import { trainsTester } from '../rl/modes';
import { atStep, type TargetRun } from './targets';

export interface TesterCounts {
  /** Assert lines written for the reference solutions, and how many of them the reference passes. */
  lines: number;
  correct: number;
  /** Problems with at least one correct test, of `problems`. */
  withCorrect: number;
  problems: number;
  mutants: number;
  /** Mutants killed by the correct tests; and the mutants of the problems that had a correct test. */
  killed: number;
  mutantsWhereCorrect: number;
}

export function testerCounts(ps: readonly ProblemEval[]): TesterCounts {
  const c: TesterCounts = {
    lines: 0,
    correct: 0,
    withCorrect: 0,
    problems: ps.length,
    mutants: 0,
    killed: 0,
    mutantsWhereCorrect: 0,
  };
  for (const p of ps) {
    c.lines += p.refLines;
    c.correct += p.refCorrect;
    c.mutants += p.mutants;
    c.killed += p.mutKilledByRef;
    if (p.refCorrect > 0) {
      c.withCorrect++;
      c.mutantsWhereCorrect += p.mutants;
    }
  }
  return c;
}

export const TESTER_COUNTS_HEADER = [
  '| run | step | tests on the reference | correct | problems with a correct test | mutants killed | killed where a test is correct |',
  '| --- | --- | --- | --- | --- | --- | --- |',
];

const share = (a: number, b: number) => `${a} / ${b} (${b ? ((100 * a) / b).toFixed(1) : '–'}%)`;

/**
 * One row per run and step (step 0 and `step`, each when evaluated per problem), in the runs' order; runs of a mode
 * that trains no Tester (golden) are left out, since their rows would only repeat the untouched start.
 */
export function testerCountsTable(runs: readonly TargetRun[], step: number): string[] {
  const rows = runs
    .filter((r) => trainsTester(r.mode))
    .flatMap((r) =>
      [0, step].flatMap((s) => {
        const ps = atStep(r, s)?.perProblem;
        if (!ps?.length) return [];
        const c = testerCounts(ps);
        const cells = [
          r.name,
          String(s),
          String(c.lines),
          share(c.correct, c.lines),
          share(c.withCorrect, c.problems),
          share(c.killed, c.mutants),
          share(c.killed, c.mutantsWhereCorrect),
        ];
        return [`| ${cells.join(' | ')} |`];
      }),
    );
  return [...TESTER_COUNTS_HEADER, ...rows];
}

export const TESTER_COUNTS_END = '<!-- tester-counts:end -->';
/** `<!-- tester-counts:begin step=100 dir=disjoint-shared,disjoint -->` … end: the table for those records. */
export const TESTER_COUNTS_BLOCK =
  /<!-- tester-counts:begin step=(\d+) dir=([^\s]+) -->[\s\S]*?<!-- tester-counts:end -->/g;
export const testerCountsBegin = (step: number, dir: string) => `<!-- tester-counts:begin step=${step} dir=${dir} -->`;
