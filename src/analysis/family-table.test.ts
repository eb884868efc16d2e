// The per-family held-out table on built records: each family's start, step and change come from its own problems,
// seeds pool per problem, the all-pass counts and the code-a1 − self-play gap are per family, and the page block
// regenerates from the records it names.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { problemRecord, type ProblemEval } from '../run/eval-ci';
import { heldoutReport } from './report-fixture';
import { familiesBegin, FAMILIES_END, familyRows, familyTable } from './family-table';
import { regenerateResultsPage } from './results-page-node';
import type { TargetRun } from './targets';

/** 6 problems of family a and 4 of family b; each passes the given number of its 8 samples. */
function recs(a: number[], b: number[]): ProblemEval[] {
  return [
    ...a.map((k, i) => problemRecord(`a/${i}`, 8, k, false)),
    ...b.map((k, i) => problemRecord(`b/${i}`, 8, k, false)),
  ];
}
const START = recs([4, 4, 4, 4, 4, 4], [8, 8, 0, 0]);
const run = (mode: string, seed: number, end: ProblemEval[]): TargetRun => ({
  name: `${mode}-s${seed}`,
  mode,
  seed,
  evals: [
    { step: 0, rows: [heldoutReport(START)] },
    { step: 40, rows: [heldoutReport(end)] },
  ],
});

describe('familyRows', () => {
  const runs = [
    run('self-play', 1, recs([4, 4, 4, 4, 4, 4], [8, 8, 8, 0])),
    run('code-a1', 2, recs([8, 8, 8, 8, 8, 8], [8, 8, 0, 0])),
    run('code-a1', 1, recs([8, 8, 8, 8, 8, 0], [8, 8, 0, 0])),
  ];
  const { modes, rows } = familyRows(runs, 40);

  it('lists the modes in the page order and a row per family, then one for all problems', () => {
    expect(modes).toEqual(['code-a1', 'self-play']);
    expect(rows.map((r) => [r.family, r.problems])).toEqual([
      ['a', 6],
      ['b', 4],
      ['all', 10],
    ]);
  });

  it("measures each family on its own problems, code-a1's two seeds pooled per problem", () => {
    const [a, b] = rows;
    expect(a.start).toBeCloseTo(50);
    expect(a.startAllPass).toBe(0);
    // Pooled: five problems pass 16 of 16, one passes 8 of 16.
    expect(a.cells['code-a1']!.end).toBeCloseTo((100 * (5 + 0.5)) / 6);
    expect(a.cells['code-a1']!.allPass).toBe(5);
    expect(a.cells['code-a1']!.delta.delta).toBeCloseTo((100 * (5 + 0.5)) / 6 - 50);
    expect(b.start).toBeCloseTo(50);
    expect(b.startAllPass).toBe(2);
    expect(b.cells['self-play']!.end).toBeCloseTo(75);
    expect(b.cells['code-a1']!.delta.delta).toBeCloseTo(0);
  });

  it('gives code-a1 − self-play per family, paired over its problems', () => {
    const [a, b, all] = rows;
    expect(a.gap!.delta).toBeCloseTo((100 * (5 + 0.5)) / 6 - 50);
    expect(a.gap!.ci[0]).toBeGreaterThan(0);
    expect(b.gap!.delta).toBeCloseTo(-25);
    expect(all.gap!.problems).toBe(10);
  });

  it('prints one line per row with the all-pass counts in brackets, and no gap column without self-play', () => {
    const lines = familyTable({ modes, rows }, 40);
    expect(lines).toHaveLength(2 + 3);
    expect(lines[0]).toContain('code-a1 − self-play');
    expect(lines[3]).toMatch(/^\| b \(exploratory\) \| 4 \| 50\.0 \[2\] \| 50\.0 \[2\], \+0\.0 /);
    const alone = familyTable(familyRows(runs.slice(1), 40), 40);
    expect(alone[0]).not.toContain('self-play');
  });

  it('has no rows when no mode was evaluated per problem at the step', () => {
    expect(familyRows(runs, 100).rows).toEqual([]);
  });
});

describe('the families block of the results page', () => {
  it('is rewritten from the records directory its marker names', () => {
    const data = mkdtempSync(join(tmpdir(), 'families-'));
    const write = (dir: string, mode: string, seed: number, end: ProblemEval[]) => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ mode, seed, tasks: { families: ['a', 'b'] } }));
      const line = (step: number, ps: ProblemEval[]) => JSON.stringify({ step, rows: [heldoutReport(ps)] });
      writeFileSync(join(dir, 'eval.jsonl'), `${line(0, START)}\n${line(40, end)}\n`);
    };
    // The records root holds runs of its own (the page's main table reads them); the block names a subdirectory.
    write(join(data, 'code-a1-s1'), 'code-a1', 1, START);
    write(join(data, 'fams', 'code-a1-s1'), 'code-a1', 1, recs([8, 8, 8, 8, 8, 8], [8, 8, 0, 0]));
    const page = `# t\n\n${familiesBegin(40, 'fams')}\nstale\n${FAMILIES_END}\n`;
    const next = regenerateResultsPage(page, data);
    expect(next).not.toContain('stale');
    expect(next).toContain('| a (exploratory) | 6 | 50.0 [0] | 100.0 [6], +50.0');
  });
});
