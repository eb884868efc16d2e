// Exported micro and tiny models on onnxruntime-web's webgpu and wasm EPs in Chromium vs our engine's WebGPU forward.
import { expect, test } from '@playwright/test';
import { buildOnnxPage, serveOnnxPage } from './pages/onnx-bundle';
import type { OnnxCheck } from './pages/onnx';

let bundle = '';

test.beforeAll(async () => {
  bundle = await buildOnnxPage();
});

test('ONNX export matches our WebGPU forward on onnxruntime-web webgpu and wasm EPs', async ({ page, baseURL }) => {
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));
  page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
  const { url, ortBase } = await serveOnnxPage(page, baseURL ?? 'http://127.0.0.1:4173', bundle);
  await page.goto(url);
  await page.waitForFunction(() => 'onnxPageReady' in globalThis);
  const seed = (Date.now() ^ (Math.random() * 2 ** 31)) >>> 0;
  const results = await page.evaluate(
    ([s, base]) =>
      (globalThis as unknown as { onnxChecks: (seed: number, ortBase: string) => Promise<OnnxCheck[]> }).onnxChecks(
        s,
        base,
      ),
    [seed, ortBase] as [number, string],
  );
  for (const r of results)
    console.log(`chromium ${r.name}: max rel diff ${r.diff.toExponential(2)} (tol ${r.tol}) seed ${seed}`);
  if (logs.length) console.log(logs.slice(0, 40).join('\n'));
  expect(results.length).toBe(2 * 2 * 3 + 2 + 2);
  for (const r of results) expect(r.diff, `${r.name} (seed ${seed})`).toBeLessThanOrEqual(r.tol);
});
