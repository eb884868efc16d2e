// Every kernel against its CPU reference on fresh random data, in each browser's WebGPU (Chromium: Dawn/Tint on
// SwiftShader; Firefox: wgpu/naga on lavapipe), then a walk that creates and validates every pipeline the checks
// used, and, where the adapter has 'shader-f16', the native f16 Linear against its CPU emulation, all on a device
// capped at the micro lab's stated limits (8 storage buffers per stage: the training kernels' 8-buffer variants); the
// training kernels run again with the adapter's own limits (their 9-buffer form where it offers 9 or more). The page
// is e2e/pages/kernels.ts bundled with Vite's build API and served by the spec's own test server.
import { expect, test } from './driver/test';
import { bundleDir, bundlePage } from './bundle';
import { modulePage, startTestServer, type TestServer } from './driver/test-server';
import type { KernelPageResult } from './pages/kernels';
import { resolve } from 'node:path';

let server: TestServer;

test.beforeAll(async () => {
  await bundlePage('e2e/pages/kernels.ts', 'kernels');
  server = await startTestServer([
    ...modulePage('/__kernels/', 'kernels', bundleDir('kernels'), 'kernels.js'),
    { prefix: '/models/', dir: resolve('public/models') },
  ]);
});
test.afterAll(() => server?.close());

test('kernels match their CPU references; every pipeline validates', async ({ lab }) => {
  await lab.goto(`${server.url}/__kernels/index.html`);
  await lab.waitFor(() => 'kernelChecks' in globalThis);
  const seed = (Date.now() ^ (Math.random() * 2 ** 31)) >>> 0;
  const out = await lab.evaluate(
    (s) => (globalThis as unknown as { kernelChecks: (seed: number) => Promise<KernelPageResult> }).kernelChecks(s),
    seed,
  );
  console.log(`${lab.browser} adapter: ${out.adapter}; features: ${out.features.join(' ')}`);
  console.log(`${lab.browser} device limits: ${JSON.stringify(out.limits)}`);
  for (const r of out.results)
    console.log(
      `${lab.browser} ${r.name}: max abs diff ${r.diff.toExponential(2)} (tol ${r.tol}) seed ${seed}${r.note ? `; ${r.note}` : ''}`,
    );
  console.log(`${lab.browser}: ${out.pipelines.length} pipelines created and validated`);
  for (const p of out.pipelines.filter((x) => x.error)) console.log(`  ${p.label}: ${p.error}`);
  if (lab.logs.length) console.log(lab.logs.join('\n'));
  expect(out.results.length).toBeGreaterThanOrEqual(26);
  // The lab's stated need is WebGPU's default of 8 storage buffers per stage, so the training kernels ran their
  // 8-buffer variants (both attention kernel families, both halves of the GRPO loss's packed statistics).
  expect(out.limits.maxStorageBuffersPerShaderStage).toBe(8);
  for (const name of [
    'attention WGSL file 8-buffer dk',
    'attention generated 8-buffer dq',
    'grpo loss dapo 8-buffer dlogp',
  ])
    expect(out.results.map((r) => r.name)).toContain(name);
  console.log(`${lab.browser} adapter's own storage buffers per stage: ${out.ownStorageBuffers}`);
  if (out.ownStorageBuffers >= 9)
    for (const name of [
      'attention WGSL file 9-buffer dk',
      'attention generated 9-buffer dq',
      'grpo loss dapo 9-buffer dlogp',
    ])
      expect(out.results.map((r) => r.name)).toContain(name);
  for (const r of out.results) expect(r.diff, `${r.name} (seed ${seed})`).toBeLessThanOrEqual(r.tol);
  // Firefox on lavapipe offers shader-f16, so there the native f16 kernel must have run.
  if (lab.browser === 'firefox') expect(out.features).toContain('shader-f16');
  if (out.features.includes('shader-f16'))
    expect(out.results.map((r) => r.name)).toContain('linear_f16 native vs emulation (bound violation)');
  expect(out.pipelines.length).toBeGreaterThan(20);
  expect(out.pipelines.filter((p) => p.error)).toEqual([]);
  expect(lab.logs.filter((l) => /uncaught error|pageerror/.test(l))).toEqual([]);
});
