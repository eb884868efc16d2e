// The presenter view and run comparison with real training (micro preset, few steps): the view a first visit gets,
// the shipped reference runs overlaid on a live run, honest busy states (loading, the phase running, pausing after
// this step, progress and ETA), comparison settings kept across a reload, and confirmations before losing a run.
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { shippedReference } from './shipped-reference';

const REF = shippedReference();

const STEP_TIMEOUT = 240_000; // one micro step on SwiftShader, with room for a loaded CI machine

async function open(page: Page, hash = '') {
  await page.goto('/' + hash);
  await page.waitForSelector('html[data-restored="true"]');
  await expect(page.getByTestId('adapter')).toBeVisible();
}

const state = <T>(page: Page, f: string) =>
  page.evaluate((f) => (window.__lab!.store.getState() as unknown as Record<string, T>)[f], f);

async function aboveFold(page: Page, ids: string[]) {
  const vp = page.viewportSize()!;
  for (const id of ids) {
    const b = (await page.getByTestId(id).boundingBox())!;
    expect(b.y + b.height, `${id} above the fold at ${vp.width}×${vp.height}`).toBeLessThanOrEqual(vp.height);
    expect(b.x + b.width).toBeLessThanOrEqual(vp.width);
  }
}

test('first visit: presenter view with the controls above the fold (1440×900 and 390×844), hyperparameters collapsed; the choice is kept', async ({
  page,
}) => {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await open(page);
    await expect(page.getByTestId('presenter-toggle')).toBeChecked();
    await expect(page.getByTestId('loop-diagram')).toBeVisible();
    await expect(page.getByTestId('hyperparameters')).not.toHaveAttribute('open');
    await aboveFold(page, ['start', 'single-step', 'pause', 'reset']);
    if (width === 1440) await aboveFold(page, ['loop-diagram']);
  }
  await page.getByTestId('presenter-toggle').uncheck();
  await expect(page.getByTestId('loop-diagram')).toHaveCount(0);
  await expect(page.getByTestId('hyperparameters')).toHaveAttribute('open');
  await page.reload();
  await page.waitForSelector('html[data-restored="true"]');
  await expect(page.getByTestId('presenter-toggle')).not.toBeChecked();
});

