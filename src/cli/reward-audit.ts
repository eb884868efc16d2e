// `npm run reward-audit -- RUN_DIR ...`: how well each run's Coder reward tracked correctness over its steps (the
// rollouts it saved: reward against hidden-test pass rate), one table row per run.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { runMain } from './args';
import { AUDIT_HEADER, auditRow, rewardAudit } from '../rl/reward-audit';
import { RUN_FILES } from '../rl/run-layout';
import type { RolloutRecord } from '../rl/records';

const USAGE = 'usage: npm run reward-audit -- RUN_DIR ...   (run directories with rollouts/step-*.json)';

async function main(): Promise<number> {
  const dirs = process.argv.slice(2).filter((a) => a !== '--');
  if (!dirs.length || dirs.some((d) => d.startsWith('--'))) {
    console.error(USAGE);
    return 2;
  }
  const rows: string[] = [];
  for (const dir of dirs) {
    const roll = join(dir, RUN_FILES.rollouts);
    const files = existsSync(roll) ? readdirSync(roll).filter((f) => /^step-\d+\.json$/.test(f)) : [];
    if (!files.length) {
      console.error(`${dir}: no ${RUN_FILES.rollouts}step-*.json (a run directory saves them every step)`);
      return 2;
    }
    const steps = files.sort().map((f) => JSON.parse(readFileSync(join(roll, f), 'utf8')) as RolloutRecord[]);
    // Named by parent and run (runs/disjoint-c/ref-code-a1-s1): reruns of one mode and seed in other places differ.
    const name = `${basename(dirname(resolve(dir)))}/${basename(resolve(dir))}`;
    rows.push(auditRow(`${name} (${files.length} steps)`, rewardAudit(steps)));
  }
  console.log([...AUDIT_HEADER, ...rows].join('\n'));
  return 0;
}

runMain(main, { stack: false });
