// The headline table on generated per-problem records: seeds pooled per problem, each run against its own start,
// golden without Tester columns, and a clear error for a row whose runs are missing or short of the step.
import { describe, expect, it } from 'vitest';
import type { ProblemEval } from '../run/eval-ci';
import { heldoutReport, liftedRecords } from './report-fixture';
import { HEADLINE_BLOCK, headlineBegin, headlineTable, HEADLINE_HEADER, parseHeadlineRows } from './headline';
import { runOnSplit } from './compare-records-node';
import type { TargetRun } from './targets';

const P = 40;
const N = 8;

/** Problem i passes with probability 0.5·d_i + lift; every test line is correct with probability `valid`. */
const records = (seed: number, lift: number, valid = 0.3): ProblemEval[] =>
  liftedRecords({
    seed,
    lift,
    problems: P,
    spread: 0.5,
    difficultySeed: 5,
    samples: N,
    more: (r, rng) => {
      r.refLines = 4;
      r.refCorrect = [0, 1, 2, 3].filter(() => rng.next() < valid).length;
      r.mutants = 2;
      r.mutKilledByRef = [0, 1].filter(() => rng.next() < valid).length;
    },
  });

const run = (mode: string, seed: number, lift: number, valid = 0.3, step = 100): TargetRun => ({
  name: `${mode}-s${seed}`,
  mode,
  seed,
  evals: [
    { step: 0, rows: [heldoutReport(records(100, 0))] },
    { step, rows: [heldoutReport(records(seed, lift, valid))] },
  ],
});

/** The cells of a table row, without the outer pipes. */
const cells = (line: string) => line.split(' | ').map((c) => c.replace(/^\| |\s\|$/g, ''));

describe('headlineTable', () => {
  it('pools the seeds per problem and compares each row with its own start', () => {
    const up = [run('code-a1', 1, 0.3, 0.8), run('code-a1', 2, 0.3, 0.8)];
    const flat = [run('self-play', 1, 0, 0.3), run('self-play', 2, 0, 0.3)];
    const lines = headlineTable(
      [
        { dir: 'disjoint-shared', mode: 'code-a1', runs: up },
        { dir: '.', mode: 'self-play', runs: flat },
      ],
      100,
    );
    expect(lines.slice(0, 2)).toEqual(HEADLINE_HEADER);
    const [a, b] = [cells(lines[2]), cells(lines[3])];
    expect(a.slice(0, 3)).toEqual(['`results-data/disjoint-shared`', 'code-a1', '1, 2']);
    expect(b.slice(0, 3)).toEqual(['`results-data`', 'self-play', '1, 2']);
    expect(a[3]).toBe(b[3]); // the same start evaluation
    // A lift of 0.3 shows as a gain whose interval excludes 0; no lift leaves the interval around 0.
    const delta = (c: string) =>
      c
        .match(/^([+-][\d.]+) \(([+-][\d.]+) to ([+-][\d.]+)\)$/)!
        .slice(1)
        .map(Number);
    const [d, lo] = delta(a[5]);
    expect(d).toBeGreaterThan(15);
    expect(lo).toBeGreaterThan(0);
    const [, flo, fhi] = delta(b[5]);
    expect(flo).toBeLessThan(0);
    expect(fhi).toBeGreaterThan(0);
    // The Tester that got more tests right on the reference has a higher Mul than its start.
    expect(delta(a[8])[1]).toBeGreaterThan(0);
  });

  it('pools: two seeds give the mean of the two single-seed pass rates', () => {
    const [r1, r2] = [run('code-a1', 1, 0.1), run('code-a1', 2, 0.4)];
    const one = (r: TargetRun) =>
      Number(cells(headlineTable([{ dir: 'x', mode: 'code-a1', runs: [r] }], 100)[2])[4].split(' ')[0]);
    const both = Number(cells(headlineTable([{ dir: 'x', mode: 'code-a1', runs: [r2, r1] }], 100)[2])[4].split(' ')[0]);
    expect(both).toBeCloseTo((one(r1) + one(r2)) / 2, 0);
  });

  it('prints no Tester numbers for golden, which trains none', () => {
    const row = cells(headlineTable([{ dir: 'd', mode: 'golden', runs: [run('golden', 1, 0.2)] }], 100)[2]);
    expect(row.slice(6)).toEqual(['–', '–', '– (no Tester trained)']);
  });

  it('refuses a row without runs or with a run short of the step, naming it', () => {
    expect(() => headlineTable([{ dir: 'd', mode: 'golden', runs: [] }], 100)).toThrow(/d:golden: no golden runs/);
    const short = [run('code-a1', 1, 0.2), run('code-a1', 2, 0.2, 0.3, 40)];
    expect(() => headlineTable([{ dir: 'd', mode: 'code-a1', runs: short }], 100)).toThrow(
      /code-a1-s2 not evaluated at step 100/,
    );
  });
});

describe('the headline on another split', () => {
  it('judges the rows on the named split, not the held-out one', () => {
    // Each evaluation holds the held-out split and a renamed split on which the run gains far more.
    const both = (seed: number, task: number): TargetRun => {
      const r = run('code-a1', seed, 0);
      const evals = r.evals.map((e, i) => ({
        ...e,
        rows: [...e.rows, { ...heldoutReport(records(200 + i, i ? task : 0)), split: 'renamed' as const }],
      }));
      return { ...r, evals };
    };
    const runs = [both(1, 0.4), both(2, 0.4)];
    const gain = (rs: TargetRun[]) =>
      Number(cells(headlineTable([{ dir: 'd', mode: 'code-a1', runs: rs }], 100)[2])[5].split(' ')[0]);
    expect(gain(runs)).toBeLessThan(8);
    expect(gain(runs.map((r) => runOnSplit(r, 'renamed')))).toBeGreaterThan(20);
  });

  it('names the split in the marker, and the block pattern reads it back', () => {
    const rows = 'renamed-ws:code-a1,renamed-ws:golden';
    for (const split of [undefined, 'renamed' as const]) {
      const block = `${headlineBegin(40, rows, split)}\n| a |\n<!-- headline:end -->`;
      const m = [...block.matchAll(HEADLINE_BLOCK)];
      expect(m.map((x) => [x[1], x[2], x[3]])).toEqual([['40', rows, split]]);
    }
    expect(headlineBegin(40, rows, 'renamed')).toContain(' split=renamed -->');
  });
});

describe('parseHeadlineRows', () => {
  it('reads DIR:MODE items and rejects anything else', () => {
    expect(parseHeadlineRows('.:code-a1,disjoint:self-play')).toEqual([
      { dir: '.', mode: 'code-a1' },
      { dir: 'disjoint', mode: 'self-play' },
    ]);
    expect(() => parseHeadlineRows('disjoint')).toThrow(/expected DIR:MODE/);
    expect(() => parseHeadlineRows('disjoint:tcs')).toThrow(/"disjoint:tcs"/);
  });
});
