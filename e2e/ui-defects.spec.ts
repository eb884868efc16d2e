// The defects found when the lab was tried as a new user would (issue 20), each checked without training: a refused
// model upload, an invalid hyperparameter blocking Start, notices where the action happened, chart axes, Perf bar
// labels, step-through texts per mode, the heatmap legend on screen, accessibility (axe) and a phone-width layout.
import { readFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { sampleBundle } from '../src/app/testing/sample-bundle';
import { encodeBundle } from '../src/app/persist/bundle';
import { shippedReference } from './shipped-reference';

async function fresh(page: Page, hash = '') {
  await page.goto('/' + hash);
  await page.waitForSelector('html[data-restored="true"]');
}

const bundleFile = (bytes: Uint8Array, name = 'sample.codea1') => ({
  name,
  mimeType: 'application/octet-stream',
  buffer: Buffer.from(bytes),
});

test('a broken model upload is refused when picked, names the model, and the preset’s models stay in use', async ({
  page,
}) => {
  await fresh(page, '#preset=micro&mode=code-a1&seed=1');
  await page.getByTestId('tab-model').click();
  const broken = [
    {
      name: 'model.safetensors',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('not a safetensors file at all'),
    },
    { name: 'config.json', mimeType: 'application/json', buffer: Buffer.from('{}') },
    { name: 'tokenizer.json', mimeType: 'application/json', buffer: Buffer.from('{}') },
  ];
  await page.getByTestId('model-coder-files').setInputFiles(broken);
  await expect(page.getByTestId('model-error')).toContainText('coder model: these files do not load as a model');
  // Nothing of the broken set is used: the next run starts from the shipped micro models.
  await expect(page.getByTestId('model-in-use-coder')).toContainText('shipped public/models/micro/coder');
  await expect(page.getByTestId('model-in-use-tester')).toContainText('shipped public/models/micro/tester');
  await page.getByTestId('model-tester-files').setInputFiles(broken);
  await expect(page.getByTestId('model-error')).toContainText('tester model:');
  // A good set is taken, shown as in use, and one click goes back to the preset's models.
  const dir = 'public/models/micro/coder';
  const good = ['model.safetensors', 'config.json', 'tokenizer.json'].map((n) => ({
    name: n,
    mimeType: 'application/octet-stream',
    buffer: readFileSync(`${dir}/${n}`),
  }));
  await page.getByTestId('model-coder-files').setInputFiles(good);
  await expect(page.getByTestId('model-in-use-coder')).toContainText(
    'your files (model.safetensors, config.json, tokenizer.json)',
  );
  await expect(page.getByTestId('model-error')).toHaveCount(0);
  await page.getByTestId('model-use-shipped').click();
  await expect(page.getByTestId('model-in-use-coder')).toContainText('shipped public/models/micro/coder');
  await page.screenshot({ path: 'test-results/ui-model-refused.png', fullPage: true });
});

test('an invalid hyperparameter disables Start and Single step until it is fixed', async ({ page }) => {
  await fresh(page, '#preset=micro&mode=code-a1&seed=1');
  await expect(page.getByTestId('start')).toBeEnabled();
  // Folded away in the presenter view: open it the way a user would.
  if (!(await page.getByTestId('hp-alpha').isVisible()))
    await page.locator('summary', { hasText: 'Hyperparameters' }).click();
  await page.getByTestId('hp-alpha').fill('0.9.1');
  await expect(page.getByTestId('hp-error-alpha')).toContainText('is not a number');
  await expect(page.getByTestId('start')).toBeDisabled();
  await expect(page.getByTestId('single-step')).toBeDisabled();
  await expect(page.getByTestId('start-blocked')).toContainText('α');
  await page.getByTestId('hp-lr').fill('7');
  await page.getByTestId('hp-alpha').fill('0.9');
  await expect(page.getByTestId('start')).toBeDisabled(); // lr 7 is out of range
  await page.getByTestId('hp-lr').fill('0.002');
  await expect(page.getByTestId('start')).toBeEnabled();
  await expect(page.getByTestId('single-step')).toBeEnabled();
  expect(await page.evaluate(() => window.__lab!.store.getState().config.overrides)).toEqual({ alpha: 0.9, lr: 0.002 });
});

test('errors show beside the action, in view, and clear when the next action succeeds', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await fresh(page);
  const storage = page.getByTestId('storage');
  await storage.scrollIntoViewIfNeeded();
  await page
    .getByTestId('import')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello, not a bundle') });
  const err = storage.getByTestId('error-banner');
  await expect(err).toContainText('Import of notes.txt failed');
  await expect(err).toBeInViewport();
  await page.getByTestId('import').setInputFiles(bundleFile(sampleBundle(3, 4).bytes));
  await expect(page.getByTestId('error-banner')).toHaveCount(0);
  await expect(storage.getByTestId('info-banner')).toContainText('Imported sample.codea1');
});

