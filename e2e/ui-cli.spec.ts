// One code path: the same seed run headless with the CLI (`npm run train`, Node + Dawn) and in the browser (the
// Worker, Chromium WebGPU) gives the same metrics within the stated tolerance.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { parseMetricsJsonl } from '../src/rl/metrics';
import { encodeConfigHash } from '../src/app/config/url-codec';
import { compareMetrics, formatMismatches, maxMetricDiff } from '../src/app/testing/compare-metrics';

const STEPS = 2;
const SEED = 4;
// Both run SwiftShader here; across real GPUs float reductions differ in order, so allow a little.
const TOLERANCE = { abs: 1e-4, rel: 1e-3 };

test('CLI and browser runs of the same seed give the same metrics', async ({ page }) => {
  test.setTimeout(8 * 240_000);
  const out = mkdtempSync(join(tmpdir(), 'code-a1-cli-'));
  try {
    execFileSync(
      'npx',
      [
        'tsx',
        '--import',
        './scripts/raw-loader.mjs',
        'src/cli/train.ts',
        '--preset',
        'micro',
        '--mode',
        'code-a1',
        '--seed',
        String(SEED),
        '--steps',
        String(STEPS),
        '--out',
        out,
      ],
      { stdio: 'inherit', timeout: 4 * 240_000 },
    );
    const cli = parseMetricsJsonl(readFileSync(join(out, 'metrics.jsonl'), 'utf8'));
    expect(cli).toHaveLength(STEPS);

    await page.goto('/' + encodeConfigHash({ preset: 'micro', mode: 'code-a1', seed: SEED, overrides: {} }));
    await page.waitForSelector('html[data-restored="true"]');
    for (let i = 1; i <= STEPS; i++) {
      await page.getByTestId('single-step').click();
      await expect.poll(() => page.evaluate(() => window.__lab!.store.getState().step), { timeout: 240_000 }).toBe(i);
      await expect
        .poll(() => page.evaluate(() => window.__lab!.store.getState().status), { timeout: 60_000 })
        .toBe('paused');
    }
    const web = await page.evaluate(() => window.__lab!.store.getState().series[0].metrics);
    const worst = maxMetricDiff(cli, web);
    console.log(`max |diff| ${worst.diff} (${worst.key || 'none'} at step ${worst.step}) over ${cli.length} steps`);
    const bad = compareMetrics(cli, web, TOLERANCE);
    expect(bad, formatMismatches(bad)).toEqual([]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
