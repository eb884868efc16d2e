// Rewrites every generated block of docs/results.md from the committed records (`npm run results-page`): the headline, the results
// table, the disjoint-data tables, each targets table, the tuning table and the mode comparison, so after new runs the page is brought
// up to date by one command rather than by pasting outputs (results-table.test.ts checks the same blocks).
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { COMPARE_BEGIN, COMPARE_END, compareFigure } from './compare-table';
import {
  compareBlock,
  disjointRuns,
  loadCompareRecords,
  loadDisjointEval,
  loadTargetRuns,
  judgeMarker,
  evalFileRows,
  noveltyOf,
  runOnSplit,
  targetRunsIn,
} from './compare-records-node';
import { MODE_RANK, NOVELTY_BLOCK, noveltyBegin, NOVELTY_END, noveltyRows, noveltyTable } from './novelty-table';
import * as table from './results-table';
import {
  judgeTargets,
  TARGETS_BLOCK,
  TARGETS_END,
  targetsMarker,
  targetsBegin,
  targetsTable,
  type JudgedSplit,
  type TargetRun,
} from './targets';
import { HEADLINE_BLOCK, HEADLINE_END, headlineBegin, headlineTable, parseHeadlineRows } from './headline';
import { EVALS_BLOCK, EVALS_END, evalsBegin, evalsTable, parseEvalsRows } from './evals-table';
import { FAMILIES_BLOCK, FAMILIES_END, familiesBegin, familyRows, familyTable } from './family-table';
import { TESTER_COUNTS_BLOCK, TESTER_COUNTS_END, testerCountsBegin, testerCountsTable } from './tester-counts';
import { choiceLine, TUNING_BLOCK, TUNING_END, tuningBegin, tuningTable } from './tuning';
import { loadTunings } from './tuning-node';
import { SUMMARY_BLOCK, SUMMARY_END, summaryBegin, summaryFigure, summaryTable } from './summary-table';
import { POWER_BLOCK, POWER_END, powerBegin, powerTable } from './power';
import { CLAIMS_BLOCK, CLAIMS_END, claimsBegin, pageClaims, readmeClaims, wrap } from './claims';
import { presetConfig } from '../rl/config';
import { loadCurriculum } from '../run/lab-setup';

/** Held-out tasks of the tiny preset: what the pending reference runs evaluate. */
const planTasks = () => loadCurriculum(presetConfig('tiny').tasks.families).heldout.length;

/** The claims block of a page or README (claims.ts), regenerated from the records under `data`. */
export function regenerateClaims(text: string, data: string): string {
  return text.replace(CLAIMS_BLOCK, (_, kind: 'page' | 'readme', step: string, dir: string, power: string) => {
    const inputs = {
      runs: targetRunsIn(data, dir),
      step: Number(step),
      dir,
      powerRuns: power.split(',').map((d) => targetRunsIn(data, d)),
      powerStep: Number(step),
      planTasks: planTasks(),
    };
    const lines =
      kind === 'page'
        ? pageClaims(inputs).flatMap((l, i) => [...(i ? [''] : []), ...wrap(l, 118)])
        : readmeClaims(inputs);
    return [claimsBegin(kind, Number(step), dir, power), ...lines, CLAIMS_END].join('\n');
  });
}

/** Where the figure of a summary block's records goes (docs/plots/results/<dir>-pass1.svg, from the repository root). */
export const summaryFigurePath = (dir: string) => `docs/plots/results/${dir}-pass1.svg`;

/** Where the mode comparison's figure goes (from the repository root). */
export const COMPARE_FIGURE = 'docs/plots/results/compare-delta.svg';

/**
 * The figures a page's blocks draw, by path: each summary block's held-out pass@1 over steps with bands, and the mode
 * comparison's paired change of pass@1 against the start per run (one evaluation each, so intervals, not lines).
 */
