// LabPage over puppeteer-core driving Debian's firefox-esr through WebDriver BiDi: WebGPU from wgpu (naga validates
// the WGSL) on Mesa's lavapipe Vulkan driver, headless. Nothing is downloaded: the browser is the system's.
import { existsSync, readdirSync } from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { LabPage } from './lab-page';

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
const ICD_DIR = '/usr/share/vulkan/icd.d';

/** Mesa's lavapipe ICD (mesa-vulkan-drivers), so Firefox's wgpu gets a Vulkan adapter on a machine with no GPU. */
export function lavapipeIcd(): string | undefined {
  if (!existsSync(ICD_DIR)) return undefined;
  const f = readdirSync(ICD_DIR).find((n) => /^lvp_icd\..*\.json$/.test(n));
  return f ? `${ICD_DIR}/${f}` : undefined;
}

export async function launchFirefox(): Promise<Browser> {
  if (!existsSync(FIREFOX_PATH))
    throw new Error(`${FIREFOX_PATH} not found: install it with 'apt-get install -y firefox-esr mesa-vulkan-drivers'`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  // wgpu's Vulkan backend wants a runtime dir; lavapipe unless the caller pinned an ICD (e.g. SwiftShader's).
  env.XDG_RUNTIME_DIR ??= '/tmp';
  const icd = lavapipeIcd();
  if (!process.env.FIREFOX_VK_ICD && icd) env.VK_ICD_FILENAMES = icd;
  else if (process.env.FIREFOX_VK_ICD) env.VK_ICD_FILENAMES = process.env.FIREFOX_VK_ICD;
  return puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    env,
    extraPrefsFirefox: {
      'dom.webgpu.enabled': true,
      // Firefox ESR enables WebGPU only on allow-listed drivers; lavapipe is not one.
      'gfx.webgpu.ignore-blocklist': true,
    },
  });
}

export async function firefoxLabPage(
  browser: Browser,
  baseURL: string,
): Promise<{ lab: LabPage; close: () => Promise<void> }> {
  const page: Page = await browser.newPage();
  const logs: string[] = [];
  page.on('console', (m) => logs.push(m.text()));
  page.on('pageerror', (e) => logs.push(`pageerror: ${e instanceof Error ? e.message : String(e)}`));
  page.setDefaultTimeout(60_000);
  const lab: LabPage = {
    browser: 'firefox',
    logs,
    async goto(url) {
      await page.goto(new URL(url, baseURL).href, { waitUntil: 'load' });
    },
    async url() {
      return page.url();
    },
    evaluate: (fn, arg) => page.evaluate(fn as never, arg as never) as never,
    async waitFor(fn, arg, timeoutMs = 60_000) {
      await page.waitForFunction(fn as never, { timeout: timeoutMs, polling: 250 }, arg as never);
    },
    async waitVisible(selector, timeoutMs = 60_000) {
      await page.waitForSelector(selector, { visible: true, timeout: timeoutMs });
    },
    // Playwright clicks once the element is visible and enabled; puppeteer clicks at once, and a click on a button
    // still disabled is lost. The lab's Single step turns enabled one render after the adapter panel shows (the
    // panel reports the adapter in an effect), so under load modes.spec's click could land first and its step never
    // came (a 4-minute hang). Waiting as Playwright does makes both drivers click the same way.
    async click(selector) {
      await page.waitForFunction(
        (sel: string) => {
          const e = document.querySelector(sel);
          return e instanceof HTMLElement && e.offsetParent !== null && !e.hasAttribute('disabled');
        },
        { timeout: 60_000, polling: 100 },
        selector,
      );
      await page.click(selector);
    },
    async text(selector) {
      return (await page.$eval(selector, (e) => e.textContent)) ?? '';
    },
    async screenshot(path) {
      await page.screenshot({ path: path as `${string}.png`, fullPage: true });
    },
  };
  return { lab, close: () => page.close() };
}
