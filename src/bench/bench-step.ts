// `npm run bench:step -- --preset tiny [--ab REF] [--repeats N]`: the cost of whole Code-A1 steps (rollout, sandbox,
// update) with a phase breakdown, per CPU-second. Each repeat is a fresh process (bench-step-run.ts) that runs step 0
// (shader compiles included) and then timed steps. `--ab REF` runs the same steps on another git revision, checked
// out into a temporary worktree, interleaved with this checkout's runs, and prints the CPU-second ratio per phase
// and whether both sampled the same tokens and produced the same metrics.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { intArg, runMain, UsageError } from '../cli/args';
import { parseCli } from '../cli/cli-spec';
import { BENCH_STEP_SPEC } from '../cli/help/bench-specs';
import { fmt, median, minOf, table } from './bench-util';

interface Cost {
  wallS: number;
  cpuS: number;
  mainCpuS: number;
  /** Main-thread milliseconds inside synchronous pipeline / shader-module creation. */
  compileMs: number;
  /** Main-thread CPU milliseconds in those calls (absent from bench-step-run.ts revisions older than the field). */
  compileCpuMs?: number;
  /** Pipelines compiled synchronously at first use. */
  compiles: number;
  /** Pipelines compiled with createComputePipelineAsync (a warm-up; absent from revisions older than the field). */
  asyncCompiles?: number;
  asyncIssueMs?: number;
  dispatches: number;
  submits: number;
  rowSteps: number;
}

interface StepLine {
  step: number;
  total: Cost;
  phases: Record<string, Cost>;
  keptTokens: number;
  rows: number;
  tokenHash: string;
  metrics: Record<string, unknown>;
}

const log = (s: string) => process.stderr.write(`[bench:step] ${s}\n`);

