// One vocabulary across views (issue 49): the presenter diagram's counts of a step equal what the Rollouts inspector
// shows test by test (valid, wrong expected, invalid) and candidate by candidate (breaks), in the same words; the
// step-through glossary defines them; no view uses another word for the same thing.
import { expect, test, type Page } from '@playwright/test';
import { checkOneVocabulary } from './class-helpers';
import { sampleBundle } from '../src/app/testing/sample-bundle';

async function open(page: Page, hash = '') {
  await page.goto('/' + hash);
  await page.waitForSelector('html[data-restored="true"]');
}

test('one vocabulary on imported records: diagram counts = inspector counts, one glossary', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await open(page);
  await page.getByTestId('import').setInputFiles({
    name: 'sample.codea1',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(sampleBundle(11, 3).bytes),
  });
  await expect(page.getByTestId('loop-diagram')).toHaveAttribute('data-step', '2');
  await checkOneVocabulary(page);
  // One step convention: 3 steps done, the last is step 2, as on the charts' x axis and in the diagram.
  await expect(page.getByTestId('run-status')).toContainText('3 steps done (last: step 2)');
  await expect(page.getByTestId('loop-diagram')).toContainText('counts from step 2');
});
