// Kernel subset in Chromium's WebGPU against the CPU references. The spec bundles e2e/pages/kernels.ts with Vite's
// build API (so `?raw` WGSL imports work) and serves it with page.route on the preview origin: no app or config edits.
import { expect, test } from '@playwright/test';
import { bundlePage } from './bundle';

let bundle = '';

test.beforeAll(async () => {
  bundle = await bundlePage('e2e/pages/kernels.ts', 'kernels');
});

test('kernels match their CPU references in Chromium WebGPU', async ({ page }) => {
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));
  page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
  await page.route('**/__kernels/index.html', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>kernels</title><script type="module" src="kernels.js"></script>',
    }),
  );
  await page.route('**/__kernels/kernels.js', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: bundle }),
  );
  await page.goto('/__kernels/index.html');
  await page.waitForFunction(() => 'kernelChecks' in globalThis);
  const seed = (Date.now() ^ (Math.random() * 2 ** 31)) >>> 0;
  const results = await page.evaluate(
    (s) =>
      (
        globalThis as unknown as {
          kernelChecks: (seed: number) => Promise<{ name: string; diff: number; tol: number }[]>;
        }
      ).kernelChecks(s),
    seed,
  );
  for (const r of results)
    console.log(`chromium ${r.name}: max abs diff ${r.diff.toExponential(2)} (tol ${r.tol}) seed ${seed}`);
  if (logs.length) console.log(logs.join('\n'));
  expect(results.length).toBeGreaterThanOrEqual(14);
  for (const r of results) expect(r.diff, `${r.name} (seed ${seed})`).toBeLessThanOrEqual(r.tol);
});
