// The lab page loads in Chromium and lists the WebGPU adapter (SwiftShader here).
import { expect, test } from '@playwright/test';

test('page shows the WebGPU adapter', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Code-A1 Lab' })).toBeVisible();
  await expect(page.getByTestId('adapter')).toBeVisible();
  const vendor = await page.getByTestId('adapter-vendor').textContent();
  expect(vendor?.length).toBeGreaterThan(0);
  await expect(page.getByTestId('adapter-features')).toContainText('Features:');
  // Cross-origin isolation is required for SharedArrayBuffer (Pyodide interrupts).
  expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
  await page.screenshot({ path: 'test-results/adapter.png', fullPage: true });
});

test('without WebGPU the page says what is needed', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'gpu', { value: undefined, configurable: true });
  });
  await page.goto('/');
  await expect(page.getByTestId('no-webgpu')).toContainText('WebGPU is not available');
  await expect(page.getByTestId('no-webgpu')).toContainText('Chrome');
});
