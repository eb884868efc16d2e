// Playwright: end-to-end specs against the built app. Project 'chromium': every spec, in the system Chromium (WebGPU
// from Dawn/Tint on SwiftShader). Project 'firefox': the shared specs (written once against e2e/driver's LabPage) in
// Debian's firefox-esr driven by puppeteer-core over WebDriver BiDi (WebGPU from wgpu/naga on Mesa's lavapipe).
import { defineConfig } from '@playwright/test';
import type { LabBrowser } from './e2e/driver/lab-page';

// PW_PORT lets several checkouts run their specs side by side without sharing a server.
const port = Number(process.env.PW_PORT ?? 4173);

/** Specs written against the LabPage driver; these run in both browsers. */
export const SHARED_SPECS = [
  'kernels.spec.ts',
  'ui-regression.spec.ts',
  'sandbox.spec.ts',
  'hf.spec.ts',
  'modes.spec.ts',
];

export default defineConfig<object, { labBrowser: LabBrowser }>({
  testDir: 'e2e',
  timeout: 180_000,
  expect: { timeout: 60_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: 'on',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--enable-unsafe-webgpu',
        '--enable-features=Vulkan',
        '--no-sandbox',
        '--headless=new',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    // The UI specs already train every mode in Chromium; its copy of modes.spec runs with E2E_ALL=1 (npm test's time).
    {
      name: 'chromium',
      testIgnore: process.env.E2E_ALL === '1' ? [] : ['modes.spec.ts'],
      use: { labBrowser: 'chromium' },
    },
    // Retries in Firefox: in each of two full runs one mode's micro step (golden, then tcs) never landed in 4 minutes
    // after the kernel and HF specs had run in the same browser; the retry, in a fresh browser, passed in ~6 s, as does
    // the spec alone. A retried pass is reported as flaky; the cause is not found yet. Reproduced once since (ace, in
    // kernels + hf + modes run three times): the click had started the step and the Worker never finished opening the
    // run; the failure message now names the opening stage it waits in.
    { name: 'firefox', testMatch: SHARED_SPECS, retries: 2, use: { labBrowser: 'firefox' } },
  ],
  webServer: {
    command: `npx vite preview --port ${port} --strictPort --host 127.0.0.1`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
