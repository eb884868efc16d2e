// LabPage over a Playwright Page (Chromium, Dawn/Tint on SwiftShader here).
import type { Page } from '@playwright/test';
import type { LabPage } from './lab-page';

export function playwrightLabPage(page: Page): LabPage {
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));
  page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
  return {
    browser: 'chromium',
    logs,
    async goto(url) {
      await page.goto(url);
    },
    async url() {
      return page.url();
    },
    evaluate: (fn, arg) => page.evaluate(fn, arg as never),
    async waitFor(fn, arg, timeoutMs = 60_000) {
      await page.waitForFunction(fn, arg as never, { timeout: timeoutMs });
    },
    async waitVisible(selector, timeoutMs = 60_000) {
      await page.locator(selector).first().waitFor({ state: 'visible', timeout: timeoutMs });
    },
    async click(selector) {
      await page.locator(selector).first().click();
    },
    async text(selector) {
      return (await page.locator(selector).first().textContent()) ?? '';
    },
    async screenshot(path) {
      await page.screenshot({ path, fullPage: true });
    },
  };
}
