// The browser against the CLI on one config: runs the same preset, mode, problems per step and seed for a few steps in
// the CLI (Node + Dawn), Chromium (Dawn/Tint, SwiftShader) and Firefox (wgpu/naga, lavapipe), and prints CPU-seconds
// of each whole process tree and wall seconds per step side by side, split by process and by thread. CPU-seconds, not
// wall, are the comparable figure on a shared machine. Two diagnostic rows pair the stacks like for like: the CLI with
// Dawn's robustness (bounds checks) on, as every web page has it, and Chromium with it off, as the CLI runs (a switch
// no user's browser has). Runs are interleaved (--runs rounds of every variant). Needs `npm run build` first.
//   npm run bench:browser-cost -- [--preset micro] [--mode code-a1] [--problems 4] [--seed 1] [--steps 4] [--runs 2]
//     [--only cli,cli-robust,chromium,chromium-norobust,firefox]
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { encodeConfigHash } from '../app/config/url-codec';
import { hyperParam, type RunConfigUi } from '../app/config/run-config';
import type { Mode } from '../rl/metrics';
import type { PresetName } from '../rl/config';
import { treeCpu, type TreeCpu } from './proc-tree';
import { parseCli } from '../cli/cli-spec';
import { intArg, runMain, UsageError } from '../cli/args';
import { BENCH_BROWSER_COST_SPEC } from '../cli/help/bench-specs';
import { FIREFOX_PATH, lavapipeIcd } from '../../e2e/driver/firefox-page';
import { printCostTables, type RunResult } from './browser-cost-report';

/** What each variant is; the like-for-like baseline is the CLI with the same bounds-check setting. */
export const VARIANTS = {
  cli: 'CLI (Node + Dawn, robustness off as shipped)',
  'cli-robust': 'CLI, robustness on (CODE_A1_ROBUST=1)',
  chromium: 'Chromium (Dawn/Tint, SwiftShader)',
  'chromium-norobust': 'Chromium, --enable-dawn-features=disable_robustness (diagnostic)',
  firefox: 'Firefox ESR (wgpu/naga)',
} as const;
export type Variant = keyof typeof VARIANTS;
const isVariant = (w: string): w is Variant => w in VARIANTS;

// Parsed inside runMain so a bad flag is one line and exit code 2, as in every command.
let PRESET: PresetName = 'micro';
let MODE: Mode = 'code-a1';
let PROBLEMS = 4;
let SEED = 1;
let STEPS = 4;
let RUNS = 2;
let DIST = 'dist';
let ONLY: Variant[] = Object.keys(VARIANTS) as Variant[];
/** Reads the flags; false after --help. */
function readFlags(): boolean {
  const parsed = parseCli(BENCH_BROWSER_COST_SPEC, process.argv.slice(2));
  if (!parsed) return false;
  const { args } = parsed;
  PRESET = ((args.preset as string | undefined) ?? PRESET) as PresetName;
  MODE = ((args.mode as string | undefined) ?? MODE) as Mode;
  PROBLEMS = intArg(args, 'problems', PROBLEMS, { min: 1 });
  SEED = intArg(args, 'seed', SEED);
  STEPS = intArg(args, 'steps', STEPS, { min: 2 });
  RUNS = intArg(args, 'runs', RUNS, { min: 1 });
  DIST = (args.dist as string | undefined) ?? DIST;
  if (typeof args.only === 'string') {
    const only = args.only.split(',');
    const bad = only.filter((w) => !isVariant(w));
    if (bad.length)
      throw new UsageError(`--only ${bad.join(',')}: expected some of ${Object.keys(VARIANTS).join(', ')}`);
    ONLY = only.filter(isVariant);
  }
  return true;
}
const PORT = 4700 + (process.pid % 200);

/** CPU split and wall clock at the moment each step had landed; index 0 = start. */
type Marks = (TreeCpu & { wall: number })[];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Started in its own process group: `npx` starts the real process (tsx's node, vite) as a grandchild, which
 * child.kill() would leave running (a CLI training on under the next run's measurement, a server on its port).
 */
function spawnGroup(cmd: string, args: string[], env?: NodeJS.ProcessEnv): ChildProcess {
  return spawn(cmd, args, { stdio: 'ignore', env, detached: true });
}

/** Ends a spawnGroup's whole group and waits (up to 10 s) for its leader to exit. */
async function endGroup(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) =>
    child.exitCode !== null || child.signalCode !== null ? r(0) : child.once('exit', r),
  );
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // Already gone.
  }
  await Promise.race([exited, sleep(10_000)]);
}

async function track(root: number, steps: () => Promise<number>, done: () => boolean): Promise<Marks> {
  const mark = () => ({ ...treeCpu(root), wall: performance.now() / 1000 });
  const marks: Marks = [mark()];
  let seen = 0;
  while (seen < STEPS) {
    if (done()) throw new Error(`process ${root} ended after ${seen} steps`);
    await sleep(200);
    const n = await steps();
    // A step count that jumped by several (slow polling) is credited evenly.
    if (n > seen) {
      const now = mark();
      for (; seen < n && seen < STEPS; seen++) marks.push(now);
    }
  }
  return marks;
}

