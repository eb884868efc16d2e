// Fixed-seed regression runs, in each browser: each e2e/regression/*.json names a config and the first steps' metrics
// it must reproduce within its stated tolerance (the same file for Chromium on Dawn/SwiftShader and Firefox on
// wgpu/lavapipe, recorded in Chromium; why they may differ at all is in the file's note). REGRESSION_UPDATE=1 rewrites
// the stored metrics instead (in the browser that runs it).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { byTestId, expect, test } from './driver/test';
import type { StepMetrics } from '../src/rl/metrics';
import type { RunConfigUi } from '../src/app/config/run-config';
import { encodeConfigHash } from '../src/app/config/url-codec';
import { compareMetrics, formatMismatches, maxMetricDiff, type Tolerance } from '../src/app/testing/compare-metrics';
import { singleSteps } from './driver/lab-run';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { hyperParam } from '../src/app/config/run-config';
import { parseMetricsJsonl } from '../src/rl/metrics';

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
  test(`regression: ${base.name} (${file})`, async ({ lab }) => {
    test.setTimeout((base.steps + 1) * 240_000);
    await lab.goto('/' + encodeConfigHash(base.config));
    await lab.waitVisible('html[data-restored="true"]');
    await lab.waitVisible(byTestId('adapter'));
    const got = await singleSteps(lab, base.steps);
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
      `${lab.browser}: max |diff| ${worst.diff} (${worst.key || 'none'} at step ${worst.step}) over ${base.metrics.length} steps`,
    );
    const bad = compareMetrics(base.metrics, got, base.tolerance, base.ignore);
    expect(
      bad,
      `${lab.browser} out of tolerance (abs ${base.tolerance.abs}, rel ${base.tolerance.rel}):\n${formatMismatches(bad)}`,
    ).toEqual([]);
  });
}

// The same baselines from the CLI (`npm run train`, Node + Dawn): browser-independent, so run once (Chromium project).
for (const file of readdirSync(DIR).filter((f) => f.endsWith('.json'))) {
  const path = join(DIR, file);
  const base = JSON.parse(readFileSync(path, 'utf8')) as Baseline;
  test(`regression (CLI): ${base.name} (${file})`, async ({ labBrowser }) => {
    test.skip(labBrowser !== 'chromium' || update, 'the CLI run does not depend on the browser');
    test.setTimeout((base.steps + 1) * 240_000);
    const out = mkdtempSync(join(tmpdir(), 'code-a1-regression-'));
    try {
      const sets = Object.entries(base.config.overrides).flatMap(([key, value]) => {
        const h = hyperParam(key);
        if (!h) throw new Error(`${path}: unknown override '${key}'`);
        return ['--set', `${h.path}=${value}`];
      });
      const args = ['--preset', base.config.preset, '--mode', base.config.mode, '--seed', String(base.config.seed)];
      execFileSync(
        'npx',
        ['tsx', '--import', './scripts/raw-loader.mjs', 'src/cli/train.ts', ...args, ...sets].concat([
          '--steps',
          String(base.steps),
          '--out',
          out,
        ]),
        { stdio: 'inherit', timeout: base.steps * 240_000 },
      );
      const got = parseMetricsJsonl(readFileSync(join(out, 'metrics.jsonl'), 'utf8'));
      const worst = maxMetricDiff(base.metrics, got);
      console.log(
        `cli: max |diff| ${worst.diff} (${worst.key || 'none'} at step ${worst.step}) over ${got.length} steps`,
      );
      const bad = compareMetrics(base.metrics, got, base.tolerance, base.ignore);
      expect(bad, `cli out of tolerance:\n${formatMismatches(bad)}`).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
}
