// A Hugging Face Qwen2 checkpoint in each browser: fetched from a server with the hub's URL layout (HEAD + range
// requests, served by page.route from fixtures/hf), imported with progress, tokenizer and chat template, and run on
// WebGPU; logits within 1e-4 of transformers', token ids and rendered chats identical, and the greedy tokens identical
// wherever transformers' top-2 logit margin exceeds twice the logit tolerance (below it two compilers may order a
// near-tie differently, so such a prompt's tokens are not compared). The page is bundled from
// e2e/pages/hf.ts with Vite's build API and served with a hub-layout route by the spec's test server.
import { expect, test } from './driver/test';
import { bundleDir, bundlePage } from './bundle';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { decodeSafetensors, toFloat32 } from '../src/model/checkpoint-safetensors';
import type { HfPageInput, HfPageResult } from './pages/hf';
import { modulePage, startTestServer, type Handler, type TestServer } from './driver/test-server';

const FIXTURES = resolve('fixtures/hf');
const MODEL = 'qwen2-untied-mqa-bf16';
/** Logits within this share of the prompt's largest |logit| of transformers'. */
const LOGIT_REL = 1e-4;
let server: TestServer;
let rangeRequests = 0;

/** {endpoint}/{repo}/resolve/{revision}/{file}, as huggingface.co lays it out: HEAD (x-linked-size) and ranges. */
const hub: Handler = (req, res, path) => {
  const m = /^lab\/([\w.-]+)\/resolve\/main\/([\w.-]+)$/.exec(path);
  const file = m ? resolve(FIXTURES, m[1], m[2]) : '';
  let size = -1;
  try {
    size = file ? statSync(file).size : -1;
  } catch {
    size = -1;
  }
  if (size < 0) {
    res.writeHead(404).end();
    return true;
  }
  if (req.method === 'HEAD') {
    res.writeHead(200, { 'x-linked-size': String(size), 'access-control-expose-headers': 'x-linked-size' }).end();
    return true;
  }
  const r = /^bytes=(\d+)-(\d+)$/.exec(req.headers['range'] ?? '');
  if (!r) {
    res.writeHead(200).end(readFileSync(file));
    return true;
  }
  rangeRequests++;
  const part = readFileSync(file).subarray(Number(r[1]), Number(r[2]) + 1);
  res.writeHead(206, { 'content-range': `bytes ${r[1]}-${r[2]}/${size}` }).end(part);
  return true;
};

test.beforeAll(async () => {
  await bundlePage('e2e/pages/hf.ts', 'hf');
  server = await startTestServer([
    ...modulePage('/__hf/', 'hf', bundleDir('hf'), 'hf.js'),
    { prefix: '/__hub/', handler: hub },
  ]);
});
test.afterAll(() => server?.close());

test('HF checkpoint from a hub-layout server: import, tokenizer, chat template and WebGPU forward match transformers', async ({
  lab,
}) => {
  rangeRequests = 0;
  await lab.goto(`${server.url}/__hf/index.html`);
  await lab.waitFor(() => 'hfChecks' in globalThis);

  const ref = JSON.parse(readFileSync(resolve(FIXTURES, 'reference.json'), 'utf8'));
  const rec = ref.models[MODEL].f32_compute;
  const input: HfPageInput = {
    endpoint: `${server.url}/__hub`,
    repo: `lab/${MODEL}`,
    prompts: rec.prompts.map((p: { text: string; ids: number[] }) => ({ text: p.text, ids: p.ids })),
    chats: ref.tokenizer.chats,
  };
  const res = await lab.evaluate(
    (i) => (globalThis as unknown as { hfChecks: (x: HfPageInput) => Promise<HfPageResult> }).hfChecks(i),
    input,
  );
  if (lab.logs.length) console.log(lab.logs.join('\n'));

  const logits = decodeSafetensors(readFileSync(resolve(FIXTURES, MODEL, 'reference-logits.safetensors'))).tensors;
  let worst = 0;
  const scales: number[] = [];
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
    scales.push(scale);
  });
  console.log(
    `${lab.browser}: ${MODEL} over ${rangeRequests} range requests, ${res.progress.length} progress events; WebGPU logits vs transformers max rel diff ${worst.toExponential(2)}`,
  );
  expect(worst).toBeLessThan(LOGIT_REL);
  // Two logits each within REL·scale of transformers' can swap order only if their margin there is under 2·REL·scale.
  const prompts = rec.prompts as { greedy: number[]; greedy_min_margin: number }[];
  const decided = prompts.map((p, i) => p.greedy_min_margin > 2 * LOGIT_REL * scales[i]);
  console.log(
    `${lab.browser}: greedy tokens compared exactly on ${decided.filter(Boolean).length}/${prompts.length} prompts (min margins ${prompts.map((p) => p.greedy_min_margin.toFixed(3)).join(', ')})`,
  );
  expect(decided.some(Boolean)).toBe(true);
  for (const [i, p] of prompts.entries()) if (decided[i]) expect(res.greedy[i], `prompt ${i}`).toEqual(p.greedy);
  expect(res.ids).toEqual(rec.prompts.map((p: { ids: number[] }) => p.ids));
  expect(res.rendered).toEqual(ref.tokenizer.chats.map((c: { rendered: string }) => c.rendered));
  expect(res.progress.at(-1)).toBe(1);
  expect(rangeRequests).toBeGreaterThan(res.progress.length);
});
