// Training in the browser (micro preset, real models and sandbox in the Worker): charts, rollout inspector, Mistake
// Book, reload-and-resume, device loss, and step-through mode.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';

const STEP_TIMEOUT = 240_000; // one micro step on SwiftShader, with room for a loaded CI machine

async function open(page: Page, hash: string) {
  await page.goto('/' + hash);
  await page.waitForSelector('html[data-restored="true"]');
  await expect(page.getByTestId('adapter')).toBeVisible();
}

const steps = (page: Page) => page.evaluate(() => window.__lab!.store.getState().step);
const status = (page: Page) => page.evaluate(() => window.__lab!.store.getState().status);

async function waitPaused(page: Page) {
  await expect.poll(() => status(page), { timeout: STEP_TIMEOUT }).toBe('paused');
}

test('a micro run: 3 steps on the charts, its rollouts and Mistake Book; reload restores it and it resumes; its bundle resumes in a fresh context', async ({
  page,
  browser,
}) => {
  test.setTimeout(16 * STEP_TIMEOUT);
  // Seed 4 puts a test in the Mistake Book within the first steps (the book only records tests that broke a
  // compiling candidate); the run goes on until there are 3 steps and a book entry.
  await open(page, '#preset=micro&mode=code-a1&seed=4');
  await page.getByTestId('start').click();
  await expect
    .poll(
      () =>
        page.evaluate(
          () => window.__lab!.store.getState().step >= 3 && window.__lab!.store.getState().mistakes.length > 0,
        ),
      { timeout: 8 * STEP_TIMEOUT, intervals: [1000] },
    )
    .toBe(true);
  await page.getByTestId('pause').click();
  await waitPaused(page);
  const done = await steps(page);
  await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-steps', String(done));
  await expect(page.getByTestId('chart-tester-reward')).toHaveAttribute('data-steps', String(done));
  await page.screenshot({ path: 'test-results/ui-train-charts.png', fullPage: true });

  await page.getByTestId('tab-rollouts').click();
  await expect(page.getByTestId('rollout-prompt')).not.toBeEmpty();
  await expect(page.getByTestId('candidate-code').first()).toBeVisible();
  await expect(page.getByTestId('heatmap')).toBeVisible();
  await expect(page.getByTestId('test-line').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/ui-train-rollout.png', fullPage: true });

  await page.getByTestId('tab-mistakes').click();
  await page.getByTestId('mistake-group').first().locator('summary').first().click(); // problems start collapsed
  await expect(page.getByTestId('mistake-entry').first()).toBeVisible();
  await expect(page.getByTestId('lineage-born').first()).toHaveText(/^step \d+$/);
  await page.screenshot({ path: 'test-results/ui-train-mistakes.png', fullPage: true });

  // Reload: the run comes back from IndexedDB, paused at its last committed step, and resumes from there.
  await page.reload();
  await page.waitForSelector('html[data-restored="true"]');
  await expect(page.getByTestId('run-message')).toContainText(`Restored the saved run at step ${done}`);
  await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-steps', String(done));
  await expect(page.getByTestId('start')).toHaveText('Resume');
  await page.getByTestId('single-step').click();
  await expect.poll(() => steps(page), { timeout: STEP_TIMEOUT }).toBe(done + 1);
  await waitPaused(page);
  const recs = await page.evaluate(() => window.__lab!.store.getState().series[0].metrics.map((m) => m.step));
  expect(recs).toEqual(Array.from({ length: done + 1 }, (_, i) => i));
  await expect(page.getByTestId('model-source').or(page.getByTestId('run-status'))).toBeVisible();
  await page.screenshot({ path: 'test-results/ui-train-resumed.png', fullPage: true });

  // The trained checkpoint downloads as its files and as ONNX (an ONNX ModelProto starts with ir_version, field 1).
  await page.getByTestId('tab-model').click();
  const [onnx] = await Promise.all([page.waitForEvent('download'), page.getByTestId('onnx-coder').click()]);
  expect(onnx.suggestedFilename()).toMatch(/coder\.onnx$/);
  const bytes = readFileSync(await onnx.path());
  expect(bytes.length).toBeGreaterThan(10_000);
  expect(bytes[0]).toBe(0x08);
  await page.getByText('List files of the last checkpoint').click();
  await expect(page.getByTestId('trained-files')).toContainText('coder/model.safetensors');
  await page.screenshot({ path: 'test-results/ui-train-model.png', fullPage: true });

  // Export the run as one file; a fresh browser context imports it and trains on from the same step.
  const [bundle] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
  const bundlePath = 'test-results/ui-train-run.codea1';
  await bundle.saveAs(bundlePath);
  const ctx = await browser.newContext();
  const p2 = await ctx.newPage();
  await open(p2, '');
  await p2.getByTestId('import').setInputFiles(bundlePath);
  await expect(p2.getByTestId('run-step')).toHaveText(String(done + 1));
  await expect(p2.getByTestId('chart-coder-reward')).toHaveAttribute('data-steps', String(done + 1));
  await p2.getByTestId('single-step').click();
  await expect.poll(() => steps(p2), { timeout: STEP_TIMEOUT }).toBe(done + 2);
  await waitPaused(p2);
  const recs2 = await p2.evaluate(() => window.__lab!.store.getState().series[0].metrics.map((m) => m.step));
  expect(recs2).toEqual(Array.from({ length: done + 2 }, (_, i) => i));
  await p2.screenshot({ path: 'test-results/ui-train-imported.png', fullPage: true });
  await ctx.close();
});

test('a lost device pauses the run with a message; it resumes from the last checkpoint', async ({ page }) => {
  test.setTimeout(6 * STEP_TIMEOUT);
  await open(page, '#preset=micro&mode=golden&seed=2');
  await page.getByTestId('single-step').click();
  await expect.poll(() => steps(page), { timeout: STEP_TIMEOUT }).toBe(1);
  await waitPaused(page);
  await page.getByTestId('start').click();
  await page.evaluate(() => window.__lab!.client.loseDeviceForTest());
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'device-lost', { timeout: STEP_TIMEOUT });
  await expect(page.getByTestId('run-message')).toContainText('GPU device was lost');
  await expect(page.getByTestId('run-message')).toContainText('last checkpoint');
  await page.screenshot({ path: 'test-results/ui-device-lost.png', fullPage: true });
  const before = await steps(page);
  await page.getByTestId('recover').click();
  await expect.poll(() => steps(page), { timeout: 2 * STEP_TIMEOUT }).toBeGreaterThan(before);
  await page.getByTestId('pause').click();
  await waitPaused(page);
  const recs = await page.evaluate(() => window.__lab!.store.getState().series[0].metrics.map((m) => m.step));
  expect(recs).toEqual(Array.from({ length: recs.length }, (_, i) => i));
});

