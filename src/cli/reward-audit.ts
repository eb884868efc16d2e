// `npm run reward-audit -- RUN_DIR ...`: how well each run's Coder reward tracked correctness over its steps (the
// rollouts it saved: reward against hidden-test pass rate), one table row per run.
import { basename, dirname, resolve } from 'node:path';
import { runMain } from './args';
import { AUDIT_HEADER, auditRow, rewardAudit } from '../rl/reward-audit';
import { RUN_FILES } from '../rl/run-layout';
import { RunDir } from '../rl/run-store';
import { NodeRunStore } from '../rl/run-store-node';

const USAGE = 'usage: npm run reward-audit -- RUN_DIR ...   (run directories with rollouts/step-*.json)';

async function main(): Promise<number> {
  const dirs = process.argv.slice(2).filter((a) => a !== '--');
  if (!dirs.length || dirs.some((d) => d.startsWith('--'))) {
    console.error(USAGE);
    return 2;
  }
  const rows: string[] = [];
  for (const dir of dirs) {
    const steps = await new RunDir(new NodeRunStore(dir)).readRollouts();
    if (!steps.length) {
      console.error(`${dir}: no ${RUN_FILES.rollouts} (a run directory saves them every step)`);
      return 2;
    }
    // Named by parent and run (runs/disjoint-c/ref-code-a1-s1): reruns of one mode and seed in other places differ.
    const name = `${basename(dirname(resolve(dir)))}/${basename(resolve(dir))}`;
    rows.push(auditRow(`${name} (${steps.length} steps)`, rewardAudit(steps)));
  }
  console.log([...AUDIT_HEADER, ...rows].join('\n'));
  return 0;
}

runMain(main, { stack: false });
