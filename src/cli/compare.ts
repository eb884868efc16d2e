// `npm run compare -- DIR|RUN|FILE ...`: one table of every evaluated run (all modes on the same held-out problems,
// the same metrics, 95% CIs, the paired pass@1 change against the start) and the test-evolution table, from the
// records (scripts/compare-modes.sh writes them; docs/results.md quotes the output); `--evals` compares stand-alone
// evaluations of checkpoints (npm run eval --out files) against the first, per split.
import { runMain, UsageError } from './args';
import { parseCli } from './cli-spec';
import { COMPARE_SPEC } from './help/analysis-specs';
import { existsSync } from 'node:fs';
import { compareBlock, disjointRuns, loadCompareRecords } from '../analysis/compare-records-node';
import { DISJOINT_MARKERS } from '../analysis/results-table';
import { disjointTable, evalsBlock } from '../analysis/results-page-node';

/** The disjoint-data table of docs/results.md: one row per warm-start and split the evaluations in DIR record. */
function disjoint(dir: string): number {
  if (!existsSync(dir)) {
    console.error(`${dir}: no such directory`);
    return 2;
  }
  if (!disjointRuns(dir).length) {
    console.error(`${dir}: no <model>-train-parts.json or <model>-start-eval.json evaluations (npm run eval --out)`);
    return 2;
  }
  console.log([DISJOINT_MARKERS[0], ...disjointTable(dir), DISJOINT_MARKERS[1]].join('\n'));
  return 0;
}

/** The evals table of docs/results.md: checkpoints' stand-alone evaluations against the first one, per split. */
function evals(splits: string, rows: string[], data: string): number {
  if (rows.length !== 1) {
    console.error(`--evals ${splits} takes one list of rows NAME:FILE+FILE,... (see --help)`);
    return 2;
  }
  if (!existsSync(data)) {
    console.error(`${data}: no such directory (pass the records directory with --data)`);
    return 2;
  }
  console.log(evalsBlock(data, splits, rows[0]));
  return 0;
}

async function main(): Promise<number> {
  const parsed = parseCli(COMPARE_SPEC, process.argv.slice(2));
  if (!parsed) return 0;
  const { args, positional: paths } = parsed;
  if (typeof args.disjoint === 'string') return disjoint(args.disjoint);
  if (typeof args.evals === 'string')
    return evals(args.evals, paths, (args.data as string | undefined) ?? 'docs/results-data');
  if (!paths.length)
    throw new UsageError('nothing to compare: give record directories, run directories or files (see --help)');
  const records = loadCompareRecords(paths);
  if (!records.runs.length && !records.start && !records.evolved.length) {
    console.error(`nothing to compare in ${paths.join(', ')}: no eval.json, start-eval.json or evolved .jsonl`);
    return 2;
  }
  console.log(compareBlock(records).join('\n'));
  const p = records.start?.row ?? records.runs[0]?.row;
  if (p)
    console.log(
      `\nheld-out ${p.split}: ${p.problems} problems × ${p.samples ?? '?'} samples; 95% percentile-bootstrap CIs over problems; ` +
        "Δ is paired on the same problems (same eval seed), so it is tighter than the two rows' own intervals.",
    );
  return 0;
}

runMain(main, { stack: false });
