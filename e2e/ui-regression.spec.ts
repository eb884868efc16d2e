// Fixed-seed regression runs: each e2e/regression/*.json names a config and the first steps' metrics it must
// reproduce in the browser within its stated tolerance. REGRESSION_UPDATE=1 rewrites the stored metrics instead.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { StepMetrics } from '../src/rl/metrics';
import type { RunConfigUi } from '../src/app/config/run-config';
import { encodeConfigHash } from '../src/app/config/url-codec';
import { compareMetrics, formatMismatches, maxMetricDiff, type Tolerance } from '../src/app/testing/compare-metrics';

interface Baseline {
  name: string;
  config: RunConfigUi;
  steps: number;
  /** |a − b| ≤ abs + rel·max(|a|, |b|); timing keys (time, time/*, perf/*) are never compared. */
  tolerance: Tolerance;
  ignore?: string[];
  metrics: StepMetrics[];
}

const DIR = 'e2e/regression';
const update = process.env.REGRESSION_UPDATE === '1';

for (const file of readdirSync(DIR).filter((f) => f.endsWith('.json'))) {
  const path = join(DIR, file);
  const base = JSON.parse(readFileSync(path, 'utf8')) as Baseline;
  test(`regression: ${base.name} (${file})`, async ({ page }) => {
    test.setTimeout((base.steps + 1) * 240_000);
    await page.goto('/' + encodeConfigHash(base.config));
    await page.waitForSelector('html[data-restored="true"]');
    await expect(page.getByTestId('adapter')).toBeVisible();
    for (let i = 1; i <= base.steps; i++) {
      await page.getByTestId('single-step').click();
      await expect.poll(() => page.evaluate(() => window.__lab!.store.getState().step), { timeout: 240_000 }).toBe(i);
      await expect
        .poll(() => page.evaluate(() => window.__lab!.store.getState().status), { timeout: 60_000 })
        .toBe('paused');
    }
    const got = await page.evaluate(() => window.__lab!.store.getState().series[0].metrics);
    if (update) {
      writeFileSync(path, JSON.stringify({ ...base, metrics: got }, null, 1) + '\n');
      test.info().annotations.push({ type: 'baseline', description: `wrote ${got.length} steps to ${path}` });
      return;
    }
    expect(
      base.metrics.length,
      `${path} holds no metrics yet: run once with REGRESSION_UPDATE=1 to record them`,
    ).toBeGreaterThan(0);
    const worst = maxMetricDiff(base.metrics, got);
    console.log(
      `max |diff| ${worst.diff} (${worst.key || 'none'} at step ${worst.step}) over ${base.metrics.length} steps`,
    );
    const bad = compareMetrics(base.metrics, got, base.tolerance, base.ignore);
    expect(
      bad,
      `out of tolerance (abs ${base.tolerance.abs}, rel ${base.tolerance.rel}):\n${formatMismatches(bad)}`,
    ).toEqual([]);
  });
}
