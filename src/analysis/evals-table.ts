// A generated table of stand-alone evaluations (`npm run eval --out` files, e.g. warm-starts that were never trained
// by RL): per split, each model's pass@1 and greedy pass@1 with their intervals and its paired change against the
// first row, so a page comparing checkpoints quotes the records instead of typing numbers in. Pure: callers load files.
import { splitLabel, type SplitReport } from '../run/eval';
import { pairedDelta, showDelta, showValue } from './targets';

/** One row the marker names: a short name and the reports of its evaluation files (any split, any order). */
export interface EvalsRow {
  name: string;
  reports: readonly SplitReport[];
}

const report = (row: EvalsRow, split: string): SplitReport => {
  const r = row.reports.find((x) => splitLabel(x) === split);
  if (!r?.perProblem?.length) throw new Error(`evals table: ${row.name} has no per-problem ${split} evaluation`);
  return r;
};

/**
 * The table: one column group per split (pass@1, greedy, Δ pass@1 against the first row, paired over the problems
 * both evaluated), one line per row, the first row the base. A row without a per-problem evaluation of a split is an
 * error naming both: a cell must not silently go empty.
 */
export function evalsTable(splits: readonly string[], rows: readonly EvalsRow[]): string[] {
  if (!rows.length || !splits.length) throw new Error('evals table: no rows or no splits');
  const [base] = rows;
  const header = splits.flatMap((s) => {
    const b = report(base, s);
    return [`${s} pass@1 (${b.problems} × ${b.samples})`, 'greedy', `Δ pass@1 vs \`${base.name}\`, paired`];
  });
  const lines = rows.map((row, i) =>
    [
      `\`${row.name}\``,
      ...splits.flatMap((s) => {
        const r = report(row, s);
        const d = i ? pairedDelta(r.perProblem!, report(base, s).perProblem!, 'coderPass1') : null;
        if (i && !d) throw new Error(`evals table: ${row.name} and ${base.name} share no ${s} problem`);
        return [showValue(r, 'coderPass1'), showValue(r, 'coderPass1Greedy'), d ? showDelta(d) : ''];
      }),
    ].join(' | '),
  );
  return [
    `| model | ${header.join(' | ')} |`,
    `| ${['---', ...header.map(() => '---')].join(' | ')} |`,
    ...lines.map((l) => `| ${l} |`),
  ];
}

export const EVALS_END = '<!-- evals-table:end -->';
/**
 * `<!-- evals-table:begin splits=heldout,renamed rows=NAME:FILE+FILE,NAME:FILE -->` … `<!-- evals-table:end -->`,
 * files relative to the records directory. Groups: 1 the splits, 2 the rows.
 */
export const EVALS_BLOCK =
  /<!-- evals-table:begin splits=([\w,/-]+) rows=([^\s]+) -->[\s\S]*?<!-- evals-table:end -->/g;
export const evalsBegin = (splits: string, rows: string) => `<!-- evals-table:begin splits=${splits} rows=${rows} -->`;

/** `NAME:FILE+FILE,...` as the marker spells it; an error for a malformed item. */
export function parseEvalsRows(spec: string): { name: string; files: string[] }[] {
  return spec.split(',').map((item) => {
    const m = /^([\w.-]+):([^:+]+(?:\+[^:+]+)*)$/.exec(item);
    if (!m) throw new Error(`evals table row "${item}": expected NAME:FILE or NAME:FILE+FILE`);
    return { name: m[1], files: m[2].split('+') };
  });
}
