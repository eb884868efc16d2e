// docs/results.md and README's results paragraph against the committed records in docs/results-data: every block
// (tables, sentences, figures) must be what the records give (the page quotes no number by hand), the page fits in
// 25 KB with its first screen first; and the checks themselves catch a changed number.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockLines, checkResultsTable, RESULTS_HEADER, resultsRow, TABLE_BEGIN, TABLE_END } from './results-table';
import type { EvalPoint } from '../run/run-layout';
import { regenerateClaims, regenerateResultsPage, resultsFigures } from './results-page-node';
import { CLAIMS_END, REFERENCE_DIR } from './claims';
import { checkCompareBlock } from './compare-table';
import * as recordsNode from './compare-records-node';
import { checkTargetsBlocks } from './targets';

const DATA = join(__dirname, '..', '..', 'docs', 'results-data');
const ROOT = join(__dirname, '..', '..');
const page = () => readFileSync(join(ROOT, 'docs', 'results.md'), 'utf8');

describe('docs/results.md against the committed records', () => {
  it('fits in 25 KB and opens with the figure, the table and the three sentences before any section', () => {
    const text = page();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(25_000);
    const first = text.slice(0, text.indexOf('\n## '));
    expect(first).toMatch(/!\[[^\]]*\]\(plots\/results\/[\w-]+-pass1\.svg\)/);
    expect(first).toContain('<!-- summary:begin');
    expect(first.match(/\*\*(What it shows|What it does not show|Power)\.\*\*/g)).toHaveLength(3);
    // The paper's gaps are stated; pilot records say the reference runs are pending, the reference records never do.
    expect(first).toMatch(/56\.95.*56\.23.*55\.88/s);
    const dir = /<!-- summary:begin step=\d+ dir=([\w.-]+)/.exec(first)?.[1];
    if (dir === REFERENCE_DIR) expect(first).not.toMatch(/pilot|pending/);
    else expect(first).toMatch(/pending/);
  });

  it('every generated block is what `npm run results-page` gives, and a changed number is restored', () => {
    const current = page();
    expect(regenerateResultsPage(current, DATA)).toBe(current);
    const rows = blockLines(current, '<!-- summary:begin', '<!-- summary:end -->')!;
    const edited = current.replace(
      rows[3],
      rows[3].replace(/\| (\d+)\.(\d) →/, (_, a: string, b: string) => `| ${Number(a) + 1}.${b} →`),
    );
    expect(edited).not.toBe(current);
    expect(regenerateResultsPage(edited, DATA)).toBe(current);
    expect(() => regenerateResultsPage(`${TABLE_BEGIN}\nno end`, DATA)).toThrow(/no <!-- results-table:begin -->/);
  });

  it('the figures are what the records draw', () => {
    const figures = resultsFigures(page(), DATA);
    expect(figures.size).toBeGreaterThan(0);
    for (const [path, svg] of figures) expect(readFileSync(join(ROOT, path), 'utf8'), path).toBe(svg);
  });

  it('every targets table is what `npm run targets -- judge` gives from the records', () => {
    expect(checkTargetsBlocks(page(), (m) => recordsNode.judgeMarker(DATA, m))).toEqual([]);
  });

  it('the mode comparison is what `npm run compare -- docs/results-data/compare` prints from the records', () => {
    const records = recordsNode.loadCompareRecords([join(DATA, 'compare')]);
    expect(records.start).toBeDefined();
    expect(checkCompareBlock(page(), recordsNode.compareBlock(records))).toEqual([]);
  });
});

describe("README's results paragraph", () => {
  it('is at most five lines, every number in it generated from the records', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const lines = blockLines(readme, '<!-- claims:begin readme', CLAIMS_END);
    expect(lines, 'README.md has no <!-- claims:begin readme ... --> block').toBeDefined();
    expect(lines!.length - 1).toBeLessThanOrEqual(5); // the rest of the begin marker is the first line
    expect(regenerateClaims(readme, DATA)).toBe(readme);
    // A number changed by hand is caught.
    const tampered = readme.replace(
      /(claims:begin readme[\s\S]*?[+-])(\d)\.(\d)/,
      (_, pre: string, a: string, b: string) => `${pre}${(Number(a) + 1) % 10}.${b}`,
    );
    expect(tampered).not.toBe(readme);
    expect(regenerateClaims(tampered, DATA)).toBe(readme);
  });
});

describe('results tables in the results-row format', () => {
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
