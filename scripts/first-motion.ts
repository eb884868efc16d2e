// Time to first motion and to the first chart point after Start, per preset, on this machine's WebGPU adapter in the
// built app (a measurement script, not a test): `npm run build`, then
//   npx tsx scripts/first-motion.ts [--repeat 2] [--presets micro,tiny] [--port 4173] [--out-dir dist]
// It starts `vite preview` itself (on --out-dir: another build, e.g. an older revision's, for a before/after).
// First feedback = the first change the page shows after Start (loading counts of shaders and sandbox workers
// included); first motion = the first streamed Coder text or phase progress (the step's own work moving); first text =
// the first streamed Coder text; first chart point = the first step's record on the charts. Each preset runs in a
// fresh browser context (cold: models, shaders and the sandbox load in the timed span), `--repeat` times; min, median.
import { spawn } from 'node:child_process';
import { chromium } from '@playwright/test';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const repeat = Number(arg('repeat', '2'));
const presets = arg('presets', 'micro,tiny').split(',');
const port = Number(arg('port', '4273'));
const outDir = arg('out-dir', 'dist');
const base = `http://127.0.0.1:${port}`;

const server = spawn(
  'npx',
  ['vite', 'preview', '--outDir', outDir, '--port', String(port), '--strictPort', '--host', '127.0.0.1'],
  {
    stdio: 'ignore',
    detached: true,
  },
);
const stopServer = () => {
  try {
    process.kill(-server.pid!);
  } catch {
    /* already gone */
  }
};

async function waitForServer(): Promise<void> {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(base)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`vite preview did not come up on ${base}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

async function main(): Promise<void> {
  await waitForServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--enable-unsafe-webgpu', '--enable-features=Vulkan', '--no-sandbox', '--headless=new'],
  });
  try {
    for (const preset of presets) {
      const times: Record<'feedback' | 'motion' | 'text' | 'point', number[]> = {
        feedback: [],
        motion: [],
        text: [],
        point: [],
      };
      let adapter = '';
      for (let r = 0; r < repeat; r++) {
        const ctx = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
        const page = await ctx.newPage();
        await page.goto(`${base}/#preset=${preset}&mode=code-a1&seed=1`);
        await page.waitForSelector('html[data-restored="true"]');
        await page.getByTestId('adapter').waitFor();
        adapter = ((await page.getByTestId('adapter').textContent()) ?? '').replace(/\s+/g, ' ').slice(0, 140);
        // Timestamps taken in the page (performance.now), so the measurement does not include polling delays.
        await page.evaluate(() => {
          const w = window as unknown as { t: Record<string, number> };
          w.t = {};
          const store = window.__lab!.store;
          store.subscribe((s) => {
            const now = performance.now();
            if (w.t.feedback === undefined && (s.warmup || s.loadingDetail || s.stream || s.progress))
              w.t.feedback = now;
            if (w.t.text === undefined && s.stream) w.t.text = now;
            if (w.t.motion === undefined && (s.stream || (s.progress && s.progress.done > 0) || s.phaseEvents.length))
              w.t.motion = now;
            const run = s.series.find((x) => x.id === s.runId);
            if (w.t.point === undefined && run && run.metrics.length) w.t.point = now;
          });
        });
        const t0 = await page.evaluate(() => performance.now());
        await page.getByTestId('start').click();
        await page.waitForFunction(() => (window as unknown as { t: { point?: number } }).t.point !== undefined, null, {
          timeout: 30 * 60_000,
          polling: 200,
        });
        const t = await page.evaluate(() => (window as unknown as { t: Record<string, number> }).t);
        for (const k of ['feedback', 'motion', 'text', 'point'] as const)
          times[k].push(((t[k] ?? t.point) - t0) / 1000);
        await ctx.close();
      }
      console.log(`adapter: ${adapter}`);
      const names = { feedback: 'first feedback', motion: 'first motion', text: 'first text', point: 'first chart pt' };
      for (const k of ['feedback', 'motion', 'text', 'point'] as const) {
        const xs = times[k];
        console.log(
          `${preset.padEnd(6)} ${names[k].padEnd(14)} min ${Math.min(...xs).toFixed(1)} s  median ${median(xs).toFixed(1)} s   (${xs.map((x) => x.toFixed(1)).join(', ')})`,
        );
      }
    }
  } finally {
    await browser.close();
    stopServer();
  }
}

main().catch((e) => {
  console.error(e);
  stopServer();
  process.exit(1);
});