export function resultsFigures(page: string, data: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of page.matchAll(SUMMARY_BLOCK)) {
    const title = `Held-out pass@1 (tasks never trained on), seeds pooled, 95% bands over seeds and tasks: ${m[2]}`;
    out.set(summaryFigurePath(m[2]), summaryFigure(targetRunsIn(data, m[2]), title));
  }
  if (page.includes(COMPARE_BEGIN)) out.set(COMPARE_FIGURE, compareFigure(loadCompareRecords([join(data, 'compare')])));
  return out;
}

/** The results-table rows of a directory of `<mode>-s<seed>` runs: every held-out evaluation of each run. */
export function runRows(runs: readonly TargetRun[]): string[] {
  const sorted = [...runs].sort((a, b) => a.seed - b.seed || (MODE_RANK[a.mode] ?? 9) - (MODE_RANK[b.mode] ?? 9));
  return [
    ...table.RESULTS_HEADER,
    ...sorted.flatMap((r) =>
      r.evals.filter((e) => e.rows.some((x) => x.split === 'heldout')).map((e) => table.resultsRow(r.name, e)),
    ),
  ];
}

/** The disjoint-data table: one row per warm-start and split the evaluations in DIR record (`compare --disjoint`). */
export function disjointTable(dir: string): string[] {
  const rows = disjointRuns(dir).map((run) =>
    table.resultsRow(run, loadDisjointEval(dir, run)![0], table.disjointSplit(run)),
  );
  return [...table.RESULTS_HEADER, ...rows];
}

/**
 * The headline rows a marker names (`dir:mode,...`), each with its runs from the records under `data`; with `split`,
 * judged on that evaluated split in the held-out one's place (a run that never evaluated it is then short of the step).
 */
export function headlineEntries(data: string, spec: string, split?: JudgedSplit) {
  return parseHeadlineRows(spec).map(({ dir, mode }) => {
    const runs = loadTargetRuns([join(data, dir)]).filter((r) => r.mode === mode);
    return { dir, mode, runs: split ? runs.map((r) => runOnSplit(r, split)) : runs };
  });
}

/**
 * The evals-table rows a marker names (`NAME:FILE+FILE,...`, files relative to `data`), each with every report its
 * evaluation files hold; an error naming a file that is missing or holds no evaluation.
 */
export function evalsEntries(data: string, spec: string) {
  return parseEvalsRows(spec).map(({ name, files }) => ({
    name,
    reports: files.flatMap((f) => {
      const file = join(data, f);
      if (!existsSync(file)) throw new Error(`evals table ${name}: ${file} not found`);
      const rows = evalFileRows(file);
      if (!rows.length) throw new Error(`evals table ${name}: ${file} holds no evaluation rows (npm run eval --out)`);
      return rows;
    }),
  }));
}

/** A whole evals-table block, marker included, from the records under `data`. */
export const evalsBlock = (data: string, splits: string, spec: string) =>
  [evalsBegin(splits, spec), ...evalsTable(splits.split(','), evalsEntries(data, spec)), EVALS_END].join('\n');

/** The page with the lines between `begin` and `end` replaced; an error when the page lacks the block. */
function replaceBlock(page: string, begin: string, end: string, lines: readonly string[]): string {
  const a = page.indexOf(begin);
  const b = page.indexOf(end, a); // several blocks may share an end marker
  if (a < 0 || b < a) throw new Error(`the page has no ${begin} … ${end} block`);
  return `${page.slice(0, a + begin.length)}\n${lines.join('\n')}\n${page.slice(b)}`;
}

/**
 * The page with each generated block it carries rewritten from the records in `data` (docs/results-data): blocks the
 * page does not carry are left out, not added; a block whose records are missing is an error naming them.
 */
