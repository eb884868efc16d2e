// A Hugging Face Qwen2 checkpoint in Chromium: fetched from a server with the hub's URL layout (HEAD + range
// requests, served by page.route from fixtures/hf), imported with progress, tokenizer and chat template, and run on
// WebGPU; logits within 1e-4 of transformers', greedy tokens, token ids and rendered chats identical. The page is
// bundled from e2e/pages/hf.ts with Vite's build API (no app or config edits).
import { expect, test } from '@playwright/test';
import { bundlePage } from './bundle';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { decodeSafetensors, toFloat32 } from '../src/model/checkpoint-safetensors';
import type { HfPageInput, HfPageResult } from './pages/hf';

const FIXTURES = resolve('fixtures/hf');
const MODEL = 'qwen2-untied-mqa-bf16';
let bundle = '';
let rangeRequests = 0;

test.beforeAll(async () => {
  bundle = await bundlePage('e2e/pages/hf.ts', 'hf');
});

test('HF checkpoint from a hub-layout server: import, tokenizer, chat template and WebGPU forward match transformers', async ({
  page,
}) => {
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));
  page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
  await page.route('**/__hf/index.html', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>hf</title><script type="module" src="hf.js"></script>',
    }),
  );
  await page.route('**/__hf/hf.js', (route) => route.fulfill({ contentType: 'text/javascript', body: bundle }));
  // {endpoint}/{repo}/resolve/{revision}/{file}, as huggingface.co lays it out.
  await page.route(/\/__hub\/lab\/([\w.-]+)\/resolve\/main\/([\w.-]+)$/, (route) => {
    const m = /\/__hub\/lab\/([\w.-]+)\/resolve\/main\/([\w.-]+)$/.exec(route.request().url());
    const file = m ? resolve(FIXTURES, m[1], m[2]) : '';
    let size = -1;
    try {
      size = statSync(file).size;
    } catch {
      size = -1;
    }
    if (size < 0) return route.fulfill({ status: 404, body: '' });
    if (route.request().method() === 'HEAD')
      return route.fulfill({ status: 200, headers: { 'x-linked-size': String(size) }, body: '' });
    const r = /^bytes=(\d+)-(\d+)$/.exec(route.request().headers()['range'] ?? '');
    if (!r) return route.fulfill({ status: 200, body: readFileSync(file) });
    rangeRequests++;
    const part = readFileSync(file).subarray(Number(r[1]), Number(r[2]) + 1);
    return route.fulfill({ status: 206, headers: { 'content-range': `bytes ${r[1]}-${r[2]}/${size}` }, body: part });
  });
  await page.goto('/__hf/index.html');
  await page.waitForFunction(() => 'hfChecks' in globalThis);

  const ref = JSON.parse(readFileSync(resolve(FIXTURES, 'reference.json'), 'utf8'));
  const rec = ref.models[MODEL].f32_compute;
  const input: HfPageInput = {
    endpoint: new URL('/__hub', page.url()).href,
    repo: `lab/${MODEL}`,
    prompts: rec.prompts.map((p: { text: string; ids: number[] }) => ({ text: p.text, ids: p.ids })),
    chats: ref.tokenizer.chats,
  };
  const res = await page.evaluate(
    (i) => (globalThis as unknown as { hfChecks: (x: HfPageInput) => Promise<HfPageResult> }).hfChecks(i),
    input,
  );
  if (logs.length) console.log(logs.join('\n'));

  const logits = decodeSafetensors(readFileSync(resolve(FIXTURES, MODEL, 'reference-logits.safetensors'))).tensors;
  let worst = 0;
  res.logits.forEach((ours, i) => {
    const theirs = toFloat32(
      logits.get(`prompt${i}.logits`) ?? { name: '', dtype: 'F32', shape: [0], data: new Uint8Array() },
    );
    expect(ours.length).toBe(theirs.length);
    let scale = 0;
    let diff = 0;
    for (let j = 0; j < theirs.length; j++) {
      scale = Math.max(scale, Math.abs(theirs[j]));
      diff = Math.max(diff, Math.abs(ours[j] - theirs[j]));
    }
    worst = Math.max(worst, diff / scale);
  });
  console.log(
    `chromium: ${MODEL} over ${rangeRequests} range requests, ${res.progress.length} progress events; WebGPU logits vs transformers max rel diff ${worst.toExponential(2)}`,
  );
  expect(worst).toBeLessThan(1e-4);
  expect(res.greedy).toEqual(rec.prompts.map((p: { greedy: number[] }) => p.greedy));
  expect(res.ids).toEqual(rec.prompts.map((p: { ids: number[] }) => p.ids));
  expect(res.rendered).toEqual(ref.tokenizer.chats.map((c: { rendered: string }) => c.rendered));
  expect(res.progress.at(-1)).toBe(1);
  expect(rangeRequests).toBeGreaterThan(res.progress.length);
});