function runOnce(cwd: string, args: string[]): Promise<StepLine[]> {
  const tsx = resolve('node_modules/.bin/tsx');
  return new Promise((ok, fail) => {
    const child = spawn(tsx, ['--import', './scripts/raw-loader.mjs', 'src/bench/bench-step-run.ts', ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => {
      if (code !== 0) return fail(new Error(`bench-step-run in ${cwd} exited ${code}:\n${err.slice(-4000)}`));
      const lines = out.split('\n').filter((l) => l.startsWith('{"kind":"step"'));
      ok(lines.map((l) => JSON.parse(l) as StepLine));
    });
  });
}

function worktreeFor(ref: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-step-'));
  rmSync(dir, { recursive: true });
  execFileSync('git', ['worktree', 'add', '--detach', dir, ref], { stdio: 'ignore' });
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  // The same measuring script on both sides; it uses only the trainer/lab APIs.
  copyFileSync(resolve('src/bench/bench-step-run.ts'), join(dir, 'src/bench/bench-step-run.ts'));
  return {
    dir,
    cleanup: () => {
      try {
        execFileSync('git', ['worktree', 'remove', '--force', dir], { stdio: 'ignore' });
      } catch {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

const f = fmt;

/** Per-phase min/median CPU seconds over processes, for the timed steps (step >= 1). */
function summarise(label: string, runs: StepLine[][]): Map<string, number[]> {
  const byPhase = new Map<string, number[]>();
  const push = (k: string, v: number) => byPhase.set(k, [...(byPhase.get(k) ?? []), v]);
  const timed = runs.flatMap((r) => r.filter((s) => s.step >= 1));
  for (const s of timed) {
    push('step', s.total.cpuS);
    for (const [p, c] of Object.entries(s.phases)) push(p, c.cpuS);
  }
  const rows: string[][] = [];
  for (const [p, v] of byPhase) {
    const walls = timed.map((s) => (p === 'step' ? s.total : s.phases[p])?.wallS ?? NaN);
    rows.push([p, f(minOf(v)), f(median(v)), f(minOf(walls)), f(median(walls))]);
  }
  table(
    `${label}: timed steps (${timed.length} = processes × steps after step 0), seconds`,
    ['phase', 'CPU-s min', 'CPU-s median', 'wall min', 'wall median'],
    rows,
  );
  const detail = timed.map((s, i) => {
    const gen = ['coder-rollout', 'tester-rollout'].map((p) => s.phases[p]).filter(Boolean);
    const rowSteps = gen.reduce((a, c) => a + c.rowSteps, 0);
    return [
      String(i),
      f(s.total.cpuS),
      f(s.total.mainCpuS),
      String(s.total.dispatches),
      String(s.total.submits),
      `${rowSteps} / ${s.keptTokens} (${f(rowSteps / Math.max(1, s.keptTokens))}×)`,
      `${f((100 * (rowSteps - s.keptTokens)) / Math.max(1, rowSteps), 1)}%`,
      s.tokenHash,
    ];
  });
  table(
    `${label}: per timed step`,
    ['#', 'CPU-s', 'main-thread CPU-s', 'dispatches', 'submits', 'row-steps / kept tokens', 'wasted', 'token hash'],
    detail,
  );
  const first = runs.map((r) => r.find((s) => s.step === 0)).filter((s): s is StepLine => !!s);
  table(
    `${label}: step 0 of each process (cold: shader compiles)`,
    [
      '#',
      'CPU-s',
      'wall s',
      'main-thread CPU-s',
      'pipelines sync / async',
      'main-thread compile CPU-s',
      'main-thread compile wall s',
      'async issue ms',
    ],
    first.map((s, i) => [
      String(i),
      f(s.total.cpuS),
      f(s.total.wallS),
      f(s.total.mainCpuS),
      `${s.total.compiles} / ${s.total.asyncCompiles ?? 0}`,
      f((s.total.compileCpuMs ?? NaN) / 1000),
      f(s.total.compileMs / 1000),
      f(s.total.asyncIssueMs ?? 0, 1),
    ]),
  );
  console.log(
    '  main-thread compile = time inside createComputePipeline + createShaderModule (WGSL parsing) on the main thread' +
      " (CPU: the thread's own CPU time, from schedstat; wall: overstated by other load);" +
      ' async compiles run on Dawn worker threads (Chromium: the GPU process). Main-thread CPU-s also counts the' +
      " Node binding's busy polling while GPU promises are pending.",
  );
  return byPhase;
}

async function main(): Promise<void> {
  const parsed = parseCli(BENCH_STEP_SPEC, process.argv.slice(2));
  if (!parsed) return;
  const { args } = parsed;
  const preset = typeof args.preset === 'string' ? args.preset : 'tiny';
  if (!['tiny', 'micro'].includes(preset)) throw new UsageError('--preset must be tiny or micro (see --help)');
  const steps = intArg(args, 'steps', 2);
  if (steps < 2) throw new Error('--steps must be >= 2 (step 0 is the warm-up)');
  const repeats = intArg(args, 'repeats', 2);
  const childArgs = [
    '--preset',
    preset,
    '--problems',
    String(intArg(args, 'problems', 4)),
    '--seed',
    String(intArg(args, 'seed', 1)),
    '--steps',
    String(steps),
    ...(args['no-warmup'] ? ['--no-warmup'] : []),
  ];
  const ref = typeof args.ab === 'string' ? args.ab : undefined;
  const wt = ref ? worktreeFor(ref) : undefined;
  const here: StepLine[][] = [];
  const there: StepLine[][] = [];
  try {
    for (let r = 0; r < repeats; r++) {
      log(`repeat ${r + 1}/${repeats}: this checkout`);
      here.push(await runOnce(process.cwd(), childArgs));
      if (wt) {
        log(`repeat ${r + 1}/${repeats}: ${ref}`);
        there.push(await runOnce(wt.dir, childArgs));
      }
    }
  } finally {
    wt?.cleanup();
  }
  console.log(
    `bench:step preset ${preset}, ${childArgs.join(' ')}, ${repeats} process(es) per revision; CPU-s = process CPU seconds (all threads)`,
  );
  const a = summarise('this checkout', here);
  if (!wt || !ref) return;
  const b = summarise(ref, there);
  const rows: string[][] = [];
  for (const [p, v] of a) {
    const w = b.get(p);
    if (!w) continue;
    rows.push([p, f(median(v)), f(median(w)), f(median(v) / median(w)), f(minOf(v) / minOf(w))]);
  }
  const s0 = (runs: StepLine[][], k: (c: Cost) => number, agg: (v: number[]) => number) =>
    agg(runs.map((r) => k(r.find((s) => s.step === 0)?.total ?? ({} as Cost))));
  for (const [name, k] of [
    ['step 0 main-thread compile CPU-s', (c: Cost) => (c.compileCpuMs ?? NaN) / 1000],
    ['step 0 main-thread compile wall s', (c: Cost) => c.compileMs / 1000],
    ['step 0 CPU-s', (c: Cost) => c.cpuS],
    ['step 0 main-thread CPU-s', (c: Cost) => c.mainCpuS],
  ] as const) {
    rows.push([
      name,
      f(s0(here, k, median)),
      f(s0(there, k, median)),
      f(s0(here, k, median) / s0(there, k, median)),
      f(s0(here, k, minOf) / s0(there, k, minOf)),
    ]);
  }
  table(
    `A/B: this checkout vs ${ref} (CPU seconds, timed steps)`,
    ['phase', 'this', ref, 'ratio (median)', 'ratio (min)'],
    rows,
  );
  const same = (x: StepLine[][], y: StepLine[][], k: (s: StepLine) => string) =>
    x.flat().every((s, i) => k(s) === k(y.flat()[i]));
  console.log(`sampled tokens identical: ${same(here, there, (s) => s.tokenHash)}`);
  console.log(`step metrics identical: ${same(here, there, (s) => JSON.stringify(s.metrics))}`);
  if (!same(here, there, (s) => JSON.stringify(s.metrics))) {
    const x = here[0].find((s) => s.step === 1);
    const y = there[0].find((s) => s.step === 1);
    for (const k of Object.keys(x?.metrics ?? {})) {
      if (JSON.stringify(x?.metrics[k]) !== JSON.stringify(y?.metrics[k]))
        console.log(`  step 1 ${k}: ${String(x?.metrics[k])} vs ${String(y?.metrics[k])}`);
    }
  }
}

runMain(main);
