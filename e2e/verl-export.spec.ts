// "Export for a cluster (verl)" in the Run panel downloads a zip with the same files `npm run export -- --verl`
// writes (checked by reading them back in Node); a cluster run's log, imported as `npm run import-run` does, overlays
// on the charts through "Compare with…".
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { unzipSync } from 'fflate';
import { curriculumProblems, VERL_FILES } from '../src/export/verl/index';
import { parseVerlConfig } from '../src/export/verl/config-yaml';
import { parquetColumns, readRows, RELEASE_COLUMNS, rowToProblem } from '../src/export/verl/dataset';
import { parseConsoleLog, toLabMetrics } from '../src/export/verl/logs';
import { presetConfig } from '../src/rl/config';

async function fresh(page: Page, hash = '') {
  await page.goto('/' + hash);
  await page.waitForSelector('html[data-restored="true"]');
}

test('the Run panel downloads the verl export as a zip of the exporter’s files', async ({ page }) => {
  await fresh(page, '#preset=tiny&mode=code-a1&seed=3&M=8&alpha=0.25');
  await page.getByTestId('verl-export').locator('summary').click();
  await page.getByTestId('verl-tester').fill('org/my-tester');
  // A bad cluster size is explained, nothing is downloaded.
  await page.getByTestId('verl-gpus').fill('3');
  await page.getByTestId('verl-export-button').click();
  await expect(page.getByTestId('verl-export-error')).toContainText('--gpus-per-node must be even');
  await page.getByTestId('verl-gpus').fill('8');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('verl-export-button').click()]);
  expect(download.suggestedFilename()).toBe('tiny-code-a1-seed3-verl.zip');
  await expect(page.getByTestId('verl-export-notes')).toContainText('rollout.tests_per_group');
  await page.screenshot({ path: 'test-results/verl-export.png', fullPage: true });

  const zip = unzipSync(new Uint8Array(readFileSync((await download.path())!)));
  expect(Object.keys(zip).sort()).toEqual(VERL_FILES.map((f) => `tiny-code-a1-seed3/${f}`).sort());
  const file = (f: string) => zip[`tiny-code-a1-seed3/${f}`];
  const flat = parseVerlConfig(new TextDecoder().decode(file('config.yaml')));
  expect(flat['actor_rollout_ref.rollout.n']).toBe(8);
  expect(flat['reward_model.reward_kwargs.alpha']).toBe(0.25);
  expect(flat['other.actor_rollout_ref.model.path']).toBe('org/my-tester');
  expect(flat['trainer.experiment_name']).toBe('tiny-code-a1-seed3');
  expect(parquetColumns(file('val.parquet'))).toEqual([...RELEASE_COLUMNS]);
  const cur = curriculumProblems(presetConfig('tiny'));
  const train = (await readRows(file('train.parquet'))).map(rowToProblem);
  expect(train.map((p) => p.id)).toEqual(cur.train.map((p) => p.id));
  expect(train[0].hiddenTests).toEqual(cur.train[0].hiddenTests);
  expect(new TextDecoder().decode(file('launch.sh'))).toContain('GPUS_PER_NODE=8');

  // Baselines have no published recipe: the button says so instead of exporting.
  await page.getByTestId('mode').selectOption('golden');
  await expect(page.getByTestId('verl-export-button')).toBeDisabled();
});

test('a cluster run’s console log, imported, overlays on the charts', async ({ page }) => {
  const lines = [1, 2, 3].map(
    (s) =>
      `(TaskRunner pid=1) step:${s} - reward_a/mean:${(0.1 * s).toFixed(3)} - reward_b2/mean:0.400 - actor_a/pg_loss:-0.010`,
  );
  const metrics = toLabMetrics(parseConsoleLog(lines.join('\n')));
  await fresh(page);
  await page.getByTestId('compare').setInputFiles({
    name: 'cluster-metrics.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(metrics.map((m) => JSON.stringify(m)).join('\n')),
  });
  await expect(page.getByTestId('info-banner')).toContainText('Added cluster-metrics.jsonl');
  await expect(page.getByTestId('chart-coder-reward')).toHaveAttribute('data-steps', '3');
  await expect(page.getByTestId('charts')).toContainText('cluster-metrics.jsonl (3 steps)');
});
