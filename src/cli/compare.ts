// `npm run compare -- DIR|RUN|FILE ...`: one table of every evaluated run (all modes on the same held-out problems,
// the same metrics, 95% CIs, the paired pass@1 change against the start) and the test-evolution table, from the
// records (scripts/compare-modes.sh writes them; docs/results.md quotes the output); `--evals` compares stand-alone
// evaluations of checkpoints (npm run eval --out files) against the first, per split.
import { parseArgs, parseArgsAndPositional, runMain, UsageError } from './args';
import { existsSync } from 'node:fs';
import { compareBlock, disjointRuns, loadCompareRecords } from '../analysis/compare-records-node';
import { DISJOINT_MARKERS } from '../analysis/results-table';
import { disjointTable, evalsBlock } from '../analysis/results-page-node';

const USAGE =
  'usage: npm run compare -- DIR|RUN_DIR|start-eval.json|evolved.jsonl ...   (e.g. docs/results-data/compare)\n' +
  '       npm run compare -- --disjoint DIR   (the warm-starts on held-out and training halves, docs/results-data/disjoint)\n' +
  '       npm run compare -- --evals SPLITS NAME:FILE+FILE,... [--data docs/results-data]   (stand-alone evaluations\n' +
  '         against the first row, paired: e.g. --evals heldout-task,heldout with npm run eval --out files under --data)';

/** The disjoint-data table of docs/results.md: one row per warm-start and split the evaluations in DIR record. */
function disjoint(args: string[]): number {
  const [dir] = args;
  if (args.length !== 1 || !dir || !existsSync(dir))
    throw new UsageError(
      dir && args.length === 1 ? `${dir}: no such directory` : 'usage: npm run compare -- --disjoint DIR',
    );
  if (!disjointRuns(dir).length) {
    console.error(`${dir}: no <model>-train-parts.json or <model>-start-eval.json evaluations (npm run eval --out)`);
    return 2;
  }
  console.log([DISJOINT_MARKERS[0], ...disjointTable(dir), DISJOINT_MARKERS[1]].join('\n'));
  return 0;
}

/** The evals table of docs/results.md: checkpoints' stand-alone evaluations against the first one, per split. */
function evals(args: string[]): number {
  const { args: opts, positional } = parseArgsAndPositional(args, { data: 'string' });
  const data = (opts.data as string | undefined) ?? 'docs/results-data';
  const [splits, rows] = positional;
  if (positional.length !== 2 || !splits || !rows)
    throw new UsageError('usage: npm run compare -- --evals SPLITS NAME:FILE+FILE,... [--data docs/results-data]');
  if (!existsSync(data)) {
    console.error(`${data}: no such directory (pass the records directory with --data)`);
    return 2;
  }
  console.log(evalsBlock(data, splits, rows));
  return 0;
}

async function main(): Promise<number> {
  const paths = process.argv.slice(2).filter((a) => a !== '--');
  if (paths[0] === '--disjoint') return disjoint(paths.slice(1));
  if (paths[0] === '--evals') return evals(paths.slice(1));
  // A flag here is a misspelling (of --disjoint, --evals or --help).
  const flag = paths.find((p) => p.startsWith('--'));
  if (flag) parseArgs([flag], { disjoint: 'boolean', evals: 'boolean' });
  if (!paths.length) throw new UsageError(USAGE.split('\n')[0]);
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

runMain(main, { stack: false, usage: USAGE });