test('reference runs overlay a live micro run; busy states, labels, kept overlays, confirmations, readable file names', async ({
  page,
}) => {
  test.setTimeout(8 * STEP_TIMEOUT);
  await page.setViewportSize({ width: 1440, height: 900 });
  await open(page, '#preset=micro&mode=code-a1&seed=4&alpha=0.9');
  // A broken upload first: it is refused, so the run below still starts from the shipped micro models.
  await page.getByTestId('tab-model').click();
  await page.getByTestId('model-coder-files').setInputFiles(
    ['model.safetensors', 'config.json', 'tokenizer.json'].map((name) => ({
      name,
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('broken'),
    })),
  );
  await expect(page.getByTestId('model-error')).toContainText('coder model');
  await page.getByTestId('tab-charts').click();

  // One click: the shipped reference runs are on the charts before any live step.
  await page.getByTestId('controls-reference').click();
  await expect(page.getByTestId('run-row')).toHaveCount(REF.runs.length);
  await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-steps', String(REF.steps));
  await expect(page.getByTestId('run-label')).toContainText(REF.runs.map((r) => r.label));
  await expect(page.getByTestId('runs-table')).toContainText('%'); // held-out pass@1 from the runs' evals

  // The live run: loading, then the phases with a progress bar, then an ETA from the steps done.
  await page.getByTestId('start').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-activity', 'loading');
  await expect(page.getByTestId('step-progress')).toBeVisible();
  await expect(page.getByTestId('eta')).toContainText('first step', { timeout: STEP_TIMEOUT });
  await expect.poll(() => state<number>(page, 'step'), { timeout: 2 * STEP_TIMEOUT }).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId('eta')).toContainText(/left|longer than/);
  expect(await state<string>(page, 'modelSource')).toContain('shipped');
  await page.getByTestId('pause').click();
  // (A cold session may still be compiling the update's shaders: the line then also counts them.)
  await expect(page.getByTestId('run-activity')).toHaveText(/^pausing at the next phase or micro-batch…/);
  await expect(page.getByTestId('pause')).toBeDisabled();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'paused', { timeout: STEP_TIMEOUT });
  await expect(page.getByTestId('run-activity')).toHaveText(/^paused/);
  const steps = await state<number>(page, 'step');

  // The live run first, in its own colour, labelled with what differs from the preset; the overlays stay.
  await expect(page.getByTestId('run-row')).toHaveCount(REF.runs.length + 1);
  await expect(page.getByTestId('run-label').first()).toHaveText('code-a1 · micro · seed 4 · α 0.9');
  await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute(
    'data-series',
    String((REF.runs.length + 1) * 2),
  );
  await expect(page.getByTestId('loop-count-tester')).toContainText('assert lines');
  await page.screenshot({ path: 'test-results/ui-presenter-overlay.png' });

  // Show / hide, smoothing and log scale; a reload keeps the overlays and the settings.
  await page.getByTestId('run-visible').nth(2).uncheck();
  await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-series', String(REF.runs.length * 2));
  await page.getByTestId('smoothing').fill('0.6');
  await page.getByTestId('log-scale').check();
  await page.reload();
  await page.waitForSelector('html[data-restored="true"]');
  await expect(page.getByTestId('run-row')).toHaveCount(REF.runs.length + 1);
  await expect(page.getByTestId('run-visible').nth(2)).not.toBeChecked();
  await expect(page.getByTestId('smoothing')).toHaveValue('0.6');
  await expect(page.getByTestId('log-scale')).toBeChecked();
  await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-series', String(REF.runs.length * 2));

  // The bundle's file name says what the run is.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
  expect(download.suggestedFilename()).toBe(`code-a1-micro-seed4-alpha0.9-step${steps}.codea1`);

  // Reset and delete ask first; the saved run shows when it was saved.
  await page.getByTestId('reset').click();
  await expect(page.getByTestId('reset-confirm')).toBeVisible();
  await page.getByTestId('reset-cancel').click();
  expect(await state<number>(page, 'step')).toBe(steps);
  await page.getByTestId('reset').click();
  await page.getByTestId('reset-confirm').click();
  await expect(page.getByTestId('run-step')).toHaveText('0');
  await expect(page.getByTestId('run-row')).toHaveCount(REF.runs.length);
  await page.getByTestId('storage').locator('summary').click();
  const saved = page.getByTestId('saved-run').first();
  await expect(saved.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  await saved.getByTestId('delete-run').click();
  await expect(saved.getByTestId('delete-confirm')).toBeVisible();
});

test('step-through: the phase button says what runs and is disabled until the Worker waits again', async ({ page }) => {
  test.setTimeout(4 * STEP_TIMEOUT);
  await open(page, '#preset=micro&mode=code-a1&seed=3');
  await page.getByTestId('tab-steps').click();
  await page.getByTestId('step-through').check();
  await page.getByTestId('single-step').click();
  const next = page.getByTestId('next-phase');
  await expect(next).toBeEnabled({ timeout: STEP_TIMEOUT });
  await expect(next).toHaveText('Run phase: 1. Coder rollout ▶');
  await expect(page.getByTestId('run-activity')).toContainText('waiting');
  await next.click();
  // Decoding takes seconds: the button must not offer the phase that already runs.
  await expect(next).toBeDisabled();
  await expect(next).toHaveText('Running 1. Coder rollout…');
  await expect(page.getByTestId('loop-coder')).toHaveAttribute('data-active', 'true');
  await expect(next).toHaveText('Run phase: 2. White-box tester rollout ▶', { timeout: STEP_TIMEOUT });
  await expect(page.getByTestId('loop-tester')).toHaveAttribute('data-active', 'true');
  await expect(page.getByTestId('loop-count-coder')).toContainText('candidates');
  await page.getByTestId('step-through').uncheck();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'paused', { timeout: STEP_TIMEOUT });
});

test('screenshots of the presenter view for the docs (UPDATE_SCREENSHOTS=1 writes docs/screenshots)', async ({
  page,
}) => {
  const dir = process.env.UPDATE_SCREENSHOTS ? 'docs/screenshots' : 'test-results/screenshots';
  mkdirSync(dir, { recursive: true });
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await open(page, '#preset=tiny&mode=code-a1&seed=1');
    if (!(await page.getByTestId('run-row').count())) await page.getByTestId('controls-reference').click();
    await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-steps', String(REF.steps));
    await page.getByTestId('smoothing').fill('0.5');
    await page.waitForTimeout(300);
    // Overlaying scrolls the runs table into view; the docs' picture is the first screen.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${dir}/presenter-${width}x${height}.png` });
  }
});
