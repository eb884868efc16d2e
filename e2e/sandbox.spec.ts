// The sandbox red team in each browser: Pyodide in module Web Workers, built by Vite from the npm package (no CDN).
// The spec builds e2e/pages/sandbox.html with Vite's build API and serves the output under /__sandbox/ from its test
// server with cross-origin isolation headers (SharedArrayBuffer), so no app or config edits are needed.
import { expect, test } from './driver/test';
import { build } from 'vite';
import { resolve } from 'node:path';
import { startTestServer, type TestServer } from './driver/test-server';

const outDir = resolve('test-results/sandbox-bundle');
let server: TestServer;

test.beforeAll(async () => {
  await build({
    configFile: false,
    logLevel: 'warn',
    root: resolve('e2e/pages'),
    base: '/__sandbox/',
    worker: { format: 'es' },
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      target: 'es2022',
      chunkSizeWarningLimit: 20000,
      rollupOptions: { input: resolve('e2e/pages/sandbox.html') },
    },
  });
  server = await startTestServer([{ prefix: '/__sandbox/', dir: outDir, index: 'sandbox.html' }]);
});
test.afterAll(() => server?.close());

test('sandbox red team holds in Web Workers', async ({ lab }) => {
  test.setTimeout(300_000);
  await lab.goto(`${server.url}/__sandbox/sandbox.html`);
  expect(await lab.evaluate(() => self.crossOriginIsolated)).toBe(true);
  await lab.waitFor(() => 'sandboxChecks' in globalThis);
  const out = (await lab.evaluate(() =>
    (globalThis as unknown as { sandboxChecks: () => Promise<unknown> }).sandboxChecks(),
  )) as {
    checks: { name: string; statuses: string[]; compileError?: string; detail?: string }[];
    probe: Record<string, boolean>;
    coldMs: number[];
    hardStops: number;
  };
  console.log(`cold start(s) in ${lab.browser}: ${out.coldMs.map((m) => m.toFixed(0)).join(', ')} ms`);
  for (const c of out.checks)
    console.log(`${c.name}: ${c.statuses.join(',')} ${c.compileError ?? ''} ${c.detail ?? ''}`);
  if (lab.logs.length) console.log(lab.logs.slice(0, 20).join('\n'));
  const by = Object.fromEntries(out.checks.map((c) => [c.name, c]));
  expect(by['honest'].statuses).toEqual(['passed', 'failed']);
  expect(by['soft-timeout'].statuses).toEqual(['timeout']);
  expect(by['memory-bomb'].statuses).toEqual(['error']);
  expect(by['recursion'].statuses).toEqual(['error']);
  expect(by['output-flood'].statuses).toEqual(['passed']);
  expect(by['output-flood'].detail).toMatch(/stdout=8\d{3}\b/);
  expect(by['import-js'].compileError).toMatch(/not allowed/);
  expect(by['import-pyodide-ffi'].statuses).toEqual(['error']);
  expect(by['eq-hack'].statuses).toEqual(['failed']);
  expect(by['sys-exit'].statuses).toEqual(['error']);
  expect(by['isolation-read'].statuses).toEqual(['passed']);
  expect(by['hard-stop'].statuses).toEqual(['timeout']);
  expect(by['after-hard-stop'].statuses).toEqual(['passed']);
  expect(by['stop-at-timeout'].statuses).toEqual(['passed', 'timeout', 'error']);
  expect(out.hardStops).toBeGreaterThanOrEqual(1);
  expect(by['extract'].statuses).toEqual(['assert f(1) == 2', 'assert f(3) == 4']);
  // Issue 13.
  expect(by['forge-globals'].statuses).not.toContain('passed');
  expect(by['after-forge'].statuses).toEqual(['failed', 'passed']);
  expect(by['after-plant'].statuses).toEqual(['passed']);
  expect(by['exact-compare'].statuses).toEqual(['failed', 'passed']);
  expect(by['args-namespace'].statuses).toEqual(['passed']);
  expect(by['shadowed-math'].statuses).not.toContain('passed');
  expect(by['result-cap'].statuses).toEqual(['error']);
  expect(by['result-cap'].detail).toMatch(/ResultTooLarge/);
  expect(by['sleep'].statuses).toEqual(['timeout']);
  expect(by['nan-ground-truth'].statuses).toEqual(['false', 'undefined']);
  expect(by['extract-bounded'].statuses).toEqual(['10000', 'assert f(1) == 2']);
  for (const [capability, available] of Object.entries(out.probe))
    expect([capability, available]).toEqual([capability, false]);
});
