// The comparison tables on hand-made records: the paired pass@1 change and its interval, the evolution means, the
// row format, and the page check catching a changed number. bootstrapMeanCI on values whose mean and spread are known.
import { describe, expect, it } from 'vitest';
import { bootstrapMeanCI, problemRecord, type ProblemEval } from '../run/eval-ci';
import type { SplitReport } from '../run/eval';
import {
  checkCompareBlock,
  compareRow,
  compareTable,
  COMPARE_BEGIN,
  COMPARE_END,
  evolveRow,
  evolveTable,
  pairedPass1Delta,
  parseEvolved,
} from './compare-table';

function report(passed: number[], n = 4): SplitReport {
  const perProblem: ProblemEval[] = passed.map((p, i) => problemRecord(`p${i}`, n, p, p > n / 2));
  const pass1 = passed.reduce((a, p) => a + p / n, 0) / passed.length;
  return {
    split: 'heldout',
    problems: passed.length,
    samples: n,
    coderPass1: pass1,
    coderPass1Greedy: 0.5,
    selectedPass1: 0,
    testerValidity: 0.25,
    mutationScore: 0.1,
    passAtK: 12.5,
    mutAtK: 20,
    mul: 2.5,
    perProblem,
  };
}

describe('bootstrapMeanCI', () => {
  it('gives the mean, an interval around it, and a point interval when every value agrees', () => {
    const xs = [0, 1, 0, 1, 1, 0, 1, 1];
    const { mean, ci } = bootstrapMeanCI(xs, { seed: 3 });
    expect(mean).toBe(5 / 8);
    expect(ci[0]).toBeLessThan(mean);
    expect(ci[1]).toBeGreaterThan(mean);
    // Every resample mean is a multiple of 1/8 in [0, 1].
    for (const c of ci) expect(Number.isInteger(c * 8) && c >= 0 && c <= 1).toBe(true);
    expect(bootstrapMeanCI([0.3, 0.3, 0.3]).ci).toEqual([0.3, 0.3]);
    expect(bootstrapMeanCI([])).toEqual({ mean: 0, ci: [0, 0] });
  });
});

