// Small fixes a class notices (issue 49): α and its error in presenter view, sections that keep their open state,
// the seed checked like every other field, and a favicon (no 404 while the page loads).
import { expect, test, type Page } from '@playwright/test';

async function open(page: Page, hash = '') {
  await page.goto('/' + hash);
  await page.waitForSelector('html[data-restored="true"]');
}

test('no request 404s on load; the favicon is served', async ({ page }) => {
  const missing: string[] = [];
  let icon = 0;
  page.on('response', (r) => {
    if (r.status() === 404) missing.push(r.url());
    if (/favicon/.test(r.url()) && r.ok()) icon++;
  });
  await open(page);
  await page.waitForLoadState('networkidle');
  expect(missing).toEqual([]);
  expect(icon).toBeGreaterThan(0);
  // Browsers (and bookmarks, and tabs opened without the page's <link>) still ask for /favicon.ico.
  const ico = await page.request.get('/favicon.ico');
  expect(ico.status()).toBe(200);
  expect((await ico.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
});

test('presenter view: α is on screen in the collapsed section; an invalid α opens it, blocks Start, and clearing it does not snap it shut', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await open(page, '#preset=micro&mode=code-a1&seed=1');
  await expect(page.getByTestId('presenter-toggle')).toBeChecked();
  const section = page.getByTestId('hyperparameters');
  await expect(section).not.toHaveAttribute('open');
  await expect(page.getByTestId('hp-summary')).toBeVisible();
  await expect(page.getByTestId('hp-summary')).toContainText('α 0.5');
  await section.locator('summary').click();
  await page.getByTestId('hp-alpha').fill('2');
  await expect(page.getByTestId('hp-error-alpha')).toBeVisible();
  await expect(page.getByTestId('hp-invalid-summary')).toContainText('α');
  await expect(page.getByTestId('start')).toBeDisabled();
  await expect(page.getByTestId('start-blocked')).toContainText('α');
  // Closing it keeps the error in sight in the summary line.
  await section.locator('summary').click();
  await expect(section).not.toHaveAttribute('open');
  await expect(page.getByTestId('hp-invalid-summary')).toBeVisible();
  await section.locator('summary').click();
  await page.getByTestId('hp-alpha').fill('0.9');
  await expect(page.getByTestId('hp-summary')).toContainText('α 0.9');
  await page.getByTestId('hp-alpha').fill('');
  // The last changed field cleared: the section stays open, Start is allowed again.
  await expect(section).toHaveAttribute('open');
  await expect(page.getByTestId('hp-summary')).toContainText('α 0.5');
  await expect(page.getByTestId('start')).toBeEnabled();
});

test('the seed is checked like the other fields: blank, −5 and 1.5 each get a message and block Start', async ({
  page,
}) => {
  await open(page, '#preset=micro&mode=code-a1&seed=3');
  const seed = page.getByTestId('seed');
  await expect(seed).toHaveValue('3');
  for (const [text, words] of [
    ['', 'enter a whole number'],
    ['-5', 'below 0'],
    ['1.5', 'not a whole number'],
    ['abc', 'not a number'],
  ]) {
    await seed.fill(text);
    await expect(page.getByTestId('seed-error'), text).toContainText(words);
    await expect(seed).toHaveValue(text); // what was typed stays, nothing is silently replaced
    await expect(page.getByTestId('start')).toBeDisabled();
    await expect(page.getByTestId('single-step')).toBeDisabled();
    await expect(page.getByTestId('start-blocked')).toContainText('seed');
    // The run would not use it: the config keeps the last valid seed.
    expect(await page.evaluate(() => window.__lab!.store.getState().config.seed)).toBe(3);
  }
  await seed.fill('7');
  await expect(page.getByTestId('seed-error')).toHaveCount(0);
  await expect(page.getByTestId('start')).toBeEnabled();
  await expect.poll(() => page.evaluate(() => location.hash)).toContain('seed=7');
});
