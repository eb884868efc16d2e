// The browser against the CLI on one config: runs the same preset, mode, problems per step and seed for a few steps in
// the CLI (Node + Dawn), Chromium (Dawn/Tint, SwiftShader) and Firefox (wgpu/naga, lavapipe), and prints CPU-seconds
// of each whole process tree and wall seconds per step side by side. CPU-seconds, not wall, are the comparable figure
// on a shared machine. Needs `npm run build` first (serves dist/ with vite preview).
//   npm run bench:browser-cost -- [--preset micro] [--mode code-a1] [--problems 4] [--seed 1] [--steps 4] [--only cli,chromium,firefox]
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { encodeConfigHash } from '../app/config/url-codec';
import { hyperParam, type RunConfigUi } from '../app/config/run-config';
import type { Mode } from '../rl/metrics';
import type { PresetName } from '../rl/config';
import { treeCpuByKind } from './proc-tree';
import { parseCli } from '../cli/cli-spec';
import { intArg, runMain, UsageError } from '../cli/args';
import { BENCH_BROWSER_COST_SPEC } from '../cli/help/bench-specs';
import { FIREFOX_PATH, lavapipeIcd } from '../../e2e/driver/firefox-page';

// Parsed inside runMain so a bad flag is one line and exit code 2, as in every command.
let PRESET: PresetName = 'micro';
let MODE: Mode = 'code-a1';
let PROBLEMS = 4;
let SEED = 1;
let STEPS = 4;
let ONLY = ['cli', 'chromium', 'firefox'];
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
  if (typeof args.only === 'string') ONLY = args.only.split(',');
  const bad = ONLY.filter((w) => !['cli', 'chromium', 'firefox'].includes(w));
  if (bad.length) throw new UsageError(`--only ${bad.join(',')}: expected cli, chromium or firefox`);
  return true;
}
const PORT = 4700 + (process.pid % 200);

/** (cpu, wall) at the moment each step had landed; index 0 = start. */
type Marks = { cpu: number; wall: number; kinds: Record<string, number> }[];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function track(root: number, steps: () => Promise<number>, done: () => boolean): Promise<Marks> {
  const mark = () => {
    const kinds = treeCpuByKind(root);
    return { cpu: Object.values(kinds).reduce((a, b) => a + b, 0), wall: performance.now() / 1000, kinds };
  };
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

async function runCli(): Promise<Marks> {
  const out = mkdtempSync(join(tmpdir(), 'code-a1-cost-'));
  const args = ['tsx', '--import', './scripts/raw-loader.mjs', 'src/cli/train.ts', '--preset', PRESET, '--mode', MODE];
  args.push('--seed', String(SEED), '--steps', String(STEPS), '--out', out);
  args.push('--set', `rollout.problems_per_step=${PROBLEMS}`);
  const child = spawn('npx', args, { stdio: 'ignore' });
  let ended = false;
  child.on('exit', () => (ended = true));
  const file = join(out, 'metrics.jsonl');
  const lines = async () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0);
  try {
    return await track(child.pid!, lines, () => ended && !existsSync(file));
  } finally {
    child.kill();
    rmSync(out, { recursive: true, force: true });
  }
}

async function launch(which: 'chromium' | 'firefox'): Promise<Browser> {
  if (which === 'chromium')
    return puppeteer.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: ['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--no-sandbox', '--no-first-run'],
    });
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

async function runBrowser(which: 'chromium' | 'firefox'): Promise<Marks> {
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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function main(): Promise<void> {
  if (!readFlags()) return;
  let server: ChildProcess | undefined;
  if (ONLY.some((w) => w !== 'cli')) {
    if (!existsSync('dist/index.html')) throw new Error('dist/ is missing: run `npm run build` first');
    server = spawn('npx', ['vite', 'preview', '--port', String(PORT), '--strictPort', '--host', '127.0.0.1'], {
      stdio: 'ignore',
    });
    await sleep(3000);
  }
  const rows: { name: string; first: { cpu: number; wall: number }; cpu: number[]; wall: number[]; kinds: string }[] =
    [];
  try {
    for (const which of ONLY) {
      console.log(`running ${which}: ${PRESET} ${MODE}, ${PROBLEMS} problems/step, seed ${SEED}, ${STEPS} steps …`);
      const m = which === 'cli' ? await runCli() : await runBrowser(which as 'chromium' | 'firefox');
      const d = m.slice(1).map((x, i) => ({ cpu: x.cpu - m[i].cpu, wall: x.wall - m[i].wall }));
      // Where steps 2..N went, per process kind (CPU-s per step).
      const [a, b] = [m[1].kinds, m[m.length - 1].kinds];
      const kinds = Object.keys(b)
        .map((k) => [k, (b[k] - (a[k] ?? 0)) / (m.length - 2)] as const)
        .filter(([, v]) => v >= 0.01)
        .sort((x, y) => y[1] - x[1])
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(', ');
      rows.push({
        name: which,
        first: d[0],
        cpu: d.slice(1).map((x) => x.cpu),
        wall: d.slice(1).map((x) => x.wall),
        kinds,
      });
    }
  } finally {
    server?.kill();
  }
  const cli = rows.find((r) => r.name === 'cli');
  console.log(`\n${PRESET} ${MODE}, ${PROBLEMS} problems/step, seed ${SEED}: steps 2-${STEPS} (step 1 incl. compiles)`);
  console.log(
    '| run | step 1 CPU-s | step 1 wall s | CPU-s/step min | median | wall s/step median | CPU vs CLI | CPU-s/step by process |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const ratio = cli ? (median(r.cpu) / median(cli.cpu)).toFixed(2) + 'x' : '-';
    console.log(
      `| ${r.name} | ${r.first.cpu.toFixed(1)} | ${r.first.wall.toFixed(1)} | ${Math.min(...r.cpu).toFixed(2)} | ${median(r.cpu).toFixed(2)} | ${median(r.wall).toFixed(2)} | ${ratio} | ${r.kinds} |`,
    );
  }
}

runMain(main);
