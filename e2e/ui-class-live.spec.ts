// A live micro run as a class sees it (issue 49): the Coder's and the Tester's text streams in before the first step
// ends, each phase lights in turn with progress inside GRPO, a pause takes hold within one phase (counted in phases,
// not seconds), and resuming gives the same step as a run never paused. The ticks, words and Mistake Book checks of
// the other class specs run on the live step too.
import { expect, test, type Page } from '@playwright/test';
import { checkBookEntries, checkOneVocabulary, checkTicks } from './class-helpers';

const STEP_TIMEOUT = 240_000;
const PHASES = ['coder-rollout', 'tester-rollout', 'validation', 'execution', 'rewards', 'mistake-book', 'update'];

async function open(page: Page, hash: string) {
  await page.goto('/' + hash);
  await page.waitForSelector('html[data-restored="true"]');
}

/**
 * Records in the page (a micro step takes about a second: polling from the test would miss it): each loop node that
 * lights, every fill of the GRPO segment of the bar, the first streamed text of each role with the chart's step count
 * at that moment.
 */
async function recordInPage(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as Rec;
    w.rec = { lights: [], updateFills: [], streams: {} };
    const r = w.rec;
    new MutationObserver(() => {
      const lit = document.querySelector('[data-testid^="loop-"][data-active="true"]')?.getAttribute('data-testid');
      if (lit && r.lights.at(-1) !== lit) r.lights.push(lit);
      const f = document.querySelector('.pseg[data-phase="update"]')?.getAttribute('data-fill');
      if (f && r.updateFills.at(-1) !== f) r.updateFills.push(f);
      for (const who of ['coder', 'tester']) {
        const el = document.querySelector(`[data-testid="stream-${who}"] pre`);
        const text = el?.textContent?.trim() ?? '';
        if (text && !r.streams[who])
          r.streams[who] = {
            text,
            chartSteps: document.querySelector('[data-testid="chart-coder-reward"]')!.getAttribute('data-steps')!,
          };
      }
    }).observe(document.body, { subtree: true, attributes: true, childList: true, characterData: true });
  });
}

interface Rec {
  rec: {
    lights: string[];
    updateFills: string[];
    streams: Record<string, { text: string; chartSteps: string }>;
  };
}

const metricsOf = (page: Page) =>
  page.evaluate(() => {
    const s = window.__lab!.store.getState();
    return s.series.find((r) => r.id === s.runId)!.metrics;
  });

/** The numbers of a step that depend on training alone (not timings or throughput). */
function numbers(m: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(m).filter(([k]) => !k.startsWith('time') && !k.startsWith('perf/') && k !== 'time'),
  );
}

test('live micro run: streaming text, phase lights, GRPO progress, pause within a phase, exact resume', async ({
  page,
}) => {
  test.setTimeout(6 * STEP_TIMEOUT);
  await page.setViewportSize({ width: 1440, height: 900 });
  const hash = '#preset=micro&mode=code-a1&seed=6';

  // 1. An unpaused single step: the reference numbers.
  await open(page, hash);
  await page.getByTestId('single-step').click();
  await expect(page.getByTestId('run-step')).toHaveText('1', { timeout: STEP_TIMEOUT });
  const plain = numbers((await metricsOf(page))[0] as unknown as Record<string, unknown>);
  await page.getByTestId('reset').click();
  await page.getByTestId('reset-confirm').click();
  await expect(page.getByTestId('run-step')).toHaveText('0');

  // 2. The same step watched phase by phase (step-through makes the timing deterministic: a micro step takes about
  // a second), with Pause pressed while the run waits before the GRPO update.
  await recordInPage(page);
  await page.getByTestId('step-through').check();
  await page.getByTestId('start').click();
  await page.getByTestId('tab-steps').click();
  const next = page.getByTestId('next-phase');
  for (const p of PHASES.slice(0, -1)) {
    await expect(next).toBeEnabled({ timeout: STEP_TIMEOUT });
    await expect(next).toContainText(p === 'coder-rollout' ? 'Coder rollout' : '');
    await next.click();
  }
  await expect(next).toHaveText('Run phase: 7. GRPO update ▶', { timeout: STEP_TIMEOUT });
  // The text streamed in before the step ended (the chart had no point yet).
  const rec = () => page.evaluate(() => (window as unknown as Rec).rec);
  const { streams } = await rec();
  console.log(`streamed: coder “${streams.coder?.text.slice(0, 60)}…”, tester “${streams.tester?.text.slice(0, 60)}…”`);
  for (const who of ['coder', 'tester']) {
    expect(streams[who]?.text.length, who).toBeGreaterThan(0);
    expect(streams[who].chartSteps).toBe('0');
  }

  // 3. Pause latency in phases: pressed before the update, it holds at the update's first micro-batch boundary.
  await page.getByTestId('pause').click();
  await page.getByTestId('step-through').uncheck();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'paused', { timeout: STEP_TIMEOUT });
  const held = await page.evaluate(() => {
    const s = window.__lab!.store.getState();
    return { held: s.held, phase: s.currentPhase, step: s.step };
  });
  console.log(`pause pressed before the update; held: ${held.held} in ${held.phase}`);
  expect(held).toEqual({ held: true, phase: 'update', step: 0 });
  await expect(page.getByTestId('run-activity')).toContainText('paused inside step 0');
  await page.waitForTimeout(1500);
  expect(await page.evaluate(() => window.__lab!.store.getState().currentPhase)).toBe('update');
  expect(await page.getByTestId('chart-coder-reward').getAttribute('data-steps')).toBe('0');
  await expect(page.getByTestId('start')).toHaveText('Resume');
  await page.getByTestId('start').click();
  await expect(page.getByTestId('run-step')).not.toHaveText('0', { timeout: STEP_TIMEOUT });
  await page.getByTestId('pause').click();
  await expect(page.getByTestId('run-status')).toHaveAttribute('data-status', 'paused', { timeout: STEP_TIMEOUT });

  // 4. The paused-and-resumed step has the unpaused step's numbers.
  const watched = numbers((await metricsOf(page))[0] as unknown as Record<string, unknown>);
  expect(watched).toEqual(plain);

  // 5. What lit, in order, and progress inside GRPO.
  const { lights, updateFills } = await rec();
  console.log(`lit: ${lights.join(' → ')}; update bar: ${updateFills.join(' ')}`);
  const order = ['loop-coder', 'loop-tester', 'loop-validation', 'loop-execution', 'loop-grpo'];
  expect(order.map((id) => lights.indexOf(id))).toEqual(
    [...order.map((id) => lights.indexOf(id))].sort((a, b) => a - b),
  );
  for (const id of order) expect(lights).toContain(id);
  const fills = updateFills.map(Number).filter((f) => f > 0.05 && f < 1);
  expect(fills.length, `update fills ${updateFills.join(' ')}`).toBeGreaterThan(0);

  // 6. The live step's ticks, words and Mistake Book.
  await page.waitForTimeout(300);
  expect(await checkTicks(page)).toBeGreaterThanOrEqual(4);
  await checkOneVocabulary(page);
  if (await page.getByTestId('mistake-group').count()) expect(await checkBookEntries(page)).toBeGreaterThan(0);
});
