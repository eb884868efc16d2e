// Chart ticks a class can trust (issue 49): on the shipped reference runs and on a live micro run, every y tick of every
// chart is a nice number (1/2/5 × 10^k apart), its label reads back exactly as the value uPlot drew the gridline at,
// and the ticks lie inside the axis's own range.
import { expect, test, type Page } from '@playwright/test';

const STEP_TIMEOUT = 240_000; // one micro step on SwiftShader, with room for a loaded machine

async function open(page: Page, hash = '') {
  await page.goto('/' + hash);
  await page.waitForSelector('html[data-restored="true"]');
}

/** Checks every visible chart's y ticks; returns how many charts had ticks. */
export async function checkTicks(page: Page): Promise<number> {
  const charts = await page.locator('[data-testid^="chart-"][data-yticks]').all();
  let n = 0;
  for (const c of charts) {
    const id = await c.getAttribute('data-testid');
    const labels = (await c.getAttribute('data-yticks'))!.split('|').filter((x) => x !== '');
    const values = (await c.getAttribute('data-yvalues'))!
      .split('|')
      .filter((x) => x !== '')
      .map(Number);
    const log = (await c.getAttribute('data-ylog')) === 'true';
    const why = `${id}: ${labels.join(', ')}`;
    expect(labels.length, why).toBe(values.length);
    if (!labels.length) continue;
    n++;
    labels.forEach((l, i) => expect(Number(l), why).toBe(values[i]));
    expect(new Set(labels).size, why).toBe(labels.length);
    const range = (await c.getAttribute('data-yrange'))!.split('..').map(Number);
    for (const v of values) {
      expect(v, why).toBeGreaterThanOrEqual(range[0] - 1e-9 * Math.abs(range[1] - range[0]));
      expect(v, why).toBeLessThanOrEqual(range[1] + 1e-9 * Math.abs(range[1] - range[0]));
    }
    if (log || values.length < 2) continue;
    const step = values[1] - values[0];
    const k = Math.floor(Math.log10(step) + 1e-9);
    const m = step / 10 ** k;
    expect(
      [1, 2, 5].some((x) => Math.abs(m - x) < 1e-6),
      `${why}: step ${step}`,
    ).toBe(true);
    for (let i = 1; i < values.length; i++)
      expect(Math.abs(values[i] - values[i - 1] - step) / step, why).toBeLessThan(1e-6);
    for (const v of values) expect(Math.abs(v / step - Math.round(v / step)), why).toBeLessThan(1e-6);
  }
  return n;
}

test('ticks on the shipped reference runs: nice steps, labels exact, at 1920×1080 and 1280×720', async ({ page }) => {
  for (const [width, height] of [
    [1920, 1080],
    [1280, 720],
  ]) {
    await page.setViewportSize({ width, height });
    await open(page, '#preset=tiny&mode=code-a1&seed=1');
    if (!(await page.getByTestId('run-row').count())) await page.getByTestId('controls-reference').click();
    await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-steps', '40');
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
