// The Mistake Book as a teaching tool (issue 49): a short explanation first, problems collapsed, and per entry the
// test's expected value, what the broken candidate did, the candidate's code, and when the test was born and
// replayed; an entry saved before these fields existed says so instead of showing blanks.
import { expect, test, type Page } from '@playwright/test';
import { checkBookEntries } from './class-helpers';
import { sampleBundle } from '../src/app/testing/sample-bundle';

async function open(page: Page, hash = '') {
  await page.goto('/' + hash);
  await page.waitForSelector('html[data-restored="true"]');
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
