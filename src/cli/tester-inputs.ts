// `npm run tester-inputs -- [--window 10] RUN_DIR ...`: what the Tester's valid tests call over a run's training
// steps (from rollouts/step-*.json): the share restating a docstring example and the distinct calls per rollout.
import { basename, dirname, resolve } from 'node:path';
import { intArg, runMain, UsageError } from './args';
import { parseCli } from './cli-spec';
import { TESTER_INPUTS_SPEC } from './help/analysis-specs';
import { RUN_FILES } from '../run/run-layout';
import { RunDir } from '../run/run-store';
import { NodeRunStore } from '../run/run-store-node';
import { testerInputs } from '../analysis/tester-inputs';

const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : '–');

async function main(): Promise<number> {
  const parsed = parseCli(TESTER_INPUTS_SPEC, process.argv.slice(2));
  if (!parsed) return 0;
  const { args, positional: dirs } = parsed;
  const stepsPerRow = intArg(args, 'window', 10);
  if (stepsPerRow < 1) throw new Error(`--window must be at least 1, got ${stepsPerRow}`);
  if (!dirs.length) throw new UsageError('give one or more run directories (see --help)');
  const out = [
    '| run | steps | tests | valid (%) | valid tests restating a docstring example (%) | distinct valid calls per rollout |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const dir of dirs) {
    const steps = await new RunDir(new NodeRunStore(dir)).readRollouts();
    if (!steps.length) {
      console.error(`${dir}: no ${RUN_FILES.rollouts} (a run directory saves them every step)`);
      return 2;
    }
    const name = `${basename(dirname(resolve(dir)))}/${basename(resolve(dir))}`;
    for (const r of testerInputs(steps, stepsPerRow))
      out.push(
        `| ${name} | ${r.from}–${r.to} | ${r.tests} | ${pct(r.valid, r.tests)} | ${pct(r.restated, r.valid)} | ${r.distinctPerRollout.toFixed(2)} |`,
      );
  }
  console.log(out.join('\n'));
  return 0;
}

runMain(main);
