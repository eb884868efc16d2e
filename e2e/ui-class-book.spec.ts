// The Mistake Book as a teaching tool (issue 49): a short explanation first, problems collapsed, and per entry the
// test's expected value, what the broken candidate did, the candidate's code, and when the test was born and
// replayed; an entry saved before these fields existed says so instead of showing blanks.
import { expect, test, type Page } from '@playwright/test';
import { sampleBundle } from '../src/app/testing/sample-bundle';

async function open(page: Page, hash = '') {
  await page.goto('/' + hash);
  await page.waitForSelector('html[data-restored="true"]');
}

/** Opens every problem of the book and checks each entry's teaching fields; returns how many entries had them. */
export async function checkBookEntries(page: Page): Promise<number> {
  await page.getByTestId('tab-mistakes').click();
  await expect(page.getByTestId('mistake-explain')).toContainText('broke a candidate');
  const groups = page.getByTestId('mistake-group');
  const n = await groups.count();
  expect(n).toBeGreaterThan(0);
  // Collapsed by default: no entry is visible until its problem is opened.
  for (let i = 0; i < n; i++) await expect(groups.nth(i)).not.toHaveAttribute('open');
  await expect(page.getByTestId('mistake-entry').first()).toBeHidden();
  let full = 0;
  for (let i = 0; i < n; i++) {
    await groups.nth(i).locator('summary').first().click();
    for (const e of await groups.nth(i).getByTestId('mistake-entry').all()) {
      await expect(e).toBeVisible();
      const testText = (await e.locator('.book-test').textContent())!;
      const expected = (await e.getByTestId('mistake-expected').textContent())!;
      expect(testText.endsWith(`== ${expected}`), `${testText} / ${expected}`).toBe(true);
      await expect(e.getByTestId('lineage-born')).toHaveText(/^step \d+$/);
      await expect(e.getByTestId('mistake-replayed')).toContainText(/replayed|not replayed yet/);
      const got = (await e.getByTestId('mistake-got').textContent())!;
      if (got.includes('not recorded')) continue;
      full++;
      expect(got.length).toBeGreaterThan(0);
      await e.locator('.book-candidate summary').click();
      await expect(e.getByTestId('mistake-candidate')).toContainText('def ');
    }
  }
  return full;
}

test('Mistake Book entries: explanation, collapsed problems, expected vs got, candidate, born and replayed', async ({
  page,
}) => {
  await open(page);
  await page.getByTestId('import').setInputFiles({
    name: 'sample.codea1',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(sampleBundle(5, 3).bytes),
  });
  await expect(page.getByTestId('run-step')).toHaveText('3');
  const full = await checkBookEntries(page);
  expect(full).toBe(4); // the sample book's 8 entries: every other one has the teaching fields
  await expect(page.getByTestId('mistakes')).toContainText('not recorded (an older run)');
  await expect(page.getByTestId('mistakes')).toContainText('replayed');
});
