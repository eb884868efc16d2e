// The test object shared specs import: Playwright's runner with a `lab` page fixture whose browser comes from the
// project (playwright.config.ts: 'chromium' through Playwright, 'firefox' through puppeteer-core/BiDi).
import { test as base, type Browser as PwBrowser } from '@playwright/test';
import type { Browser as FfBrowser } from 'puppeteer-core';
import type { LabBrowser, LabPage } from './lab-page';
import { playwrightLabPage } from './playwright-page';
import { firefoxLabPage, launchFirefox } from './firefox-page';

export { expect } from '@playwright/test';
export { byTestId, type LabBrowser, type LabPage } from './lab-page';

interface WorkerFixtures {
  labBrowser: LabBrowser;
  /** Launched only in the project that uses it: fixture dependencies are static, so neither asks for `browser`. */
  labChromium: PwBrowser | undefined;
  labFirefox: FfBrowser | undefined;
}

export const test = base.extend<{ lab: LabPage }, WorkerFixtures>({
  labBrowser: ['chromium', { option: true, scope: 'worker' }],
  labChromium: [
    async ({ labBrowser, playwright, launchOptions }, use) => {
      if (labBrowser !== 'chromium') return use(undefined);
      const browser = await playwright.chromium.launch(launchOptions);
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],
  // One Firefox per worker (about 3 s to start); each test gets a fresh page in it.
  labFirefox: [
    async ({ labBrowser }, use) => {
      if (labBrowser !== 'firefox') return use(undefined);
      const browser = await launchFirefox();
      await use(browser);
      await browser.close();
    },
    { scope: 'worker' },
  ],
  lab: async ({ labChromium, labFirefox, baseURL }, use) => {
    const base = baseURL ?? 'http://127.0.0.1:4173';
    if (labChromium) {
      const context = await labChromium.newContext({ baseURL: base });
      await use(playwrightLabPage(await context.newPage()));
      await context.close();
    } else if (labFirefox) {
      const { lab, close } = await firefoxLabPage(labFirefox, base);
      await use(lab);
      await close();
    } else throw new Error('no lab browser launched');
  },
});
