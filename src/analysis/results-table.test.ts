// docs/results.md's results table against the committed records in docs/results-data: every row must be what the
// records give (the page quotes no number by hand); and the check itself catches a changed number or a missing run.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  blockLines,
  checkResultsTable,
  DISJOINT_MARKERS,
  disjointSplit,
  RESULTS_HEADER,
  resultsRow,
  RUNS_TABLE_END,
  runsTableBegin,
  runsTableDirs,
  TABLE_BEGIN,
  TABLE_END,
} from './results-table';
import type { EvalPoint } from '../run/run-layout';
import { regenerateResultsPage } from './results-page-node';
import { checkCompareBlock } from './compare-table';
import * as recordsNode from './compare-records-node';
import { checkTargetsBlocks } from './targets';

const DATA = join(__dirname, '..', '..', 'docs', 'results-data');
/** A run's eval.jsonl points under the records (or under one of their subdirectories, e.g. disjoint). */
const loadIn =
  (base: string) =>
  (run: string): EvalPoint[] | undefined => {
    const f = join(base, run, 'eval.jsonl');
    if (!existsSync(f)) return undefined;
    return readFileSync(f, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as EvalPoint);
  };
const load = loadIn(DATA);

describe('docs/results.md results table', () => {
  const page = () => readFileSync(join(__dirname, '..', '..', 'docs', 'results.md'), 'utf8');
  it('matches the committed records row by row', () => {
    expect(checkResultsTable(page(), load)).toEqual([]);
  });

  it('the mode comparison is what `npm run compare -- docs/results-data/compare` prints from the records', () => {
    const records = recordsNode.loadCompareRecords([join(DATA, 'compare')]);
    expect(records.start).toBeDefined();
    expect(checkCompareBlock(page(), recordsNode.compareBlock(records))).toEqual([]);
  });

  it("the disjoint-data table is what the warm-starts' evaluations in docs/results-data/disjoint record", () => {
    const load = (run: string) => recordsNode.loadDisjointEval(join(DATA, 'disjoint'), run);
    expect(load('sft-half-b/train-rl')?.[0].rows[0].part).toBe('rl');
    expect(load('sft-half-b/no-such-split')).toBeUndefined();
    expect(checkResultsTable(page(), load, DISJOINT_MARKERS, disjointSplit)).toEqual([]);
  });

  it('`npm run compare -- --disjoint` lists every recorded warm-start row, each on the split it names', () => {
    const dir = join(DATA, 'disjoint');
    const runs = recordsNode.disjointRuns(dir);
    expect(runs).toEqual(expect.arrayContaining(['shipped/train-sft', 'sft-half-b/heldout', 'sft-half-b/train-rl']));
    expect(runs).not.toContain('sft-half-b/pretrain'); // a pretraining record holds no evaluation rows
    for (const run of runs) {
      const row = recordsNode.loadDisjointEval(dir, run)?.[0].rows[0];
      expect(row?.split, run).toBe(disjointSplit(run));
    }
    expect(disjointSplit('start/heldout-family')).toBe('heldout-family');
    expect(disjointSplit('shipped/train-rl')).toBe('train');
  });

  it('each runs table is what the runs in the records subdirectory its marker names record', () => {
    const dirs = runsTableDirs(page());
    expect(dirs).toContain('disjoint');
    for (const dir of dirs)
      expect(checkResultsTable(page(), loadIn(join(DATA, dir)), [runsTableBegin(dir), RUNS_TABLE_END]), dir).toEqual(
        [],
      );
    // Blocks sharing an end marker are read each up to its own end: the second table's rows are not the first's.
    const two = [
      runsTableBegin('a'),
      ...RESULTS_HEADER,
      '| x | 0 |',
      RUNS_TABLE_END,
      runsTableBegin('b'),
      ...RESULTS_HEADER,
      RUNS_TABLE_END,
    ].join('\n');
    expect(runsTableDirs(two)).toEqual(['a', 'b']);
    expect(blockLines(two, runsTableBegin('b'), RUNS_TABLE_END)).toEqual(RESULTS_HEADER);
  });

  it('every targets table is what `npm run targets` gives from the reference runs at its step', () => {
    const runs = recordsNode.targetRunsIn(DATA);
    expect(runs.some((r) => r.mode === 'code-a1')).toBe(true);
    expect(checkTargetsBlocks(page(), (m) => recordsNode.judgeMarker(DATA, m))).toEqual([]);
  });

  it('`npm run results-page` leaves the page as it is, and restores a changed number from the records', () => {
    const current = page();
    expect(regenerateResultsPage(current, DATA)).toBe(current);
    const rows = blockLines(current, TABLE_BEGIN, TABLE_END)!;
    const edited = current.replace(
      rows[2],
      rows[2].replace(/\| (\d+)\.(\d) \(/, (_, a: string, b: string) => `| ${Number(a) + 1}.${b} (`),
    );
    expect(edited).not.toBe(current);
    expect(regenerateResultsPage(edited, DATA)).toBe(current);
    expect(() => regenerateResultsPage(`${TABLE_BEGIN}\nno end`, DATA)).toThrow(/no <!-- results-table:begin -->/);
  });

  it('reports a changed number, an unknown run and a missing block', () => {
    const point: EvalPoint = {
      step: 10,
      trainPassRate: 0.4,
      rows: [
        {
          split: 'heldout',
          problems: 2,
          samples: 8,
          coderPass1: 0.25,
          coderPass1Greedy: 0.5,
          selectedPass1: 0,
          testerValidity: 0.1,
          mutationScore: 0.2,
          passAtK: 10,
          mutAtK: 20,
          mul: 2,
          ci: {
            coderPass1: [0.1, 0.4],
            coderPass1Greedy: [0, 1],
            selectedPass1: [0, 0],
            testerValidity: [0, 0.2],
            mutationScore: [0, 0.4],
            passAtK: [0, 20],
            mutAtK: [0, 40],
            mul: [0, 8],
          },
        },
      ],
    };
    const row = resultsRow('r', point);
    expect(row).toBe(
      '| r | 10 | 2 × 8 | 25.0 (10.0–40.0) | 50.0 (0.0–100.0) | 10.0 (0.0–20.0) | 20.0 (0.0–40.0) | 10.0 (0.0–20.0) | 20.0 (0.0–40.0) | 2.0 (0.0–8.0) | 40.0 |',
    );
    const page = (rows: string[]) => [TABLE_BEGIN, ...RESULTS_HEADER, ...rows, TABLE_END].join('\n');
    const loadR = (run: string) => (run === 'r' ? [point] : undefined);
    expect(checkResultsTable(page([row]), loadR)).toEqual([]);
    expect(checkResultsTable(page([row.replace('25.0', '35.0')]), loadR)[0]).toMatch(/^r step 10:/);
    expect(checkResultsTable(page([row.replace('| r |', '| s |')]), loadR)).toEqual(['s step 10: no such record']);
    expect(checkResultsTable(page([]), loadR)).toEqual(['the table has no rows']);
    expect(checkResultsTable('no table', loadR)[0]).toMatch(/no <!-- results-table:begin -->/);
  });
});
