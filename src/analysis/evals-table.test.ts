// The evals table on generated per-problem evaluations: each split's numbers come from that split's report, the
// change is paired against the first row, and a missing split or a malformed marker row is an error naming it.
import { describe, expect, it } from 'vitest';
import type { ProblemEval } from '../run/eval-ci';
import { heldoutReport, liftedRecords } from './report-fixture';
import { EVALS_BLOCK, evalsBegin, evalsTable, parseEvalsRows, type EvalsRow } from './evals-table';
import type { SplitReport } from '../run/eval';

const P = 30;

/** Problem i passes each of 8 samples with probability 0.4·d_i + lift. */
const records = (seed: number, lift: number): ProblemEval[] =>
  liftedRecords({ seed, lift, problems: P, spread: 0.4, difficultySeed: 9 });

const on = (split: SplitReport['split'], seed: number, lift: number): SplitReport => ({
  ...heldoutReport(records(seed, lift)),
  split,
});

const cells = (line: string) => line.split(' | ').map((c) => c.replace(/^\| |\s\|$/g, '').trim());
const delta = (c: string) =>
  c
    .match(/^([+-][\d.]+) \(([+-][\d.]+) to ([+-][\d.]+)\)$/)!
    .slice(1)
    .map(Number);

describe('evalsTable', () => {
  const rows: EvalsRow[] = [
    { name: 'start', reports: [on('heldout', 1, 0), on('renamed', 2, 0)] },
    // Lifted on renamed only; the files may list the splits in any order.
    { name: 'more-sft', reports: [on('renamed', 3, 0.5), on('heldout', 4, 0)] },
  ];

  it('puts each split in its own columns and pairs the change against the first row', () => {
    const lines = evalsTable(['renamed', 'heldout'], rows);
    expect(lines[0]).toContain('renamed pass@1 (30 × 8)');
    expect(lines[0].indexOf('renamed')).toBeLessThan(lines[0].indexOf('| heldout pass@1'));
    const [base, more] = [cells(lines[2]), cells(lines[3])];
    expect(base[0]).toBe('`start`');
    expect(base[3]).toBe(''); // the base has no change against itself
    const [dTask, loTask] = delta(more[3]);
    expect(dTask).toBeGreaterThan(30);
    expect(loTask).toBeGreaterThan(0);
    expect(Math.abs(delta(more[6])[0])).toBeLessThan(10); // no lift held out: only sampling noise
    // The value cell is that split's pass@1, not another split's.
    expect(Number(more[1].split(' ')[0])).toBeGreaterThan(Number(more[4].split(' ')[0]) + 20);
  });

  it('refuses a row that lacks a split, naming both', () => {
    expect(() => evalsTable(['heldout-family'], rows)).toThrow(/start has no per-problem heldout-family/);
    const short = [rows[0], { name: 'only-heldout', reports: [on('heldout', 5, 0)] }];
    expect(() => evalsTable(['heldout', 'renamed'], short)).toThrow(/only-heldout .* renamed/);
  });
});

describe('the evals-table marker', () => {
  it('reads rows of NAME:FILE+FILE and rejects anything else', () => {
    expect(parseEvalsRows('a:x/y.json+z.json,b-2:w.json')).toEqual([
      { name: 'a', files: ['x/y.json', 'z.json'] },
      { name: 'b-2', files: ['w.json'] },
    ]);
    expect(() => parseEvalsRows('a')).toThrow(/"a": expected NAME:FILE/);
    expect(() => parseEvalsRows('a:x.json+')).toThrow(/expected NAME:FILE/);
  });

  it('round-trips through the block pattern', () => {
    const begin = evalsBegin('renamed,heldout', 'a:x.json+y.json,b:z.json');
    const m = [...`${begin}\n| t |\n<!-- evals-table:end -->`.matchAll(EVALS_BLOCK)];
    expect(m.map((x) => [x[1], x[2]])).toEqual([['renamed,heldout', 'a:x.json+y.json,b:z.json']]);
  });
});
