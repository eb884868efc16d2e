// Chart ticks a class can trust (issue 49): on the shipped reference runs and on a live micro run, every y tick of every
// chart is a nice number (1/2/5 × 10^k apart), its label reads back exactly as the value uPlot drew the gridline at,
// and the ticks lie inside the axis's own range.
import { expect, test, type Page } from '@playwright/test';
import { checkTicks } from './class-helpers';
import { shippedReference } from './shipped-reference';

const STEP_TIMEOUT = 240_000; // one micro step on SwiftShader, with room for a loaded machine

async function open(page: Page, hash = '') {
  await page.goto('/' + hash);
  await page.waitForSelector('html[data-restored="true"]');
}

test('ticks on the shipped reference runs: nice steps, labels exact, at 1920×1080 and 1280×720', async ({ page }) => {
  for (const [width, height] of [
    [1920, 1080],
    [1280, 720],
  ]) {
    await page.setViewportSize({ width, height });
    await open(page, '#preset=tiny&mode=code-a1&seed=1');
    if (!(await page.getByTestId('run-row').count())) await page.getByTestId('controls-reference').click();
    const steps = String(shippedReference().steps);
    await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-steps', steps);
    await page.waitForTimeout(300);
    expect(await checkTicks(page)).toBeGreaterThanOrEqual(4);
    // Smoothing and the log scale redraw the axes: still exact.
    await page.getByTestId('smoothing').fill('0.6');
    await page.waitForTimeout(300);
    expect(await checkTicks(page)).toBeGreaterThanOrEqual(4);
    await page.getByTestId('log-scale').check();
    await page.waitForTimeout(300);
    expect(await checkTicks(page)).toBeGreaterThanOrEqual(4);
    await page.getByTestId('log-scale').uncheck();
    await page.getByTestId('smoothing').fill('0');
  }
});

test('ticks on a live micro run after its first step', async ({ page }) => {
  test.setTimeout(3 * STEP_TIMEOUT);
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, '#preset=micro&mode=code-a1&seed=2');
  await page.getByTestId('single-step').click();
  await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-steps', '1', {
    timeout: 2 * STEP_TIMEOUT,
  });
  await page.waitForTimeout(300);
  expect(await checkTicks(page)).toBeGreaterThanOrEqual(4);
});
