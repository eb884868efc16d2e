// The results table of docs/results.md, generated from a run's eval.jsonl records (one row per run and eval step), so
// the page's numbers can be checked against the committed records (results-table.test.ts) rather than retyped.
import type { CiMetric } from '../run/eval-ci';
import type { EvalPoint } from '../run/run-layout';

export const RESULTS_HEADER = [
  '| run | step | problems × samples | pass@1 (%) | greedy (%) | validity (%) | wb-mutation score (%) | pass@k | mut@k | Mul | train-batch pass (%) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

/** One table row: each metric as "value (95% CI lo–hi)", percentages with one decimal. */
export function resultsRow(run: string, e: EvalPoint, split = 'heldout'): string {
  const r = e.rows.find((x) => x.split === split);
  if (!r) throw new Error(`${run} step ${e.step}: no ${split} evaluation`);
  const cell = (key: CiMetric, scale: number) => {
    const v = (scale * r[key]).toFixed(1);
    return r.ci ? `${v} (${(scale * r.ci[key][0]).toFixed(1)}–${(scale * r.ci[key][1]).toFixed(1)})` : v;
  };
  return `| ${[
    run,
    String(e.step),
    `${r.problems} × ${r.samples ?? '?'}`,
    cell('coderPass1', 100),
    cell('coderPass1Greedy', 100),
    cell('testerValidity', 100),
    cell('mutationScore', 100),
    cell('passAtK', 1),
    cell('mutAtK', 1),
    cell('mul', 1),
    e.trainPassRate === undefined ? '–' : (100 * e.trainPassRate).toFixed(1),
  ].join(' | ')} |`;
}

/** The first two cells (run, step) of a table row written by resultsRow. */
export function rowKey(line: string): { run: string; step: number } | undefined {
  const cells = line.split('|').map((c) => c.trim());
  const step = Number(cells[2]);
  return cells.length > 3 && cells[1] && Number.isInteger(step) ? { run: cells[1], step } : undefined;
}

export const TABLE_BEGIN = '<!-- results-table:begin -->';
export const TABLE_END = '<!-- results-table:end -->';
/** The page's second table in this format: the warm-starts on the training parts they saw and did not see. */
export const DISJOINT_MARKERS = ['<!-- disjoint-table:begin -->', '<!-- disjoint-table:end -->'] as const;
/**
 * The others: the runs of one records subdirectory (docs/results-data/<dir>/<mode>-s<seed>, e.g. the RL runs from an
 * SFT-half warm-start on the other half), between runsTableBegin(dir) and RUNS_TABLE_END.
 */
export const runsTableBegin = (dir: string) => `<!-- runs-table:begin dir=${dir} -->`;
export const RUNS_TABLE_END = '<!-- runs-table:end -->';
/** The records subdirectories the page's runs tables name, in page order. */
export const runsTableDirs = (page: string): string[] =>
  [...page.matchAll(/<!-- runs-table:begin dir=([\w.-]+) -->/g)].map((m) => m[1]);
/** Which split a disjoint-table row (`<model>/<split>`) reports: resultsRow's split argument. */
export const disjointSplit = (run: string) => {
  const label = run.slice(run.indexOf('/') + 1); // heldout, heldout-family, or train-<part> (a part of 'train')
  return label.startsWith('train') ? 'train' : label;
};

/** The non-blank lines (trimmed) between two markers of a page, or undefined when the block is missing. */
export function blockLines(page: string, begin: string, end: string): string[] | undefined {
  const a = page.indexOf(begin);
  const b = page.indexOf(end, a); // several blocks may share an end marker
  if (a < 0 || b < a) return undefined;
  return page
    .slice(a + begin.length, b)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

/**
 * Every row of the page's results table (between TABLE_BEGIN and TABLE_END, or other markers of a table in the same
 * format) against the records: `load(run)` gives that run's eval.jsonl points. Returns one message per mismatch
 * (empty when the page matches).
 */
export function checkResultsTable(
  page: string,
  load: (run: string) => EvalPoint[] | undefined,
  markers: readonly [begin: string, end: string] = [TABLE_BEGIN, TABLE_END],
  splitOf: (run: string) => string = () => 'heldout',
): string[] {
  const [begin, end] = markers;
  const lines = blockLines(page, begin, end);
  if (!lines) return [`no ${begin} … ${end} block`];
  const problems: string[] = [];
  if (lines[0] !== RESULTS_HEADER[0] || lines[1] !== RESULTS_HEADER[1])
    problems.push('the header differs from RESULTS_HEADER');
  const rows = lines.slice(2);
  if (!rows.length) problems.push('the table has no rows');
  for (const line of rows) {
    const key = rowKey(line);
    if (!key) {
      problems.push(`not a results row: ${line}`);
      continue;
    }
    const point = load(key.run)?.find((e) => e.step === key.step);
    if (!point) {
      problems.push(`${key.run} step ${key.step}: no such record`);
      continue;
    }
    const want = resultsRow(key.run, point, splitOf(key.run));
    if (want !== line) problems.push(`${key.run} step ${key.step}:\n  page:    ${line}\n  records: ${want}`);
  }
  return problems;
}