export function regenerateResultsPage(page: string, data: string): string {
  const runs = loadTargetRuns([data]);
  if (page.includes(table.TABLE_BEGIN)) page = replaceBlock(page, table.TABLE_BEGIN, table.TABLE_END, runRows(runs));
  const disjoint = join(data, 'disjoint');
  if (page.includes(table.DISJOINT_MARKERS[0]))
    page = replaceBlock(page, ...table.DISJOINT_MARKERS, disjointTable(disjoint));
  for (const dir of table.runsTableDirs(page))
    page = replaceBlock(
      page,
      table.runsTableBegin(dir),
      table.RUNS_TABLE_END,
      runRows(loadTargetRuns([join(data, dir)])),
    );
  if (page.includes(COMPARE_BEGIN)) {
    const compare = join(data, 'compare');
    if (!existsSync(compare)) throw new Error(`${compare}: no such directory (the page's mode comparison)`);
    page = replaceBlock(page, COMPARE_BEGIN, COMPARE_END, compareBlock(loadCompareRecords([compare])));
  }
  // The settings judged without held-out numbers (`npm run tuning`): the table and the choice it gives.
  page = page.replace(TUNING_BLOCK, (_, dir: string, reference: string, tasks: string | undefined) => {
    const dirs = dir.split(',').map((d) => join(data, d));
    const tuning = loadTunings(dirs, tasks ? 'tasks' : 'problems');
    const lines = [...tuningTable(tuning, reference), '', choiceLine(tuning)];
    return [tuningBegin(dir, reference, Boolean(tasks)), ...lines, TUNING_END].join('\n');
  });
  // The page's first table: the main runs' seeds pooled at one step, against their starts.
  page = page.replace(HEADLINE_BLOCK, (_, step: string, spec: string, split: JudgedSplit | undefined) =>
    [
      headlineBegin(Number(step), spec, split),
      ...headlineTable(headlineEntries(data, spec, split), Number(step)),
      HEADLINE_END,
    ].join('\n'),
  );
  // Stand-alone evaluations of checkpoints against a base (`npm run compare -- --evals SPLITS ROWS`).
  page = page.replace(EVALS_BLOCK, (_, splits: string, spec: string) => evalsBlock(data, splits, spec));
  // The counts behind the Tester's mut@k (`npm run targets -- tester-counts DIR ...`).
  page = page.replace(TESTER_COUNTS_BLOCK, (_, step: string, dir: string) =>
    [
      testerCountsBegin(Number(step), dir),
      ...testerCountsTable(targetRunsIn(data, dir), Number(step)),
      TESTER_COUNTS_END,
    ].join('\n'),
  );
  // Held-out pass@1 per task family, each mode's seeds pooled (`npm run targets -- by-family DIR`).
  page = page.replace(FAMILIES_BLOCK, (_, step: string, dir: string) =>
    [
      familiesBegin(Number(step), dir),
      ...familyTable(familyRows(targetRunsIn(data, dir), Number(step)), Number(step)),
      FAMILIES_END,
    ].join('\n'),
  );
  // Held-out pass@1 on new tasks and on renamed training tasks (`npm run targets -- novelty DIR`).
  page = page.replace(NOVELTY_BLOCK, (_, step: string, dir: string | undefined) => {
    const rows = noveltyRows(dir ? targetRunsIn(data, dir) : runs, Number(step), noveltyOf);
    return [noveltyBegin(Number(step), dir), ...noveltyTable(rows, Number(step)), NOVELTY_END].join('\n');
  });
  // The first screen: the summary table, the power table and the sentences, from the records they name.
  page = page.replace(SUMMARY_BLOCK, (_, step: string, dir: string) =>
    [summaryBegin(Number(step), dir), ...summaryTable(targetRunsIn(data, dir), Number(step)), SUMMARY_END].join('\n'),
  );
  page = page.replace(POWER_BLOCK, (_, step: string, dir: string, plan: string) =>
    [
      powerBegin(Number(step), dir, Number(plan)),
      ...powerTable(targetRunsIn(data, dir), Number(step), Number(plan)),
      POWER_END,
    ].join('\n'),
  );
  page = regenerateClaims(page, data);
  return page.replace(TARGETS_BLOCK, (...match: string[]) => {
    const m = targetsMarker(match as unknown as RegExpMatchArray);
    const judged = m.dir || m.unit === 'tasks' || m.only || m.split ? judgeMarker(data, m) : judgeTargets(runs, m.step);
    return [targetsBegin(m), ...targetsTable(judged), TARGETS_END].join('\n');
  });
}
