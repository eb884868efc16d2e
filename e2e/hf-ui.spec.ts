// The Model panel's Hugging Face loading in Chromium, with no network: a local route with the hub's URL layout
// ({endpoint}/{repo}/resolve/{revision}/{file}) serves the committed transformers fixture. Bad input (missing files,
// an unsupported config field, a wrong repo) is refused by name and loses nothing; the download shows progress and is
// cached, so the second load makes no request; a LoRA code-a1 run of the fixture trains in the Worker, saves PEFT
// adapters, and after a reload resumes with the hub unreachable (the model comes from the cache).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';

const FIXTURES = resolve('fixtures/hf');
const MODEL = 'qwen2-tied-gqa-f32';
const STEP_TIMEOUT = 240_000; // one micro step on SwiftShader, with room for a loaded CI machine

const hub = { requests: 0, offline: false, dropWeights: false };

async function serveHub(page: Page): Promise<void> {
  await page.route(/\/__hub\/lab\/.*$/, (route) => {
    const req = route.request();
    hub.requests++;
    if (hub.offline) return route.abort('internetdisconnected');
    if (hub.dropWeights && req.method() === 'GET' && req.url().endsWith('.safetensors'))
      return route.abort('connectionreset');
    const m = /\/__hub\/lab\/([\w.-]+)\/resolve\/main\/([\w.-]+)$/.exec(new URL(req.url()).pathname);
    const file = m ? resolve(FIXTURES, m[1], m[2]) : '';
    let size = -1;
    try {
      size = statSync(file).isFile() ? statSync(file).size : -1;
    } catch {
      size = -1;
    }
    if (size < 0) return route.fulfill({ status: 404, body: 'Entry not found' });
    if (req.method() === 'HEAD')
      return route.fulfill({ status: 200, headers: { 'x-linked-size': String(size) }, body: '' });
    return route.fulfill({
      status: 200,
      headers: { 'content-type': 'application/octet-stream' },
      body: readFileSync(file),
    });
  });
}

const state = (page: Page) =>
  page.evaluate(() => {
    const s = window.__lab!.store.getState();
    return {
      step: s.step,
      status: s.status,
      checkpointStep: s.checkpointStep,
      message: s.message,
      source: s.modelSource,
    };
  });

function fixtureFile(name: string, over?: Buffer) {
  return { name, mimeType: 'application/octet-stream', buffer: over ?? readFileSync(resolve(FIXTURES, MODEL, name)) };
}