describe('comparison rows', () => {
  const start = report([0, 1, 2, 4]);

  it('pairs problems by id: a run one sample better on every problem is +25 points with a point interval', () => {
    const d = pairedPass1Delta(report([1, 2, 3, 4]), report([0, 1, 2, 3]));
    expect(d?.delta).toBeCloseTo(25, 12);
    expect(d?.ci[0]).toBeCloseTo(25, 12);
    expect(d?.ci[1]).toBeCloseTo(25, 12);
    // Problems only one side evaluated are left out; none in common gives no Δ.
    const other = report([1]);
    other.perProblem![0].id = 'elsewhere';
    expect(pairedPass1Delta(other, start)).toBeNull();
  });

  it('writes each metric with its interval and the Δ column against the start row', () => {
    const run = report([2, 1, 2, 4]);
    run.ci = {
      coderPass1: [0.25, 0.75],
      coderPass1Greedy: [0, 1],
      selectedPass1: [0, 0],
      testerValidity: [0.1, 0.4],
      mutationScore: [0, 0.2],
      passAtK: [5, 20],
      mutAtK: [10, 30],
      mul: [1, 4],
    };
    const s = { name: 'start', mode: 'shipped models', step: 0, row: start };
    const row = compareRow({ name: 'code-a1-s1', mode: 'code-a1', seed: 1, step: 10, row: run }, s);
    // Δ: per-problem differences +2/4, 0, 0, 0 → mean +12.5 points.
    expect(row).toMatch(
      /^\| code-a1-s1 \| code-a1 \| 1 \| 10 \| 4 × 4 \| 56\.3 \(25\.0–75\.0\) \| \+12\.5 \(\+0\.0 to \+\d+\.\d\) \| – \| 50\.0 \(0\.0–100\.0\) \| 25\.0 \(10\.0–40\.0\) \| 20\.0 \(10\.0–30\.0\) \| 2\.5 \(1\.0–4\.0\) \| 12\.5 \(5\.0–20\.0\) \| 10\.0 \(0\.0–20\.0\) \|$/,
    );
    expect(compareRow(s, s)).toContain('| – | – |');
    // The second Δ is against the code-a1 run of the same seed: golden seed 2 (one fewer pass on p0) against it.
    const a1 = { name: 'a', mode: 'code-a1', seed: 2, step: 10, row: run };
    const golden = { name: 'g', mode: 'golden', seed: 2, step: 10, row: report([1, 1, 2, 4]) };
    const table = compareTable([a1, golden, { ...golden, name: 'g3', seed: 3 }], s);
    expect(table).toHaveLength(6);
    expect(table[2]).toMatch(/^\| start \| shipped models \| – \| 0 \|/);
    expect(table[3].split(' | ')[7]).toBe('–');
    // Differences −1/4, 0, 0, 0: mean −6.25 points; a third of resamples miss p0, so the upper end is 0.
    expect(table[4].split(' | ')[7]).toMatch(/^-6\.3 \(-\d+\.\d to \+0\.0\)$/);
    expect(table[5].split(' | ')[7]).toBe('–');
  });

  it('the page check passes on the records and names the line that differs', () => {
    const want = compareTable([], { name: 'start', mode: 'shipped models', step: 0, row: start });
    const page = (lines: string[]) => ['text', COMPARE_BEGIN, ...lines, '', COMPARE_END].join('\n');
    expect(checkCompareBlock(page(want), want)).toEqual([]);
    const changed = [...want.slice(0, 2), want[2].replace('| 0 |', '| 5 |')];
    expect(checkCompareBlock(page(changed), want)[0]).toMatch(/^line 3:/);
    expect(checkCompareBlock(page(want.slice(0, 2)), want)).toHaveLength(1);
    expect(checkCompareBlock('none', want)[0]).toMatch(/^no <!-- compare-table:begin -->/);
  });
});

describe('evolution table', () => {
  const rec = (before: number, after: number, size: [number, number], red: [number, number]) =>
    JSON.stringify({
      task_id: 'x',
      evolution: {
        pass_before: before,
        pass_after: after,
        size_before: size[0],
        size_after: size[1],
        redundancy_before: red[0],
        redundancy_after: red[1],
      },
    });

  it('averages over problems with intervals, from the records evolve writes', () => {
    const xs = parseEvolved([rec(0.5, 0.25, [24, 2], [1, 0]), rec(0.5, 0.5, [24, 1], [0.5, 0])].join('\n'));
    const [, , row] = evolveTable([{ label: 'tiny', problems: xs }]);
    expect(row).toMatch(
      /^\| tiny \| 2 \| 50\.0 \(50\.0–50\.0\) \| 37\.5 \(25\.0–50\.0\) \| -12\.5 \(-25\.0 to \+0\.0\) \| 24\.0 \(24\.0–24\.0\) \| 1\.5 \(1\.0–2\.0\) \| 0\.75 \(0\.50–1\.00\) \| 0\.00 \(0\.00–0\.00\) \|$/,
    );
    // Unchanged pass rates that vary over problems: both columns resample the same problems, so the same interval.
    const same = parseEvolved([0.25, 0.4, 0.25, 0.6].map((v) => rec(v, v, [24, 1], [1, 0])).join('\n'));
    const cells = evolveRow('same', same).split(' | ');
    expect(cells[2]).toBe(cells[3]);
    expect(cells[2]).not.toMatch(/\((\d+\.\d)–\1\)/);
    expect(() => parseEvolved('{"task_id":"x"}')).toThrow('line 1: no evolution.pass_before');
    expect(() => evolveRow('e', [])).toThrow('e: no evolved problems');
  });
});
