// `npm run reward-audit -- [--shared] [--public] RUN_DIR ...`: how well each run's Coder reward tracked correctness
// over its steps (the rollouts it saved: reward against hidden-test pass rate), one table row per run; --shared adds a
// row per run with every candidate regraded on its group's shared test set (the union of the valid tests written for
// it), --public one with every candidate regraded on the problem's docstring example alone.
import { basename, dirname, resolve } from 'node:path';
import { runMain, UsageError } from './args';
import { parseCli } from './cli-spec';
import { REWARD_AUDIT_SPEC } from './help/analysis-specs';
import { AUDIT_HEADER, auditRow, rewardAudit } from '../analysis/reward-audit';
import { regradePublic, regradeShared } from '../analysis/reward-audit-shared';
import { trainingProblems } from '../run/lab-setup';
import type { RolloutRecord } from '../rl/records';
import { RUN_FILES } from '../run/run-layout';
import { RunDir } from '../run/run-store';
import { NodeRunStore } from '../run/run-store-node';
import { createNodeSandbox } from '../sandbox/node';
import type { Problem } from '../tasks/types';
import type { Sandbox } from '../sandbox/types';

async function main(): Promise<number> {
  const parsed = parseCli(REWARD_AUDIT_SPEC, process.argv.slice(2));
  if (!parsed) return 0;
  const shared = parsed.args.shared === true;
  const pub = parsed.args.public === true;
  const dirs = parsed.positional;
  if (!dirs.length) throw new UsageError('give one or more run directories (see --help)');
  const runs: { name: string; run: RunDir; steps: RolloutRecord[][] }[] = [];
  for (const dir of dirs) {
    const run = new RunDir(new NodeRunStore(dir));
    const steps = await run.readRollouts();
    if (!steps.length) {
      console.error(`${dir}: no ${RUN_FILES.rollouts} (a run directory saves them every step)`);
      return 2;
    }
    // Named by parent and run (runs/disjoint-c/ref-code-a1-s1): reruns of one mode and seed in other places differ.
    runs.push({ name: `${basename(dirname(resolve(dir)))}/${basename(resolve(dir))}`, run, steps });
  }
  const rows: string[] = [];
  const sandbox = shared || pub ? createNodeSandbox() : undefined;
  try {
    for (const { name, run, steps } of runs) {
      rows.push(auditRow(`${name} (${steps.length} steps)`, rewardAudit(steps)));
      if (sandbox && shared)
        rows.push(
          auditRow(`${name} (shared tests)`, rewardAudit(await regradeRun(sandbox, name, run, steps, 'shared'))),
        );
      if (sandbox && pub)
        rows.push(
          auditRow(`${name} (public tests)`, rewardAudit(await regradeRun(sandbox, name, run, steps, 'public'))),
        );
    }
  } finally {
    await sandbox?.close();
  }
  console.log([...AUDIT_HEADER, ...rows].join('\n'));
  return 0;
}

/** Every step's records regraded on shared test sets or public tests, with the run's own problems. */
async function regradeRun(
  sandbox: Sandbox,
  name: string,
  run: RunDir,
  steps: RolloutRecord[][],
  on: 'shared' | 'public',
): Promise<RolloutRecord[][]> {
  const config = await run.readConfig();
  if (!config) throw new Error(`${name}: no ${RUN_FILES.config}; --${on} needs the run's problems`);
  const problems = new Map(trainingProblems(config).map((p) => [p.id, p]));
  const problemOf = (r: RolloutRecord): Problem => {
    const p = problems.get(r.problemId);
    if (!p) throw new Error(`${name}: step ${r.step} names problem ${r.problemId}, not in the run's problems`);
    return p;
  };
  const regrade = on === 'shared' ? regradeShared : regradePublic;
  const out: RolloutRecord[][] = [];
  for (const [i, records] of steps.entries()) {
    out.push(await Promise.all(records.map((r) => regrade(sandbox, r, problemOf(r), config.reward.timeout_ms))));
    process.stderr.write(`\r${name}: regraded on ${on} tests ${i + 1}/${steps.length} steps`);
  }
  process.stderr.write('\n');
  return out;
}

runMain(main, { stack: false });
