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
  const errors = logs.filter((l) => /error|pageerror/i.test(l));
  if (errors.length) console.log(errors.slice(0, 20).join('\n'));
  expect(results.length).toBe(2 * 2 * 3 + 2 + 2);
  for (const r of results) expect(r.diff, `${r.name} (seed ${seed})`).toBeLessThanOrEqual(r.tol);

  // Node placement on the webgpu EP: the compute ops must run on WebGPU (JSEP), not fall back to the CPU EP.
  const from = logs.length;
  await page.evaluate(
    (base) => (globalThis as unknown as { onnxPlacement: (b: string) => Promise<void> }).onnxPlacement(base),
    ortBase,
  );
  const lines = logs.slice(from);
  const placed = new Map<string, Set<string>>();
  let ep = '';
  for (const l of lines) {
    const head = /Node\(s\) placed on \[(\w+)\]/.exec(l);
    if (head) ep = head[1];
    const node = /VerifyEachNodeIsAssignedToAnEp\]\s+(\w+) \(/.exec(l);
    if (node && ep) placed.set(ep, (placed.get(ep) ?? new Set()).add(node[1]));
  }
  const fmt = (s?: Set<string>) => [...(s ?? [])].sort().join(', ');
  console.log(
    `webgpu EP (JSEP) runs: ${fmt(placed.get('JsExecutionProvider'))}\nCPU fallback: ${fmt(placed.get('CPUExecutionProvider'))}`,
  );
  for (const op of ['DequantizeLinear', 'MatMul', 'Softmax', 'Sigmoid', 'ReduceMean']) {
    expect(placed.get('JsExecutionProvider')?.has(op), `${op} on the webgpu EP`).toBe(true);
    expect(placed.get('CPUExecutionProvider')?.has(op) ?? false, `${op} not on the CPU EP`).toBe(false);
  }
});
