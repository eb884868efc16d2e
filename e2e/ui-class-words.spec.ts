// One vocabulary across views (issue 49): the presenter diagram's counts of a step equal what the Rollouts inspector
// shows test by test (valid, wrong expected, invalid) and candidate by candidate (breaks), in the same words; the
// step-through glossary defines them; no view uses another word for the same thing.
import { expect, test, type Page } from '@playwright/test';
import { sampleBundle } from '../src/app/testing/sample-bundle';

async function open(page: Page, hash = '') {
  await page.goto('/' + hash);
  await page.waitForSelector('html[data-restored="true"]');
}

/** Sums the Rollouts tab's per-test kinds and per-candidate breaks over every problem of the step shown. */
export async function inspectorCounts(page: Page) {
  await page.getByTestId('tab-rollouts').click();
  const problems = await page.getByTestId('rollout-problem').locator('option').count();
  const kinds: Record<string, number> = {};
  let breaks = 0;
  for (let i = 0; i < problems; i++) {
    await page.getByTestId('rollout-problem').selectOption(String(i));
    for (const k of await page
      .getByTestId('test-line')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')!)))
      kinds[k] = (kinds[k] ?? 0) + 1;
    for (const b of await page
      .getByTestId('candidate-tests')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-breaks')))))
      breaks += b;
  }
  return { kinds, breaks };
}

export async function checkOneVocabulary(page: Page) {
  const diagram = page.getByTestId('loop-diagram');
  const valid = Number(await diagram.getAttribute('data-valid'));
  const invalid = Number(await diagram.getAttribute('data-invalid'));
  const diagramBreaks = Number(await diagram.getAttribute('data-breaks'));
  const validationText = (await page.getByTestId('loop-count-validation').textContent())!;
  expect(validationText).toContain(`${valid} valid · ${invalid} invalid`);
  await expect(page.getByTestId('loop-count-execution')).toContainText(`${diagramBreaks} break`);
  const { kinds, breaks } = await inspectorCounts(page);
  const n = (k: string) => kinds[k] ?? 0;
  expect(n('valid') + n('wrong-expected'), JSON.stringify(kinds)).toBe(valid);
  // Malformed lines are not test lines: they are listed per tester rollout; the sample records have none.
  expect(n('wrong-expected') + n('raised') + n('repeat')).toBeLessThanOrEqual(invalid);
  expect(breaks).toBe(diagramBreaks);
  // The inspector's words are the glossary's; the old mixed words are gone from every view.
  for (const tab of ['rollouts', 'steps', 'mistakes']) {
    await page.getByTestId(`tab-${tab}`).click();
    const text = (await page.locator('main').textContent())!;
    expect(text).not.toContain('invalid·attack');
    expect(text).not.toContain('invalid pass');
    expect(text).not.toContain('expected value matches');
  }
  await page.getByTestId('tab-steps').click();
  const glossary = page.getByTestId('glossary');
  for (const w of ['valid test', 'wrong expected', 'invalid', 'attack', 'break', 'replay'])
    await expect(glossary).toContainText(w);
  await page.getByTestId('tab-charts').click();
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
