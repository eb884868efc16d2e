// Comparing runs in front of a class (issue 49): each run has a colour and a marker shape, every chart has an
// always-visible compact legend, metrics a mode lacks are not drawn (golden: no tester reward, validity or Mistake
// Book), held-out pass@1 carries its CI band where the records have one, and a shipped reference bundle imports as a
// run.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { sampleBundle } from '../src/app/testing/sample-bundle';
import { encodeBundle } from '../src/app/persist/bundle';
import { RUN_FILES } from '../src/run/run-layout';
import { shippedReference } from './shipped-reference';

const REF = shippedReference();

async function open(page: Page, hash = '') {
  await page.goto('/' + hash);
  await page.waitForSelector('html[data-restored="true"]');
}

test('reference runs: colour + marker per run, legends always visible, golden lacks tester lines, CI bands', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await open(page, '#preset=tiny&mode=code-a1&seed=1');
  await page.getByTestId('controls-reference').click();
  const n = REF.runs.length;
  await expect(page.getByTestId('run-row')).toHaveCount(n);
  await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-steps', String(REF.steps));
  const legend = page.getByTestId('legend-coder-reward');
  await expect(legend).toBeVisible();
  const items = legend.locator('li');
  await expect(items).toHaveCount(n);
  const marks = await legend
    .locator('.legend-mark')
    .evaluateAll((els) => els.map((e) => `${e.textContent}|${getComputedStyle(e).color}`));
  // One shape and one colour per run: a run is told apart by more than colour.
  expect(new Set(marks.map((m) => m.split('|')[0])).size).toBe(n);
  expect(new Set(marks.map((m) => m.split('|')[1])).size).toBe(n);
  const golden = REF.runs.findIndex((r) => r.mode === 'golden');
  await expect(items.nth(golden)).toContainText(new RegExp(`#${golden + 1} golden \\d`)); // the last value, no hover
  // Golden has coder lines only: the other runs × 3 tester metrics, × 1 Mistake Book series; its legend says why.
  await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-series', String(n * 2));
  await expect(page.getByTestId('chart-tester-reward')).toHaveAttribute('data-series', String(REF.nonGolden * 3));
  await expect(page.getByTestId('chart-mistake-book')).toHaveAttribute('data-series', String(REF.nonGolden));
  // Every golden run named once, in one shared entry: a line per golden run would push the chart off a small screen.
  const absent = page.getByTestId('legend-tester-reward').locator('li.absent');
  await expect(absent).toHaveCount(1);
  await expect(absent).toContainText('in golden mode');
  const goldens = REF.runs.flatMap((r, i) => (r.mode === 'golden' ? [`#${i + 1}`] : []));
  await expect(absent).toContainText(`${goldens.join(' ')} golden`);
  // Held-out pass@1 with a band per run whose eval records carry an interval.
  const heldOut = page.getByTestId('chart-held-out');
  await expect(heldOut).toHaveAttribute('data-series', /^[1-9]/);
  const bands = Number(await heldOut.getAttribute('data-bands'));
  const withCi = await page.evaluate(
    () => window.__lab!.store.getState().series.filter((r) => r.heldOutEvals?.some((e) => e.passAt1CI)).length,
  );
  console.log(`held-out chart: ${bands} bands for ${withCi} runs with CI records`);
  expect(bands).toBe(withCi);
  await page.screenshot({ path: 'test-results/ui-class-compare.png' });
});

test('a shipped reference bundle imports as a run (metrics only), with a message that says so', async ({ page }) => {
  await open(page);
  const { file } = REF.runs.find((r) => r.mode === 'golden')!;
  await page.getByTestId('import').setInputFiles({
    name: file,
    mimeType: 'application/octet-stream',
    buffer: readFileSync(`public/reference/${file}`),
  });
  await expect(page.getByText('as a run to compare with')).toBeVisible();
  await expect(page.getByTestId('run-row')).toHaveCount(1);
  const run = REF.runs.find((r) => r.file === file)!;
  await expect(page.getByTestId('run-label').first()).toContainText(run.label);
  await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-steps', String(run.steps));
});

test('held-out pass@1 of a compared run draws its 95% CI band from the eval records', async ({ page }) => {
  await open(page);
  const { bundle } = sampleBundle(21, 4);
  const row = (step: number, p: number) => ({
    step,
    rows: [
      {
        split: 'heldout',
        problems: 8,
        coderPass1: p,
        coderPass1Greedy: p,
        selectedPass1: p,
        testerValidity: 0.5,
        mutationScore: 0.5,
        passAtK: 0.5,
        mutAtK: 0.5,
        mul: 0.25,
        ci: { coderPass1: [p - 0.1, p + 0.1] },
      },
    ],
  });
  const files = (bundle.snapshot as { files: Record<string, Uint8Array> }).files;
  files[RUN_FILES.evals] = new TextEncoder().encode(
    [row(0, 0.3), row(3, 0.45)].map((r) => JSON.stringify(r)).join('\n'),
  );
  await page.getByTestId('compare').setInputFiles({
    name: 'with-ci.codea1',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(encodeBundle(bundle)),
  });
  const heldOut = page.getByTestId('chart-held-out');
  await expect(heldOut).toHaveAttribute('data-bands', '1');
  await expect(heldOut).toHaveAttribute('data-steps', '2');
  await expect(page.getByTestId('legend-held-out')).toContainText('45.0% [35–55]');
});
