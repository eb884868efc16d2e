// `npm run bench:eval-judging -- RUN_DIR [--candidates N] [--repeats N]`: the evaluation's all-pass judging of real
// Coder programs (a run's saved rollouts against their problems' hidden tests) with every test run, as before, and
// with the first timeout ending the job (JudgeRequest.stopAtTimeout, what `npm run eval` does now). Both ways each
// repeat, alternating; prints min/median wall and CPU seconds, programs per CPU-second and the same-run ratios, and
// fails when the two ways disagree on any program.
import { createNodeSandbox } from '../sandbox/node';
import { judgeHidden, passedAll } from '../rl/judging';
import { trainingProblems } from '../run/lab-setup';
import { RUN_FILES } from '../run/run-layout';
import { RunDir } from '../run/run-store';
import { NodeRunStore } from '../run/run-store-node';
import type { Problem } from '../tasks/types';
import { intArg, runMain, UsageError } from '../cli/args';
import { parseCli } from '../cli/cli-spec';
import { BENCH_EVAL_JUDGING_SPEC } from '../cli/help/bench-specs';
import { cpuSeconds, fmt, median, minOf } from './bench-util';

/** One saved program and the problem whose hidden tests judge it. */
interface Saved {
  p: Problem;
  code: string;
}

/** The run's saved candidates in step order (at most `limit`), and the run's per-test time limit. */
async function savedPrograms(dir: string, limit: number): Promise<{ programs: Saved[]; timeoutMs: number }> {
  const run = new RunDir(new NodeRunStore(dir));
  const config = await run.readConfig();
  if (!config) throw new Error(`${dir}: no ${RUN_FILES.config} (a run directory)`);
  const problems = new Map(trainingProblems(config).map((p) => [p.id, p]));
  const programs: Saved[] = [];
  for (const step of await run.readRollouts())
    for (const r of step) {
      const p = problems.get(r.problemId);
      if (!p) throw new Error(`${dir}: step ${r.step} names problem ${r.problemId}, not in the run's problems`);
      for (const c of r.candidates) if (programs.length < limit) programs.push({ p, code: c.code });
    }
  if (!programs.length) throw new Error(`${dir}: no ${RUN_FILES.rollouts} with candidates`);
  return { programs, timeoutMs: config.reward.timeout_ms };
}

async function main(): Promise<number> {
  const parsed = parseCli(BENCH_EVAL_JUDGING_SPEC, process.argv.slice(2));
  if (!parsed) return 0;
  const { args, positional } = parsed;
  if (positional.length !== 1) throw new UsageError('give one RUN_DIR (see --help)');
  const { programs, timeoutMs } = await savedPrograms(positional[0], intArg(args, 'candidates', 400));
  const repeats = intArg(args, 'repeats', 3);
  if (repeats < 1) throw new Error(`--repeats must be at least 1, got ${repeats}`);
  const sandbox = createNodeSandbox({ spares: 1 });
  const ways = [
    { name: 'every test run', stop: false, wall: [] as number[], cpu: [] as number[] },
    { name: 'stop at the first timeout', stop: true, wall: [] as number[], cpu: [] as number[] },
  ];
  let answers: boolean[] | undefined;
  try {
    await sandbox.warm();
    for (let rep = 0; rep < repeats; rep++)
      for (const w of rep % 2 ? [...ways].reverse() : ways) {
        const c = cpuSeconds();
        const t = performance.now();
        const got = await Promise.all(
          programs.map(async ({ p, code }) => passedAll(await judgeHidden(sandbox, p, code, timeoutMs, w.stop))),
        );
        w.wall.push((performance.now() - t) / 1000);
        w.cpu.push(cpuSeconds() - c);
        process.stderr.write(`repeat ${rep + 1}/${repeats}, ${w.name}: ${fmt(w.wall.at(-1) ?? NaN)} s\n`);
        answers ??= got;
        const diff = got.findIndex((a, i) => a !== answers?.[i]);
        if (diff >= 0) throw new Error(`program ${diff}: the two ways disagree on whether it passes`);
      }
  } finally {
    await sandbox.close();
  }
  const passing = answers?.filter(Boolean).length ?? 0;
  console.log(
    `${programs.length} programs from ${positional[0]} (${passing} pass every hidden test), ${repeats} repeats`,
  );
  console.log('| judging | wall s min | wall s median | CPU s median | programs per CPU-second |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const w of ways)
    console.log(
      `| ${w.name} | ${fmt(minOf(w.wall))} | ${fmt(median(w.wall))} | ${fmt(median(w.cpu))} | ` +
        `${fmt(programs.length / median(w.cpu), 1)} |`,
    );
  const [a, b] = ways;
  console.log(
    `ratio (every test / stop at timeout): wall min ${fmt(minOf(a.wall) / minOf(b.wall))}×, ` +
      `wall median ${fmt(median(a.wall) / median(b.wall))}×, CPU median ${fmt(median(a.cpu) / median(b.cpu))}×`,
  );
  return 0;
}

runMain(main, { stack: false });