test('charts: a one-step run spans steps 0..1, ticks tell small values apart, every chart labels its y axis', async ({
  page,
}) => {
  await fresh(page);
  const { bundle } = sampleBundle(5, 1);
  // KL values of order 1e-3, as a real run has them.
  bundle.metrics = bundle.metrics.map((m) => ({
    ...m,
    'coder/kl': 0.0012,
    'tester/kl': 0.0041,
    'rollout/mismatch_kl': 0.0003,
  }));
  await page.getByTestId('import').setInputFiles(bundleFile(encodeBundle(bundle)));
  await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-steps', '1');
  await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-xrange', '0..1');
  const ticks = (await page.getByTestId('chart-kl').getAttribute('data-yticks'))!.split('|');
  expect(ticks.length).toBeGreaterThan(2);
  expect(new Set(ticks).size).toBe(ticks.length);
  for (const c of await page.locator('[data-testid^="chart-"][data-ylabel]').all())
    expect((await c.getAttribute('data-ylabel'))!.length).toBeGreaterThan(1);
  expect(await page.locator('[data-testid^="chart-"][data-ylabel]').count()).toBe(13);
  await page.getByTestId('tab-mistakes').click();
  await expect(page.getByTestId('chart-book-growth')).toHaveAttribute('data-xrange', '0..1');
  await expect(page.getByTestId('chart-book-growth')).toHaveAttribute('data-ylabel', 'tests');
});

test('Perf: a 0 s part takes no width and the labels do not overlap', async ({ page }) => {
  await fresh(page);
  const { bundle } = sampleBundle(6, 2);
  const times = { 'time/rollout_s': 1.2, 'time/sandbox_s': 0.3, 'time/update_s': 19, 'time/step_s': 20.5 };
  bundle.metrics = bundle.metrics.map((m) => ({ ...m, ...times }));
  await page.getByTestId('import').setInputFiles(bundleFile(encodeBundle(bundle)));
  await page.getByTestId('tab-perf').click();
  const breakdown = page.getByTestId('step-breakdown');
  await expect(breakdown).toContainText('update 19.00 s');
  await expect(breakdown.locator('[data-seg="other"]')).toHaveCount(0);
  await expect(breakdown.locator('[data-seg="update"]')).toHaveCount(1);
  const boxes = await Promise.all((await page.getByTestId('breakdown-label').all()).map((l) => l.boundingBox()));
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i]!, boxes[j]!];
      const overlap = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      expect(overlap, `labels ${i} and ${j} overlap`).toBe(false);
    }
});

test('step-through texts follow the mode', async ({ page }) => {
  await fresh(page, '#preset=micro&mode=self-play&seed=1');
  await page.getByTestId('tab-steps').click();
  await expect(page.getByTestId('phase-explain-tester-rollout')).toContainText('the same model');
  await expect(page.getByTestId('phase-explain-tester-rollout')).not.toContainText('separate model');
  // The mode chosen in the form changes the texts at once.
  await page.getByTestId('mode').selectOption('golden');
  await expect(page.getByTestId('phase-explain-rewards')).toContainText('no Tester reward');
  await page.getByTestId('mode').selectOption('code-a1');
  await expect(page.getByTestId('phase-explain-tester-rollout')).toContainText('separate model');
});

test('the heatmap legend is on screen', async ({ page }) => {
  await fresh(page);
  await page.getByTestId('import').setInputFiles(bundleFile(sampleBundle(3, 4).bytes));
  await page.getByTestId('tab-rollouts').click();
  const legend = page.getByTestId('heatmap-legend');
  await expect(legend).toBeVisible();
  await expect(legend).toContainText('valid · wrong expected');
  await expect(legend).toContainText('not aimed at this candidate');
});

const TABS = ['charts', 'rollouts', 'mistakes', 'steps', 'eval', 'perf', 'model'];

test('accessibility: axe finds no serious or critical violation on any panel; tabs work with arrow keys', async ({
  page,
}) => {
  await fresh(page);
  await page.getByTestId('import').setInputFiles(bundleFile(sampleBundle(3, 4).bytes));
  await expect(page.getByTestId('run-step')).toHaveText('4');
  for (const presenter of [true, false]) {
    await page.getByTestId('presenter-toggle').setChecked(presenter);
    for (const t of TABS) {
      await page.getByTestId(`tab-${t}`).click();
      const res = await new AxeBuilder({ page }).analyze();
      const bad = res.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(
        bad.map((v) => `${t}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    }
  }
  // One Tab stop for the tab list; arrows move between tabs.
  await page.getByTestId('tab-charts').click();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('tab-rollouts')).toBeFocused();
  await expect(page.getByTestId('tab-rollouts')).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('End');
  await expect(page.getByTestId('tab-model')).toHaveAttribute('aria-selected', 'true');
  // Start is among the first stops of the page.
  await fresh(page);
  let presses = 0;
  while (presses < 6 && !(await page.getByTestId('start').evaluate((el) => el === document.activeElement))) {
    await page.keyboard.press('Tab');
    presses++;
  }
  expect(presses).toBeLessThanOrEqual(3);
});

test('phone width: nothing overflows sideways and Start is above the fold, on every panel', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await fresh(page);
  await page.getByTestId('import').setInputFiles(bundleFile(sampleBundle(3, 4).bytes));
  await expect(page.getByTestId('run-step')).toHaveText('4');
  await page.getByTestId('load-reference').click();
  await expect(page.getByTestId('run-row')).toHaveCount(shippedReference().runs.length + 1);
  for (const t of TABS) {
    await page.getByTestId(`tab-${t}`).click();
    await page.evaluate(() => window.scrollTo(0, 0));
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `page width on ${t}`).toBeLessThanOrEqual(390);
    const start = (await page.getByTestId('start').boundingBox())!;
    expect(start.y + start.height).toBeLessThanOrEqual(844);
  }
  await page.getByTestId('tab-charts').click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: 'test-results/ui-phone.png' });
});
