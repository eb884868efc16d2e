// UI-only specs (no training): config shared as a URL, bundle import into the charts / inspector / Mistake Book,
// and a bad file rejected with a clear error while nothing else changes.
import { existsSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { sampleBundle } from '../src/app/testing/sample-bundle';

async function fresh(page: Page, hash = '') {
  await page.goto('/' + hash);
  await page.waitForSelector('html[data-restored="true"]');
}

test('config roundtrips through the URL', async ({ page, context }) => {
  await fresh(page, '#preset=micro&mode=golden&seed=7&M=3&lr=0.002');
  await expect(page.getByTestId('mode')).toHaveValue('golden');
  await expect(page.getByTestId('seed')).toHaveValue('7');
  await expect(page.getByTestId('hp-M')).toHaveValue('3');
  await expect(page.getByTestId('hp-lr')).toHaveValue('0.002');
  // Editing the form updates the link.
  await page.getByTestId('seed').fill('11');
  await page.getByTestId('mode').selectOption('self-play');
  await page.getByTestId('hp-K').fill('5');
  await expect
    .poll(() => page.evaluate(() => location.hash))
    .toBe('#preset=micro&mode=self-play&seed=11&M=3&K=5&lr=0.002');
  const url = page.url();
  // The link opens the same config in a new page.
  const other = await context.newPage();
  await fresh(other, url.slice(url.indexOf('#')));
  await expect(other.getByTestId('mode')).toHaveValue('self-play');
  await expect(other.getByTestId('seed')).toHaveValue('11');
  await expect(other.getByTestId('hp-K')).toHaveValue('5');
  await expect(other.getByTestId('hp-M')).toHaveValue('3');
  // A bad value is reported, not silently applied.
  const bad = await context.newPage();
  await fresh(bad, '#preset=micro&mode=golden&seed=2&M=0.5');
  await expect(bad.getByTestId('error-banner')).toContainText('M must be an integer');
  await expect(bad.getByTestId('hp-M')).toHaveValue('');
  await bad.screenshot({ path: 'test-results/ui-url-error.png' });
});

test('an imported bundle fills the charts, the inspector and the Mistake Book; a bad file changes nothing', async ({
  page,
}) => {
  const steps = 6;
  const { bytes } = sampleBundle(3, steps);
  await fresh(page);
  await page
    .getByTestId('import')
    .setInputFiles({ name: 'sample.codea1', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
  await expect(page.getByTestId('info-banner')).toContainText('Imported sample.codea1');
  await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-steps', String(steps));
  await expect(page.getByTestId('chart-tester-reward')).toHaveAttribute('data-steps', String(steps));
  await expect(page.getByTestId('run-step')).toHaveText(String(steps));
  await page.screenshot({ path: 'test-results/ui-imported-charts.png', fullPage: true });

  await page.getByTestId('tab-rollouts').click();
  await expect(page.getByTestId('rollout-prompt')).toContainText('def add');
  await expect(page.getByTestId('candidate-code').first()).toContainText('return a');
  await expect(page.getByTestId('heatmap')).toBeVisible();
  expect(await page.locator('[data-cell="pass"], [data-cell="fail"]').count()).toBeGreaterThan(0);
  await expect(page.locator('[data-testid="test-line"][data-kind="valid"]').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/ui-imported-rollout.png', fullPage: true });

  await page.getByTestId('tab-mistakes').click();
  await page.getByTestId('mistake-group').first().locator('summary').first().click(); // problems start collapsed
  await expect(page.getByTestId('mistake-entry').first()).toBeVisible();
  await page.getByTestId('mistake-search').fill('add(3,');
  await expect(page.getByTestId('mistake-entry')).toHaveCount(1);
  await page.getByTestId('mistake-search').fill('');
  await page.screenshot({ path: 'test-results/ui-imported-mistakes.png', fullPage: true });

  // A bad file: a clear error, and the run on screen stays as it was.
  await page.getByTestId('tab-charts').click();
  await page
    .getByTestId('import')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello, not a bundle') });
  await expect(page.getByTestId('error-banner')).toContainText(
    'Import of notes.txt failed: Not a valid Code-A1 Lab run bundle',
  );
  await page.getByTestId('import').setInputFiles({
    name: 'cut.codea1',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(bytes.subarray(0, bytes.length - 200)),
  });
  await expect(page.getByTestId('error-banner')).toContainText('cut.codea1 failed');
  await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-steps', String(steps));
  await expect(page.getByTestId('run-step')).toHaveText(String(steps));
  await page.screenshot({ path: 'test-results/ui-import-error.png', fullPage: true });

  // A reload restores the imported run from IndexedDB.
  await page.reload();
  await page.waitForSelector('html[data-restored="true"]');
  await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-steps', String(steps));
  await expect(page.getByTestId('run-message')).toContainText(`Restored the saved run at step ${steps}`);
});

test('export a bundle, import it into a fresh context; overlay a CLI metrics.jsonl', async ({ page, browser }) => {
  const { bytes, bundle } = sampleBundle(8, 5, 'exported-run');
  await fresh(page);
  await page
    .getByTestId('import')
    .setInputFiles({ name: 'a.codea1', mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
  await expect(page.getByTestId('run-step')).toHaveText('5');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
  const path = 'test-results/ui-export.codea1';
  await download.saveAs(path);

  const ctx = await browser.newContext();
  const p2 = await ctx.newPage();
  await fresh(p2);
  await expect(p2.getByTestId('run-step')).toHaveText('0');
  await p2.getByTestId('import').setInputFiles(path);
  await expect(p2.getByTestId('run-step')).toHaveText('5');
  await expect(p2.getByTestId('chart-loss')).toHaveAttribute('data-steps', '5');
  const got = await p2.evaluate(() => window.__lab!.store.getState().series[0].metrics);
  expect(got).toEqual(bundle.metrics);

  // A metrics.jsonl (as `npm run train` writes it) overlays as a second run.
  const jsonl =
    bundle.metrics.map((m) => JSON.stringify({ ...m, 'coder/loss': m['coder/loss'] + 1 })).join('\n') + '\n';
  await p2
    .getByTestId('compare')
    .setInputFiles({ name: 'metrics.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(jsonl) });
  await expect(p2.getByTestId('run-row')).toHaveCount(2);
  await expect(p2.getByTestId('chart-loss')).toHaveAttribute('data-series', '4');
  await p2.screenshot({ path: 'test-results/ui-overlay.png', fullPage: true });
  await ctx.close();
});

test('own checkpoint: an incomplete set of files is refused with what is missing', async ({ page }) => {
  await fresh(page);
  await page.getByTestId('tab-model').click();
  await page
    .getByTestId('model-coder-files')
    .setInputFiles([{ name: 'config.json', mimeType: 'application/json', buffer: Buffer.from('{}') }]);
  await expect(page.getByTestId('model')).toContainText('coder model: missing .safetensors, tokenizer.json');
});

test('without WebGPU the notice comes first and nothing can start', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'gpu', { value: undefined, configurable: true });
  });
  await fresh(page);
  await expect(page.getByTestId('no-webgpu')).toContainText('WebGPU is not available');
  await expect(page.getByTestId('start')).toBeDisabled();
  await expect(page.getByTestId('single-step')).toBeDisabled();
  // The notice sits above the lab, not below the run controls.
  const notice = await page.getByTestId('no-webgpu').boundingBox();
  const run = await page.getByTestId('run-panel').boundingBox();
  expect(notice!.y).toBeLessThan(run!.y);
  await page.screenshot({ path: 'test-results/ui-no-webgpu.png', fullPage: true });
});

test('the default preset is one whose shipped checkpoints exist (in the build being served)', async ({ page }) => {
  await fresh(page);
  const want = ['coder', 'tester'].every((r) => existsSync(`dist/models/tiny-sft-half/${r}/model.safetensors`))
    ? 'tiny'
    : 'micro';
  await expect(page.getByTestId('preset')).toHaveValue(want);
});
