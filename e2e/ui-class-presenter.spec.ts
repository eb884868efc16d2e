// The presenter view on a projector (issue 49), at 1920×1080 and 1280×720: the loop diagram and the first two charts
// on the first screen, key numbers ≥ 24 px and chart text ≥ 16 px (computed styles; the axes' canvas font as set),
// the page using the full width, notices that cover nothing they would push, axe clean; a screenshot of each size
// (UPDATE_SCREENSHOTS=1 writes them to docs/screenshots).
import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { sampleBundle } from '../src/app/testing/sample-bundle';
import { shippedReference } from './shipped-reference';

const REFS = shippedReference().runs.length;

async function open(page: Page, hash = '') {
  await page.goto('/' + hash);
  await page.waitForSelector('html[data-restored="true"]');
}

const px = (l: Locator) => l.evaluate((e) => parseFloat(getComputedStyle(e).fontSize));

test('presenter view at 1920×1080 and 1280×720: first screen, font sizes, full width, notices, axe, screenshots', async ({
  page,
}) => {
  const dir = process.env.UPDATE_SCREENSHOTS ? 'docs/screenshots' : 'test-results/screenshots';
  mkdirSync(dir, { recursive: true });
  for (const [width, height] of [
    [1920, 1080],
    [1280, 720],
  ]) {
    await page.setViewportSize({ width, height });
    await open(page, '#preset=tiny&mode=code-a1&seed=1');
    // A step's records for the diagram's counts, and the reference runs to compare with.
    await page.getByTestId('import').setInputFiles({
      name: 'class.codea1',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(sampleBundle(8, 40).bytes),
    });
    await expect(page.getByTestId('run-step')).toHaveText('40');
    if ((await page.getByTestId('run-row').count()) < REFS + 1) await page.getByTestId('controls-reference').click();
    await expect(page.getByTestId('run-row')).toHaveCount(REFS + 1);
    await page.getByTestId('smoothing').fill('0.5');
    await page.waitForTimeout(400);
    const why = `${width}×${height}`;

    // The first screen: the diagram and two charts whole, without scrolling.
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const id of ['loop-diagram', 'chart-coder-reward', 'chart-tester-reward', 'start']) {
      const b = (await page.getByTestId(id).boundingBox())!;
      expect(b.y + b.height, `${id} on the first screen at ${why}`).toBeLessThanOrEqual(height);
      expect(b.x + b.width, `${id} at ${why}`).toBeLessThanOrEqual(width);
    }
    // The page uses the screen: no 1400 px cap.
    expect((await page.locator('main.lab').boundingBox())!.width).toBeGreaterThan(width - 40);

    // Key numbers ≥ 24 px; chart text ≥ 16 px.
    const nums = page.locator('[data-testid^="loop-count-"] .num');
    expect(await nums.count(), why).toBeGreaterThan(5);
    for (const n of await nums.all()) expect(await px(n), why).toBeGreaterThanOrEqual(24);
    expect(await px(page.getByTestId('run-step'))).toBeGreaterThanOrEqual(24);
    for (const sel of ['.chart figcaption', '.chart-legend li']) {
      const els = await page.locator(sel).all();
      expect(els.length).toBeGreaterThan(0);
      for (const e of els.slice(0, 6)) expect(await px(e), `${sel} at ${why}`).toBeGreaterThanOrEqual(16);
    }
    const font = (await page.getByTestId('chart-coder-reward').getAttribute('data-axis-font'))!;
    expect(parseFloat(font), `axis font ${font}`).toBeGreaterThanOrEqual(16);

    // A notice appears without moving what is on screen.
    const before = (await page.getByTestId('chart-coder-reward').boundingBox())!.y;
    await page.getByTestId('import').setInputFiles({
      name: 'broken.codea1',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('not a bundle'),
    });
    await expect(page.getByTestId('error-banner')).toBeVisible();
    expect((await page.getByTestId('chart-coder-reward').boundingBox())!.y).toBe(before);
    const banner = (await page.getByTestId('error-banner').boundingBox())!;
    expect(banner.y + banner.height).toBeLessThanOrEqual(height);
    await page.getByTestId('error-banner').getByRole('button', { name: 'dismiss' }).click();

    const res = await new AxeBuilder({ page }).analyze();
    const bad = res.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await page.screenshot({ path: `${dir}/presenter-${width}x${height}.png` });
  }
});