async function runCli(robust: boolean): Promise<Marks> {
  const out = mkdtempSync(join(tmpdir(), 'code-a1-cost-'));
  const args = ['tsx', '--import', './scripts/raw-loader.mjs', 'src/cli/train.ts', '--preset', PRESET, '--mode', MODE];
  // One step more than timed, so the process (and every thread) is still alive at the last mark; it is killed then.
  args.push('--seed', String(SEED), '--steps', String(STEPS + 1), '--out', out);
  args.push('--set', `rollout.problems_per_step=${PROBLEMS}`);
  const env = { ...process.env, CODE_A1_ROBUST: robust ? '1' : '0' };
  const child = spawnGroup('npx', args, env);
  let ended = false;
  child.on('exit', () => (ended = true));
  const file = join(out, 'metrics.jsonl');
  const lines = async () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0);
  try {
    return await track(child.pid!, lines, () => ended && !existsSync(file));
  } finally {
    await endGroup(child);
    rmSync(out, { recursive: true, force: true, maxRetries: 5 });
  }
}

async function launch(which: Variant): Promise<Browser> {
  if (which === 'chromium' || which === 'chromium-norobust') {
    const args = ['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--no-sandbox', '--no-first-run'];
    if (which === 'chromium-norobust') args.push('--enable-dawn-features=disable_robustness');
    return puppeteer.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args });
  }
  const env: Record<string, string> = { XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? '/tmp' };
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] ??= v;
  // FIREFOX_VK_ICD (e.g. Chromium's SwiftShader ICD) separates the Vulkan driver's cost from the browser's.
  const icd = process.env.FIREFOX_VK_ICD ?? lavapipeIcd();
  if (icd) env.VK_ICD_FILENAMES = icd;
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    env,
    extraPrefsFirefox: { 'dom.webgpu.enabled': true, 'gfx.webgpu.ignore-blocklist': true },
  });
}

async function runBrowser(which: Variant): Promise<Marks> {
  const browser = await launch(which);
  try {
    const page = await browser.newPage();
    const key = hyperParam('problemsPerStep')?.key ?? 'problemsPerStep';
    const config: RunConfigUi = { preset: PRESET, mode: MODE, seed: SEED, overrides: { [key]: PROBLEMS } };
    await page.goto(`http://127.0.0.1:${PORT}/${encodeConfigHash(config)}`);
    await page.waitForSelector('html[data-restored="true"]', { timeout: 120_000 });
    await page.waitForSelector('[data-testid="start"]', { visible: true, timeout: 120_000 });
    const step = () => page.evaluate(() => window.__lab!.store.getState().step);
    const root = browser.process()!.pid!;
    const marksP = track(root, step, () => false);
    await page.click('[data-testid="start"]');
    const marks = await marksP;
    await page.click('[data-testid="pause"]').catch(() => undefined);
    return marks;
  } finally {
    await browser.close();
  }
}

/** Per-step differences of a split between two marks. */
function perStep(a: Record<string, number>, b: Record<string, number>, steps: number): Record<string, number> {
  return Object.fromEntries(Object.keys(b).map((k) => [k, (b[k] - (a[k] ?? 0)) / steps]));
}

function result(name: Variant, m: Marks): RunResult {
  const sum = (r: Record<string, number>) => Object.values(r).reduce((x, y) => x + y, 0);
  const d = m.slice(1).map((x, i) => ({ cpu: sum(x.kinds) - sum(m[i].kinds), wall: x.wall - m[i].wall }));
  // Where steps 2..N went, per process kind and per thread (CPU-s per step).
  const [a, b] = [m[1], m[m.length - 1]];
  return {
    name,
    first: d[0],
    cpu: d.slice(1).map((x) => x.cpu),
    wall: d.slice(1).map((x) => x.wall),
    kinds: perStep(a.kinds, b.kinds, m.length - 2),
    threads: perStep(a.threads, b.threads, m.length - 2),
  };
}

async function main(): Promise<void> {
  if (!readFlags()) return;
  let server: ChildProcess | undefined;
  if (ONLY.some((w) => !w.startsWith('cli'))) {
    if (!existsSync(join(DIST, 'index.html'))) throw new Error(`${DIST}/ holds no build: run \`npm run build\` first`);
    const port = ['--port', String(PORT), '--strictPort', '--host', '127.0.0.1'];
    server = spawnGroup('npx', ['vite', 'preview', '--outDir', DIST, ...port]);
    await sleep(3000);
  }
  const runs: RunResult[] = [];
  try {
    // Rounds of every variant, so a change in the machine's load touches all of them alike.
    for (let round = 1; round <= RUNS; round++) {
      for (const which of ONLY) {
        console.log(`run ${round}/${RUNS} ${which}: ${PRESET} ${MODE}, ${PROBLEMS} problems/step, seed ${SEED} …`);
        const m = which.startsWith('cli') ? await runCli(which === 'cli-robust') : await runBrowser(which);
        const r = result(which, m);
        runs.push(r);
        const med = [...r.cpu].sort((x, y) => x - y)[Math.floor(r.cpu.length / 2)];
        console.log(
          `  step 1 ${r.first.cpu.toFixed(1)} CPU-s; steps 2-${STEPS}: ${r.cpu.map((x) => x.toFixed(2)).join(' ')} (≈${med.toFixed(2)})`,
        );
      }
    }
  } finally {
    if (server) await endGroup(server);
  }
  console.log(`\n${PRESET} ${MODE}, ${PROBLEMS} problems/step, seed ${SEED}, ${RUNS} run(s) of each: steps 2-${STEPS}`);
  printCostTables(ONLY, VARIANTS, runs);
}

runMain(main);