test('Hugging Face model in the Model panel: files and hub (cached, offline second load), clear errors, a LoRA run that resumes', async ({
  page,
}) => {
  test.setTimeout(8 * STEP_TIMEOUT);
  const logs: string[] = [];
  page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
  await serveHub(page);
  await page.goto('/#preset=micro&mode=code-a1&seed=1');
  await page.waitForSelector('html[data-restored="true"]');
  await page.evaluate(() => caches.delete('code-a1-hf-v1'));
  await page.getByTestId('tab-model').click();
  const error = page.getByTestId('hf-error');
  const coder = page.getByTestId('hf-coder');

  // From files: a set without weights is refused by name; a config with a field the lab does not support too.
  await page.getByTestId('hf-files').setInputFiles([fixtureFile('config.json'), fixtureFile('tokenizer.json')]);
  await expect(error).toContainText('missing model.safetensors');
  const cfg = JSON.parse(readFileSync(resolve(FIXTURES, MODEL, 'config.json'), 'utf8'));
  const bad = Buffer.from(JSON.stringify({ ...cfg, rope_scaling: { type: 'yarn', factor: 4 } }));
  const files = readdirSync(resolve(FIXTURES, MODEL)).filter(
    (n) => !n.startsWith('reference') && statSync(resolve(FIXTURES, MODEL, n)).isFile(),
  );
  await page
    .getByTestId('hf-files')
    .setInputFiles(files.map((n) => fixtureFile(n, n === 'config.json' ? bad : undefined)));
  await expect(error).toContainText('rope_scaling');
  await expect(coder).toContainText('none');
  // The folder picker takes the whole folder (reference outputs included: extra files are ignored).
  await page.getByTestId('hf-folder').setInputFiles(resolve(FIXTURES, MODEL));
  await expect(coder).toContainText(`${MODEL} (2 layers, hidden 64, vocab 448`);
  await expect(error).toHaveCount(0);

  // From the hub: a wrong repo is refused and keeps the model already chosen.
  await page.getByTestId('hf-endpoint').fill(new URL('/__hub', page.url()).href);
  await page.getByTestId('hf-repo').fill('lab/no-such-model');
  await page.getByTestId('hf-download').click();
  await expect(error).toContainText('lab/no-such-model@main: not found');
  await expect(coder).toContainText(MODEL);

  await page.getByTestId('hf-repo').fill(`lab/${MODEL}`);
  // A connection dropped while the weights download: named, and the model chosen before stays.
  hub.dropWeights = true;
  await page.getByTestId('hf-download').click();
  await expect(error).toContainText(`lab/${MODEL}@main: could not reach`);
  await expect(coder).toContainText(`${MODEL} (2 layers`);
  hub.dropWeights = false;
  hub.requests = 0;
  await page.getByTestId('hf-download').click();
  await expect(page.getByTestId('hf-info')).toContainText('downloaded', { timeout: 60_000 });
  await expect(coder).toContainText(`lab/${MODEL}@main (2 layers`);
  // The small files stayed cached from the dropped attempt: only the weights' HEAD and GET went out.
  expect(hub.requests).toBe(2);

  // Second load: everything from the Cache API, with the hub unreachable.
  hub.offline = true;
  hub.requests = 0;
  await page.getByTestId('hf-download').click();
  await expect(page.getByTestId('hf-info')).toContainText('loaded from the browser cache (no download)');
  expect(hub.requests).toBe(0);
  await page.getByTestId('hf-rank').fill('4');
  await page.getByTestId('hf-alpha').fill('8');
  await page.screenshot({ path: 'test-results/hf-ui-model-panel.png', fullPage: true });

  // A LoRA code-a1 run on the fixture (Coder and Tester: the same base, each with its own adapters).
  // Single step opens the new run with the chosen model too; Start continues it.
  await page.getByTestId('single-step').click();
  await expect
    .poll(async () => (await state(page)).checkpointStep ?? 0, { timeout: 2 * STEP_TIMEOUT, intervals: [1000] })
    .toBe(1);
  await expect.poll(async () => (await state(page)).status, { timeout: STEP_TIMEOUT }).toBe('paused');
  expect((await state(page)).source).toContain(`Hugging Face: coder lab/${MODEL}@main`);
  await page.getByTestId('start').click();
  await expect
    .poll(async () => (await state(page)).checkpointStep ?? 0, { timeout: 3 * STEP_TIMEOUT, intervals: [1000] })
    .toBeGreaterThanOrEqual(2);
  await page.getByTestId('pause').click();
  await expect.poll(async () => (await state(page)).status, { timeout: STEP_TIMEOUT }).toBe('paused');
  const s = await state(page);
  expect(s.message).toBeNull();
  expect(s.source).toContain(`Hugging Face: coder lab/${MODEL}@main`);
  expect(s.source).toContain('LoRA r4, α 8');
  const metrics = await page.evaluate(() => window.__lab!.store.getState().series[0].metrics);
  expect(metrics.length).toBe(s.step);
  for (const m of metrics)
    for (const k of ['coder/reward_mean', 'tester/reward_mean', 'coder/loss', 'tester/loss'])
      expect(Number.isFinite(m[k as keyof typeof m])).toBe(true);
  await page.getByRole('button', { name: /List files of the last checkpoint/ }).click();
  await expect(page.getByTestId('trained-files')).toContainText('coder/adapter_model.safetensors');
  await expect(page.getByTestId('trained-files')).toContainText('tester/adapter_config.json');

  // Reload: the run is restored and resumes from IndexedDB + the hub cache, the hub still unreachable.
  await page.reload();
  await page.waitForSelector('html[data-restored="true"]');
  expect((await state(page)).step).toBe(s.step);
  hub.requests = 0;
  await page.getByTestId('start').click();
  await expect
    .poll(async () => (await state(page)).checkpointStep ?? 0, { timeout: 2 * STEP_TIMEOUT, intervals: [1000] })
    .toBeGreaterThan(s.step);
  await page.getByTestId('pause').click();
  await expect.poll(async () => (await state(page)).status, { timeout: STEP_TIMEOUT }).toBe('paused');
  const after = await state(page);
  expect(after.message).toBeNull();
  expect(after.source).toContain(`resumed from IndexedDB at step ${s.step}`);
  expect(hub.requests).toBe(0);
  expect(logs).toEqual([]);
});