test('step-through: one step advanced phase by phase, each explained', async ({ page }) => {
  test.setTimeout(4 * STEP_TIMEOUT);
  await open(page, '#preset=micro&mode=self-play&seed=3');
  await page.getByTestId('tab-steps').click();
  await page.getByTestId('step-through').check();
  await page.getByTestId('single-step').click();
  const phases = ['coder-rollout', 'tester-rollout', 'validation', 'execution', 'rewards', 'mistake-book', 'update'];
  for (const p of phases) {
    await expect(page.getByTestId(`phase-${p}`)).toHaveAttribute('data-state', 'current', { timeout: STEP_TIMEOUT });
    // Nothing runs until asked: the phase stays current.
    await page.waitForTimeout(300);
    await expect(page.getByTestId(`phase-${p}`)).toHaveAttribute('data-state', 'current');
    if (p === 'validation') await page.screenshot({ path: 'test-results/ui-step-through.png', fullPage: true });
    await page.getByTestId('next-phase').click();
    await expect(page.getByTestId(`phase-data-${p}`)).toBeVisible({ timeout: STEP_TIMEOUT });
  }
  await waitPaused(page);
  expect(await steps(page)).toBe(1);
  await expect(page.getByTestId('collusion')).toContainText('self-serving');
  await page.screenshot({ path: 'test-results/ui-step-through-done.png', fullPage: true });
});

test('held-out evaluation before and after a step; kernel times in Perf while profiling', async ({ page }) => {
  test.setTimeout(8 * STEP_TIMEOUT);
  await open(page, '#preset=micro&mode=code-a1&seed=5');
  await page.getByTestId('tab-eval').click();
  await page.getByTestId('eval-problems').fill('2');
  await page.getByTestId('eval-samples').fill('1');
  await page.getByTestId('run-eval').click();
  await expect(page.getByTestId('eval-row')).toHaveCount(1, { timeout: 2 * STEP_TIMEOUT });
  await expect(page.getByTestId('eval-row').first()).toContainText('before training');

  await page.getByTestId('tab-perf').click();
  await page.getByTestId('profile').check();
  await page.getByTestId('single-step').click();
  await expect.poll(() => steps(page), { timeout: STEP_TIMEOUT }).toBe(1);
  await waitPaused(page);
  await expect(page.getByTestId('kernel-times')).toContainText('matmul');
  await expect(page.getByTestId('step-breakdown')).toContainText('rollout');
  await expect(page.getByTestId('perf-sandbox')).toContainText('calls/s');
  await page.screenshot({ path: 'test-results/ui-perf.png', fullPage: true });

  await page.getByTestId('tab-eval').click();
  await page.getByTestId('run-eval').click();
  await expect(page.getByTestId('eval-row')).toHaveCount(2, { timeout: 2 * STEP_TIMEOUT });
  await expect(page.getByTestId('eval-row').nth(1)).toContainText('after 1 steps');
  // The same problems before and after: the form kept its choices across tabs.
  await expect(page.getByTestId('eval-row').nth(1)).toContainText('heldout (2)');
  await page.screenshot({ path: 'test-results/ui-eval.png', fullPage: true });
});
