// The neighbouring methods as modes in the browser (micro preset, real models and sandbox in the Worker): TCS and ACE
// each run two steps, their charts fill, and the step-through view and charts explain the mode in its own terms.
import { expect, test, type Page } from '@playwright/test';

const STEP_TIMEOUT = 240_000; // one micro step on SwiftShader, with room for a loaded CI machine

async function open(page: Page, hash: string) {
  await page.goto('/' + hash);
  await page.waitForSelector('html[data-restored="true"]');
  await expect(page.getByTestId('adapter')).toBeVisible();
}

const cases = [
  { mode: 'ace', title: /ACE/, node: /crash each program/, note: /No ground truth/ },
  { mode: 'tcs', title: /TCS/, node: /buffered programs/, note: /stage 1 consistency/ },
];

for (const c of cases) {
  test(`${c.mode}: two micro steps train in the Worker; the charts and the step view explain the mode`, async ({
    page,
  }) => {
    test.setTimeout(6 * STEP_TIMEOUT);
    await open(page, `#preset=micro&mode=${c.mode}&seed=1`);
    await expect(page.getByTestId('mode')).toHaveValue(c.mode);
    await page.getByTestId('start').click();
    await expect
      .poll(() => page.evaluate(() => window.__lab!.store.getState().step), {
        timeout: 4 * STEP_TIMEOUT,
        intervals: [1000],
      })
      .toBeGreaterThanOrEqual(2);
    await page.getByTestId('pause').click();
    await expect
      .poll(() => page.evaluate(() => window.__lab!.store.getState().status), { timeout: STEP_TIMEOUT })
      .toBe('paused');
    const metrics = await page.evaluate(() => window.__lab!.store.getState().series[0].metrics);
    expect(
      metrics.every(
        (m) => m.mode === c.mode && Number.isFinite(m['coder/reward_mean']) && Number.isFinite(m['tester/loss']),
      ),
    ).toBe(true);
    await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-steps', String(metrics.length));
    await expect(page.getByTestId('charts-mode-note')).toContainText(c.note);
    await expect(page.getByTestId('loop-diagram')).toContainText(c.title);
    await expect(page.getByTestId('loop-diagram')).toContainText(c.node);
    await page.screenshot({ path: `test-results/ui-methods-${c.mode}.png`, fullPage: true });
  });
}

test('evolve this problem’s tests: the rollout inspector evolves the problem’s suite and offers it as JSONL', async ({
  page,
}) => {
  test.setTimeout(4 * STEP_TIMEOUT);
  await open(page, '#preset=micro&mode=golden&seed=1');
  await page.getByTestId('start').click();
  await expect
    .poll(() => page.evaluate(() => window.__lab!.store.getState().step), {
      timeout: 2 * STEP_TIMEOUT,
      intervals: [1000],
    })
    .toBeGreaterThanOrEqual(1);
  await page.getByTestId('pause').click();
  await page.getByTestId('tab-rollouts').click();
  await page.getByTestId('evolve-tests').click();
  const result = page.getByTestId('evolve-result');
  await expect(result).toBeVisible({ timeout: STEP_TIMEOUT });
  await expect(result).toContainText(/Pool pass rate \d\.\d\d → \d\.\d\d/);
  // The curriculum's mutants are separated: every kept test separates at least one candidate.
  const tests = page.getByTestId('evolved-test');
  expect(await tests.count()).toBeGreaterThan(0);
  await expect(tests.first()).toContainText(/separates [^n]/);
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId('evolve-download').click()]);
  const { readFileSync } = await import('node:fs');
  const rec = JSON.parse(readFileSync(await dl.path(), 'utf8')) as {
    test_list: string[];
    lineage: { round: number; separated: string[] }[];
  };
  expect(rec.test_list.length).toBe(await tests.count());
  expect(rec.lineage.every((l) => l.separated.length > 0)).toBe(true);
  await page.screenshot({ path: 'test-results/ui-methods-evolve.png', fullPage: true });
});
