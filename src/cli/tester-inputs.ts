// `npm run tester-inputs -- [--window 10] RUN_DIR ...`: what the Tester's valid tests call over a run's training
// steps (from rollouts/step-*.json): the share restating a docstring example and the distinct calls per rollout.
import { basename, dirname, resolve } from 'node:path';
import { intArg, parseArgsAndPositional, runMain } from './args';
import { RUN_FILES } from '../run/run-layout';
import { RunDir } from '../run/run-store';
import { NodeRunStore } from '../run/run-store-node';
import { testerInputs } from '../analysis/tester-inputs';

const USAGE = 'usage: npm run tester-inputs -- [--window 10] RUN_DIR ...   (run directories with rollouts/step-*.json)';

const pct = (a: number, b: number) => (b ? ((100 * a) / b).toFixed(1) : '–');

async function main(): Promise<number> {
  const { args, positional: dirs } = parseArgsAndPositional(
    process.argv.slice(2).filter((a) => a !== '--'),
    { window: 'string' },
  );
  const stepsPerRow = intArg(args, 'window', 10);
  if (!dirs.length || stepsPerRow < 1) {
    console.error(USAGE);
    return 2;
  }
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
