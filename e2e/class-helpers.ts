// Checks the issue-49 specs share (on imported, reference and live runs alike): exact chart ticks, one vocabulary
// across views, the Mistake Book's teaching fields.
import { expect, type Page } from '@playwright/test';

/** Checks every visible chart's y ticks; returns how many charts had ticks. */
export async function checkTicks(page: Page): Promise<number> {
  const charts = await page.locator('[data-testid^="chart-"][data-yticks]').all();
  let n = 0;
  for (const c of charts) {
    const id = await c.getAttribute('data-testid');
    const labels = (await c.getAttribute('data-yticks'))!.split('|').filter((x) => x !== '');
    const values = (await c.getAttribute('data-yvalues'))!
      .split('|')
      .filter((x) => x !== '')
      .map(Number);
    const log = (await c.getAttribute('data-ylog')) === 'true';
    const why = `${id}: ${labels.join(', ')}`;
    expect(labels.length, why).toBe(values.length);
    if (!labels.length) continue;
    n++;
    labels.forEach((l, i) => expect(Number(l), why).toBe(values[i]));
    expect(new Set(labels).size, why).toBe(labels.length);
    const range = (await c.getAttribute('data-yrange'))!.split('..').map(Number);
    for (const v of values) {
      expect(v, why).toBeGreaterThanOrEqual(range[0] - 1e-9 * Math.abs(range[1] - range[0]));
      expect(v, why).toBeLessThanOrEqual(range[1] + 1e-9 * Math.abs(range[1] - range[0]));
    }
    if (log || values.length < 2) continue;
    const step = values[1] - values[0];
    const k = Math.floor(Math.log10(step) + 1e-9);
    const m = step / 10 ** k;
    expect(
      [1, 2, 5].some((x) => Math.abs(m - x) < 1e-6),
      `${why}: step ${step}`,
    ).toBe(true);
    for (let i = 1; i < values.length; i++)
      expect(Math.abs(values[i] - values[i - 1] - step) / step, why).toBeLessThan(1e-6);
    for (const v of values) expect(Math.abs(v / step - Math.round(v / step)), why).toBeLessThan(1e-6);
  }
  return n;
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
