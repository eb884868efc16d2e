// `npm run compare -- DIR|RUN|FILE ...`: one table of every evaluated run (all modes on the same held-out problems,
// the same metrics, 95% CIs, the paired pass@1 change against the start) and the test-evolution table, from the
// records (scripts/compare-modes.sh writes them; docs/results.md quotes the output).
import { runMain } from './args';
import { compareBlock, loadCompareRecords } from '../rl/compare-records-node';

const USAGE =
  'usage: npm run compare -- DIR|RUN_DIR|start-eval.json|evolved.jsonl ...   (e.g. docs/results-data/compare)';

async function main(): Promise<number> {
  const paths = process.argv.slice(2).filter((a) => a !== '--');
  if (!paths.length || paths.some((p) => p.startsWith('--'))) {
    console.error(USAGE);
    return 2;
  }
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
